import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { resultOr } from '../../shared/records';
import { requireId } from '../../shared/validation';
import { explainPixelNotFound, pixelLocator } from './fields';

export const deletePixel: OperationDef = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a pixel',
	description: 'Delete a tracking pixel permanently',
	properties: [pixelLocator('The pixel to delete')],
	async execute(i) {
		const id = requireId.call(this, 'pixelId', i, 'Pixel');
		const data = await apiRequest.call(this, {
			method: 'DELETE',
			path: `/pixels/delete/${id}`,
			business: true,
			itemIndex: i,
			explain: explainPixelNotFound,
		});
		return resultOr(data, { id, deleted: true });
	},
};
