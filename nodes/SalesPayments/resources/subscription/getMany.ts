import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { listAll, listProperties } from '../../shared/pagination';
import { simplifyField } from '../../shared/simplify';
import { filter, filterCollection, ORDER_DIRECTIONS, readSortedFilterBody } from '../../shared/filters';
import { simplifySubscription } from './helpers';

const filterFields = [
	filter.email('email', 'Customer Email', 'Only subscriptions of the customer with this email address'),
	filter.text('name', 'Name', 'Only subscriptions whose name matches this text'),
	filter.date('initialDate', 'Initial Date', 'Only subscriptions created at or after this moment'),
	filter.date('endDate', 'End Date', 'Only subscriptions created at or before this moment'),
	filter.option(
		'status',
		'Status',
		[
			{ name: 'Active', value: 'active' },
			{ name: 'Canceled', value: 'canceled' },
			{ name: 'Expired', value: 'expired' },
			{ name: 'Inactive', value: 'inactive' },
		],
		'Only subscriptions in this status',
	),
	filter.cents(
		'initialValue',
		'Min Recurrence Value (Cents)',
		'Only subscriptions whose recurrence value is at least this amount, in cents (e.g. 1990 for 19.90)',
	),
	filter.cents(
		'endValue',
		'Max Recurrence Value (Cents)',
		'Only subscriptions whose recurrence value is at most this amount, in cents (e.g. 9990 for 99.90)',
	),
	filter.option(
		'type',
		'Payment Method',
		[
			{ name: 'Bank Billet', value: 'bank-billet' },
			{ name: 'Credit Card', value: 'credit-card' },
			{ name: 'Crypto', value: 'crypto' },
			{ name: 'Debit Card', value: 'debit-card' },
			{ name: 'Pix', value: 'pix' },
		],
		'Only subscriptions paid with this method',
	),
	filter.ids('productIds', 'Product IDs', 'Only subscriptions of these products (comma-separated product IDs)'),
	filter.text(
		'field',
		'Field',
		'Value of the platform\'s "field" filter, sent unchanged (the platform does not document its values)',
		'e.g. createdAt',
	),
];

const sortFields = [
	filter.option(
		'orderByField',
		'Sort By',
		[
			{ name: 'Created At', value: 'createdAt' },
			{ name: 'Customer Email', value: 'email' },
			{ name: 'Expiration', value: 'expiration' },
			{ name: 'Product', value: 'product' },
			{ name: 'Recurrence Value', value: 'recurrenceValueInCents' },
		],
		'Field the subscriptions are sorted by',
	),
	filter.option('orderDirection', 'Sort Direction', ORDER_DIRECTIONS, 'Whether to sort ascending or descending'),
];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many subscriptions',
	description: 'Filter the subscriptions of the business',
	properties: [
		...listProperties,
		simplifyField,
		filterCollection(filterFields),
		filterCollection(sortFields, 'options', 'Options', 'Add option'),
	],
	async execute(i) {
		const body = readSortedFilterBody.call(
			this,
			i,
			filterFields,
			[
				['initialDate', 'endDate'],
				['initialValue', 'endValue'],
			],
			sortFields,
		);
		const { items } = await listAll.call(this, i, {
			method: 'POST',
			path: '/subscriptions/filter',
			business: true,
			body,
		});
		const simplify = this.getNodeParameter('simplify', i, true) as boolean;
		return simplify ? items.map((r: IDataObject) => simplifySubscription(r)) : items;
	},
};
