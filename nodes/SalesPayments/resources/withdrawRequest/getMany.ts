import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { field } from '../../fields/fields';
import { sortDirectionField, sortedFilterList } from '../../lists/filters';
import { ENDPOINTS } from '../../transport/endpoints';

const filterFields = [
	field.date('initialDate', 'Date From', 'Only withdraw requests made at or after this moment'),
	field.date('endDate', 'Date To', 'Only withdraw requests made at or before this moment'),
	field.text('status', 'Status', 'Only withdraw requests in this status, as the platform names it', 'e.g. pending'),
	field.cents('initialValue', 'Value From (Cents)', 'Only withdraw requests of at least this amount, in cents'),
	field.cents('endValue', 'Value To (Cents)', 'Only withdraw requests of at most this amount, in cents'),
];

const sortFields = [
	field.text('orderByField', 'Sort By', 'Name of the field the withdraw requests are sorted by', 'e.g. createdAt'),
	sortDirectionField(),
];

/** What an agent reads of a withdraw request (Simplify). */
export const WITHDRAW_REQUEST_FOR_MODEL: ModelRecord = ['id', 'status', 'valueInCents', 'feeInCents', 'netValueInCents', 'createdAt'];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many withdraw requests',
	amounts: true,
	description: 'Filter the withdraw requests of the business',
	recordKey: NO_RECORD,
	properties: sortedFilterList.properties(filterFields, sortFields),
	async execute(i) {
		return await sortedFilterList.records.call(this, i, ENDPOINTS.withdrawRequest.filter, filterFields, sortFields, WITHDRAW_REQUEST_FOR_MODEL);
	},
};
