import type { OperationDef } from '../../shared/types';
import { listAll, listProperties } from '../../shared/pagination';
import { filter, filterCollection, ORDER_DIRECTIONS, readSortedFilterBody, DATE_AND_VALUE_RANGES } from '../../shared/filters';

const filterFields = [
	filter.date('initialDate', 'Date From', 'Only withdraw requests made at or after this moment'),
	filter.date('endDate', 'Date To', 'Only withdraw requests made at or before this moment'),
	filter.text('status', 'Status', 'Only withdraw requests in this status, as the platform names it', 'e.g. pending'),
	filter.cents('initialValue', 'Value From (Cents)', 'Only withdraw requests of at least this amount, in cents'),
	filter.cents('endValue', 'Value To (Cents)', 'Only withdraw requests of at most this amount, in cents'),
];

const sortFields = [
	filter.text('orderByField', 'Sort By', 'Name of the field the withdraw requests are sorted by', 'e.g. createdAt'),
	filter.option('orderDirection', 'Sort Direction', ORDER_DIRECTIONS, 'Whether to sort ascending or descending'),
];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many withdraw requests',
	amounts: true,
	description: 'Filter the withdraw requests of the business',
	properties: [
		...listProperties,
		filterCollection(filterFields),
		filterCollection(sortFields, 'options', 'Options', 'Add option'),
	],
	async execute(i) {
		const body = readSortedFilterBody.call(
			this,
			i,
			filterFields,
			DATE_AND_VALUE_RANGES,
			sortFields,
		);
		const { items } = await listAll.call(this, i, {
			method: 'POST',
			path: '/withdraw-requests/filter',
			business: true,
			body,
		});
		return items;
	},
};
