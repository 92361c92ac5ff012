import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { fieldError } from '../../transport/errors';
import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { apiRequest } from '../../transport/transport';
import { listAll, listPropertiesWith, LIST_OUTPUTS } from '../../lists/lists';
import { field } from '../../fields/fields';
import { checkRanges, filterCollection, readFilters, DATE_AND_VALUE_RANGES } from '../../lists/filters';
import { checkOneOf } from '../../fields/validation';
import { ENDPOINTS } from '../../transport/endpoints';

const filterFields = [
	field.date('initialDate', 'Date From', 'Only movements made at or after this moment'),
	field.date('endDate', 'Date To', 'Only movements made at or before this moment'),
	field.cents('initialValue', 'Value From (Cents)', 'Only movements of at least this amount, in cents'),
	field.cents('endValue', 'Value To (Cents)', 'Only movements of at most this amount, in cents'),
	field.text('subject', 'Subject', 'Only movements whose subject matches this text'),
	field.text('description', 'Description', 'Only movements whose description matches this text'),
	field.text('hash', 'Hash', 'Only the movement with this hash'),
	field.text('originType', 'Origin Type', 'Only movements of this origin, as the platform names it', 'e.g. sale'),
	field.text('referenceId', 'Reference ID', 'Only movements that refer to this record (for example an order ID)'),
	field.text('groupId', 'Group ID', 'Only movements of this group'),
	field.boolean('omitDebit', 'Omit Debits', 'Whether to leave out debits (money going out)'),
	field.boolean('omitCredit', 'Omit Credits', 'Whether to leave out credits (money coming in)'),
];

/** Output › Summary: the list's own count and total, from one smallest page. */
const summaryOutput: INodePropertyOptions = {
	name: 'Summary',
	value: 'summary',
	description: 'One item with the number of matching movements and their total value in cents',
};

/** What an agent reads of a movement (Simplify): the description says what the subject and origin say. */
export const MOVEMENT_FOR_MODEL: ModelRecord = ['id', 'type', 'valueInCents', 'description', 'referenceId', 'createdAt'];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many movements',
	amounts: true,
	description: 'Filter the financial movements (credits and debits) of the business, or sum them up',
	recordKey: NO_RECORD,
	properties: [...listPropertiesWith([summaryOutput]), filterCollection(filterFields)],
	async execute(i) {
		const output = checkOneOf.call(this, this.getNodeParameter('output', i, 'items'), [...LIST_OUTPUTS, 'summary'], i, 'Output');
		const body = readFilters.call(this, i, filterFields);
		checkRanges.call(this, i, body, filterFields, DATE_AND_VALUE_RANGES);
		if (body.omitDebit === true && body.omitCredit === true) {
			fieldError(this, 'Omit Debits and Omit Credits cannot both be on: no movement would match', i);
		}
		if (output === 'summary') {
			// `count` and `totalValue` cover every matching movement whatever the page: one
			// smallest page is enough.
			const data = await apiRequest.call(this, {
				...ENDPOINTS.movement.filter,
				// A filter reads: it changes nothing and may be repeated.
				kind: 'read',
				qs: { page: '1', limit: '1' },
				body,
				itemIndex: i,
			});
			const summary: IDataObject = { count: data.count ?? null, totalValue: data.totalValue ?? null };
			return summary;
		}
		return await listAll.call(this, i, { ...ENDPOINTS.movement.filter, body }, MOVEMENT_FOR_MODEL);
	},
};
