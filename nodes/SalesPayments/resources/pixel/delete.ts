import { pixelLocator } from '../../fields/locators';
import { requestOnRecord } from '../../fields/recordRequest';
import { resultOr } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { explainPixelNotFound, PIXEL_ID } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const deletePixel: OperationDef = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a pixel permanently (cannot be undone)',
	description: 'Delete a tracking pixel permanently. Cannot be undone.',
	recordKey: 'pixelId',
	properties: [pixelLocator('The pixel to delete')],
	async execute(i) {
		const { id, data } = await requestOnRecord.call(this, i, {
			...ENDPOINTS.pixel.remove,
			id: PIXEL_ID,
			open: true,
			explain: explainPixelNotFound,
			acceptedHint: 'check with Pixel > Get whether the pixel still exists.',
		});
		return resultOr(data, { id, deleted: true });
	},
};
