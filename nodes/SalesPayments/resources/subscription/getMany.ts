import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../fields/types';
import { NO_RECORD } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { field } from '../../fields/fields';
import { sortDirectionField, sortedFilterList } from '../../lists/filters';
import { SUBSCRIPTION_PAYMENT_METHOD_OPTIONS, SUBSCRIPTION_STATUS_OPTIONS } from '../../fields/values';
import { simplifySubscription } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

const filterFields = [
	field.email('email', 'Customer Email', 'Only subscriptions of the customer with this email address'),
	field.text('name', 'Name', 'Only subscriptions whose name matches this text'),
	field.date('initialDate', 'Date From', 'Only subscriptions created at or after this moment'),
	field.date('endDate', 'Date To', 'Only subscriptions created at or before this moment'),
	field.option('status', 'Status', SUBSCRIPTION_STATUS_OPTIONS, 'Only subscriptions in this status'),
	field.cents(
		'initialValue',
		'Recurrence Value From (Cents)',
		'Only subscriptions whose recurrence value is at least this amount, in cents (e.g. 1990 for 19.90)',
	),
	field.cents(
		'endValue',
		'Recurrence Value To (Cents)',
		'Only subscriptions whose recurrence value is at most this amount, in cents (e.g. 9990 for 99.90)',
	),
	field.option('type', 'Payment Method', SUBSCRIPTION_PAYMENT_METHOD_OPTIONS, 'Only subscriptions paid with this method'),
	field.ids('productIds', 'Product IDs', 'Only subscriptions of these products (comma-separated product IDs)'),
	field.text(
		'field',
		'Field',
		'Value of the platform\'s "field" filter, sent unchanged (the platform does not document its values)',
		'e.g. createdAt',
	),
];

const sortFields = [
	field.option(
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
	sortDirectionField(),
];

/** What an agent reads of a subscription (Simplify): the customer's email and the product lifted to the top. */
export const SUBSCRIPTION_FOR_MODEL: ModelRecord = [
	'id',
	'name',
	'status',
	['customerEmail', 'customer.email'],
	['productName', 'orderItem.product.name'],
	'recurrenceValueInCents',
	'periodicity',
	'nextPayment',
	'createdAt',
];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many subscriptions',
	amounts: true,
	description: 'Filter the subscriptions of the business',
	recordKey: NO_RECORD,
	properties: sortedFilterList.properties(filterFields, sortFields, 'always'),
	async execute(i) {
		const simplify = this.getNodeParameter('simplify', i, true) as boolean;
		const shape = simplify ? (r: IDataObject) => simplifySubscription(r) : undefined;
		return await sortedFilterList.records.call(this, i, ENDPOINTS.subscription.filter, filterFields, sortFields, SUBSCRIPTION_FOR_MODEL, shape);
	},
};
