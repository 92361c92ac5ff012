import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { recordOf } from '../../shared/records';
import { requireId } from '../../shared/validation';
import { explainPixelNotFound, pixelLocator } from './fields';

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get a pixel',
	description: 'Read the details of one tracking pixel',
	properties: [pixelLocator('The pixel to read')],
	async execute(i) {
		const id = requireId.call(this, 'pixelId', i, 'Pixel');
		const data = await apiRequest.call(this, {
			method: 'GET',
			path: `/pixels/details/${id}`,
			business: true,
			itemIndex: i,
			explain: explainPixelNotFound,
		});
		return recordOf(data, 'pixel');
	},
};
