import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { listAll, listProperties } from '../../lists/lists';
import { field } from '../../fields/fields';
import {
	checkRanges,
	CREATED_UPDATED_QUERY_KEYS,
	CREATED_UPDATED_RANGES,
	filterCollection,
	readFilters,
	toQuery,
} from '../../lists/filters';
import { ENDPOINTS } from '../../transport/endpoints';

const filterFields = [
	field.email('email', 'Email', 'Only the customer with this email address'),
	field.text('documentNumber', 'Document Number', 'Only the customer with this document number', 'e.g. 12345678909'),
	field.date('createdAfter', 'Created After', 'Only customers created at or after this moment'),
	field.date('createdBefore', 'Created Before', 'Only customers created at or before this moment'),
	field.date('updatedAfter', 'Updated After', 'Only customers updated at or after this moment'),
	field.date('updatedBefore', 'Updated Before', 'Only customers updated at or before this moment'),
];

/** What an agent reads of a customer (Simplify). */
export const CUSTOMER_FOR_MODEL: ModelRecord = ['id', 'name', 'email', 'createdAt'];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many customers',
	description: 'List the customers of the business, optionally filtered by email, document or dates',
	recordKey: NO_RECORD,
	properties: [...listProperties, filterCollection(filterFields)],
	async execute(i) {
		const filters = readFilters.call(this, i, filterFields);
		checkRanges.call(this, i, filters, filterFields, CREATED_UPDATED_RANGES);
		const qs = toQuery(filters, { email: 'email', documentNumber: 'documentNumber', ...CREATED_UPDATED_QUERY_KEYS });
		return await listAll.call(this, i, { ...ENDPOINTS.customer.list, qs }, CUSTOMER_FOR_MODEL);
	},
};
