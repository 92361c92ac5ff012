import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { recordOf } from '../../shared/records';
import { requireId } from '../../shared/validation';
import {
	explainPixelNotFound,
	extraOption,
	nameProperty,
	pixelLocator,
	platformProperty,
	readPixelBody,
	trackingIdProperty,
} from './fields';

export const update: OperationDef = {
	value: 'update',
	name: 'Update',
	action: 'Update a pixel',
	description: 'Change the name, platform or platform pixel ID of a pixel',
	properties: [
		pixelLocator('The pixel to update'),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add field',
			default: {},
			options: [extraOption, nameProperty, platformProperty, trackingIdProperty],
		},
	],
	async execute(i) {
		const id = requireId.call(this, 'pixelId', i, 'Pixel');
		const fields = this.getNodeParameter('updateFields', i, {}) as IDataObject;
		const body = readPixelBody.call(this, fields, i);
		if (!Object.keys(body).length) {
			throw new NodeOperationError(this.getNode(), 'Update Fields: set at least one field to change', { itemIndex: i });
		}
		const data = await apiRequest.call(this, {
			method: 'PATCH',
			path: `/pixels/${id}`,
			body,
			business: true,
			itemIndex: i,
			explain: explainPixelNotFound,
		});
		return recordOf(data, 'pixel');
	},
};
