import type { IDataObject } from 'n8n-workflow';

import { pixelLocator } from '../../shared/locators';
import { recordOperation } from '../../shared/recordOperation';
import { fieldsCollection, recordOf } from '../../shared/records';
import { extraOption, nameProperty, platformProperty, trackingIdProperty } from './descriptions';
import { explainPixelNotFound, readPixelBody } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const update = recordOperation({
	value: 'update',
	name: 'Update',
	action: 'Update a pixel',
	description: 'Change the name, platform or platform pixel ID of a pixel',
	id: { property: pixelLocator('The pixel to update'), label: 'Pixel' },
	properties: [
		fieldsCollection('update', [extraOption, nameProperty, platformProperty, trackingIdProperty]),
	],
	...ENDPOINTS.pixel.update,
	explain: explainPixelNotFound,
	body(i) {
		return readPixelBody.call(this, this.getNodeParameter('updateFields', i, {}) as IDataObject, i);
	},
	requireBody: 'Update Fields: set at least one field to change',
	output: (data) => recordOf(data, 'pixel'),
});
