import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { listAll, listProperties } from '../../lists/lists';
import { ENDPOINTS } from '../../transport/endpoints';

/** What an agent reads of a pixel (Simplify). */
export const PIXEL_FOR_MODEL: ModelRecord = ['id', 'name', 'platform', 'pixelId'];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many pixels',
	description: 'List the tracking pixels of the business',
	recordKey: NO_RECORD,
	properties: [...listProperties],
	async execute(i) {
		// Query and answer not shown: paged like the other lists; records read from `docs`,
		// `pixels` or the first list in the answer.
		return await listAll.call(this, i, ENDPOINTS.pixel.list, PIXEL_FOR_MODEL);
	},
};
