import { pixelLocator } from '../../shared/locators';
import { requestOnRecord } from '../../shared/recordRequest';
import { recordOf } from '../../shared/records';
import type { OperationDef } from '../../shared/types';
import { explainPixelNotFound, PIXEL_ID } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get a pixel',
	description: 'Read the details of one tracking pixel',
	properties: [pixelLocator('The pixel to read')],
	async execute(i) {
		const { data } = await requestOnRecord.call(this, i, { ...ENDPOINTS.pixel.details, id: PIXEL_ID, explain: explainPixelNotFound });
		return recordOf(data, 'pixel');
	},
};
