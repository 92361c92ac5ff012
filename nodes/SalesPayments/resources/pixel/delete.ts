import { pixelLocator } from '../../shared/locators';
import { recordOperation } from '../../shared/recordOperation';
import { resultOr } from '../../shared/records';
import { explainPixelNotFound } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const deletePixel = recordOperation({
	value: 'delete',
	name: 'Delete',
	action: 'Delete a pixel',
	description: 'Delete a tracking pixel permanently',
	id: { property: pixelLocator('The pixel to delete'), label: 'Pixel' },
	...ENDPOINTS.pixel.remove,
	open: true,
	explain: explainPixelNotFound,
	acceptedHint: 'check with Pixel > Get whether the pixel still exists.',
	output: (data, id) => resultOr(data, { id, deleted: true }),
});
