import { pixelLocator } from '../../shared/locators';
import { recordOperation } from '../../shared/recordOperation';
import { recordOf } from '../../shared/records';
import { explainPixelNotFound } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const get = recordOperation({
	value: 'get',
	name: 'Get',
	action: 'Get a pixel',
	description: 'Read the details of one tracking pixel',
	id: { property: pixelLocator('The pixel to read'), label: 'Pixel' },
	...ENDPOINTS.pixel.details,
	explain: explainPixelNotFound,
	output: (data) => recordOf(data, 'pixel'),
});
