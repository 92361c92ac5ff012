import type { IDataObject } from 'n8n-workflow';

import { pixelLocator } from '../../shared/locators';
import { requestOnRecord } from '../../shared/recordRequest';
import { fieldsCollection, recordOf } from '../../shared/records';
import type { OperationDef } from '../../shared/types';
import { extraOption, nameProperty, platformProperty, trackingIdProperty } from './descriptions';
import { explainPixelNotFound, PIXEL_ID, readPixelBody } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const update: OperationDef = {
	value: 'update',
	name: 'Update',
	action: 'Update a pixel',
	description: 'Change the name, platform or platform pixel ID of a pixel',
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
