import { pixelLocator } from '../../fields/locators';
import { requestOnRecord } from '../../fields/recordRequest';
import { recordOf } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { explainPixelNotFound, PIXEL_ID } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get a pixel',
	description: 'Read the details of one tracking pixel',
	recordKey: 'pixelId',
	properties: [pixelLocator('The pixel to read')],
	async execute(i) {
		const { data } = await requestOnRecord.call(this, i, { ...ENDPOINTS.pixel.details, id: PIXEL_ID, explain: explainPixelNotFound });
		return recordOf(data, 'pixel');
	},
};
