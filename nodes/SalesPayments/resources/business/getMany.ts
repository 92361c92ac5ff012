import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { listAll, listProperties } from '../../lists/lists';
import { ENDPOINTS } from '../../transport/endpoints';

/** What an agent reads of a business (Simplify). */
export const BUSINESS_FOR_MODEL: ModelRecord = ['id', 'name', 'createdAt'];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many businesses of the owner',
	description: 'List the businesses owned by the owner of the API key',
	recordKey: NO_RECORD,
	properties: [...listProperties],
	async execute(i) {
		return await listAll.call(this, i, ENDPOINTS.business.listByOwner, BUSINESS_FOR_MODEL);
	},
};
