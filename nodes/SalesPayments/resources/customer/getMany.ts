import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { listAll, listProperties } from '../../shared/pagination';
import { checkRanges, filter, filterCollection, readFilters } from '../../shared/filters';

const filterFields = [
	filter.email('email', 'Email', 'Only the customer with this email address'),
	filter.text('documentNumber', 'Document Number', 'Only the customer with this document number', 'e.g. 12345678909'),
	filter.date('createdAfter', 'Created After', 'Only customers created at or after this moment'),
	filter.date('createdBefore', 'Created Before', 'Only customers created at or before this moment'),
	filter.date('updatedAfter', 'Updated After', 'Only customers updated at or after this moment'),
	filter.date('updatedBefore', 'Updated Before', 'Only customers updated at or before this moment'),
];

/** Query keys of the filters: the platform reads the date keys literally, brackets included. */
const QUERY_KEYS: Record<string, string> = {
	email: 'email',
	documentNumber: 'documentNumber',
	createdAfter: 'createdAt[startsAt]',
	createdBefore: 'createdAt[endsAt]',
	updatedAfter: 'updatedAt[startsAt]',
	updatedBefore: 'updatedAt[endsAt]',
};

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many customers',
	description: 'List the customers of the business, optionally filtered by email, document or dates',
	properties: [...listProperties, filterCollection(filterFields)],
	async execute(i) {
		const filters = readFilters.call(this, i, filterFields);
		checkRanges.call(this, i, filters, filterFields, [
			['createdAfter', 'createdBefore'],
			['updatedAfter', 'updatedBefore'],
		]);
		const qs: IDataObject = {};
		for (const [name, key] of Object.entries(QUERY_KEYS)) if (filters[name] !== undefined) qs[key] = filters[name];
		const { items } = await listAll.call(this, i, { method: 'GET', path: '/customers/list', business: true, qs });
		return items;
	},
};
