import type { IDataObject } from 'n8n-workflow';

import { pixelLocator } from '../../fields/locators';
import { requestOnRecord } from '../../fields/recordRequest';
import { fieldsCollection, recordOf } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { extraOption, nameProperty, platformProperty, trackingIdProperty } from './descriptions';
import { explainPixelNotFound, PIXEL_ID, readPixelBody } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const update: OperationDef = {
	value: 'update',
	name: 'Update',
	action: 'Update a pixel',
	description: 'Change the name, platform or platform pixel ID of a pixel',
	recordKey: 'pixelId',
	properties: [
		pixelLocator('The pixel to update'),
		fieldsCollection('update', [extraOption, nameProperty, platformProperty, trackingIdProperty]),
	],
	async execute(i) {
		const { data } = await requestOnRecord.call(this, i, {
			...ENDPOINTS.pixel.update,
			id: PIXEL_ID,
			explain: explainPixelNotFound,
			body: () => readPixelBody.call(this, this.getNodeParameter('updateFields', i, {}) as IDataObject, i),
			requireBody: 'Update Fields: set at least one field to change',
		});
		return recordOf(data, 'pixel');
	},
};
