import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../fields/types';
import { NO_RECORD } from '../../fields/types';
import { apiRequest } from '../../transport/transport';
import { fieldsCollection, recordOf } from '../../transport/records';
import { requireString } from '../../fields/validation';
import { extraOption, nameProperty, platformProperty, trackingIdProperty } from './descriptions';
import { readPixelBody } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const create: OperationDef = {
	value: 'create',
	name: 'Create',
	action: 'Create a pixel',
	description: 'Create a Google or Meta tracking pixel linked to the business',
	recordKey: NO_RECORD,
	properties: [
		{ ...platformProperty, required: true },
		{ ...nameProperty, required: true },
		{ ...trackingIdProperty, required: true },
		fieldsCollection('additional', [extraOption]),
	],
	async execute(i) {
		const values: IDataObject = {
			platform: this.getNodeParameter('platform', i),
			name: requireString.call(this, 'name', i, 'Name'),
			platformPixelId: requireString.call(this, 'platformPixelId', i, 'Platform Pixel ID'),
			...(this.getNodeParameter('additionalFields', i, {}) as IDataObject),
		};
		const body = readPixelBody.call(this, values, i);
		// Headers not shown in the spec: business-id is sent, since pixels are linked to an account's business.
		const data = await apiRequest.call(this, {
			...ENDPOINTS.pixel.create,
			body,
			itemIndex: i,
			acceptedHint: 'look for the pixel with Pixel > Get Many before creating it again.',
		});
		return recordOf(data, 'pixel');
	},
};
