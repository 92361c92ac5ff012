import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { listAll, listProperties } from '../../shared/pagination';
import { pick, simplifyField } from '../../shared/simplify';
import { checkRanges, filter, filterCollection, ORDER_DIRECTIONS, readFilters } from '../../shared/filters';

/** The fields of a refund request most workflows use. */
export const REFUND_SIMPLE_FIELDS = [
	'id',
	'orderId',
	'status',
	'valueInCents',
	'buyerEmail',
	'productName',
	'motive',
	'paidAt',
	'requestAt',
	'createdAt',
	'updatedAt',
] as const;

const filterFields = [
	filter.date('createdAfter', 'Created After', 'Only refund requests created at or after this moment'),
	filter.date('createdBefore', 'Created Before', 'Only refund requests created at or before this moment'),
	filter.date('updatedAfter', 'Updated After', 'Only refund requests updated at or after this moment'),
	filter.date('updatedBefore', 'Updated Before', 'Only refund requests updated at or before this moment'),
];

const optionFields = [
	filter.option(
		'orderByField',
		'Sort By',
		[{ name: 'Created At', value: 'createdAt' }],
		'Field the refund requests are sorted by',
	),
	filter.option('orderDirection', 'Sort Direction', ORDER_DIRECTIONS, 'Whether to sort ascending or descending'),
];

/** Query keys of the date filters: the platform reads them literally, brackets included. */
const DATE_QUERY_KEYS: Record<string, string> = {
	createdAfter: 'createdAt[startsAt]',
	createdBefore: 'createdAt[endsAt]',
	updatedAfter: 'updatedAt[startsAt]',
	updatedBefore: 'updatedAt[endsAt]',
};

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many refund requests',
	amounts: true,
	description: 'List the refund requests (order revert requests) of the business',
	properties: [
		...listProperties,
		simplifyField,
		filterCollection(filterFields),
		filterCollection(optionFields, 'options', 'Options', 'Add option'),
	],
	async execute(i) {
		const filters = readFilters.call(this, i, filterFields);
		checkRanges.call(this, i, filters, filterFields, [
			['createdAfter', 'createdBefore'],
			['updatedAfter', 'updatedBefore'],
		]);
		const options = readFilters.call(this, i, optionFields, 'options');
		const qs: IDataObject = {};
		for (const [name, key] of Object.entries(DATE_QUERY_KEYS)) if (filters[name] !== undefined) qs[key] = filters[name];
		if (options.orderByField !== undefined) qs.orderByField = options.orderByField;
		if (options.orderDirection !== undefined) qs.orderDirection = options.orderDirection;
		const { items } = await listAll.call(this, i, {
			method: 'GET',
			path: '/order-revert-requests/list',
			business: true,
			qs,
		});
		const simplify = this.getNodeParameter('simplify', i, true) as boolean;
		return simplify ? items.map((r) => pick(r, REFUND_SIMPLE_FIELDS)) : items;
	},
};
