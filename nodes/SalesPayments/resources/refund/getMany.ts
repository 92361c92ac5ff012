import type { OperationDef } from '../../fields/types';
import { NO_RECORD } from '../../fields/types';
import { listAll, listPropertiesWith } from '../../lists/lists';
import type { ModelRecord } from '../../fields/simplify';
import { pick } from '../../fields/simplify';
import { field } from '../../fields/fields';
import {
	checkRanges,
	CREATED_UPDATED_QUERY_KEYS,
	CREATED_UPDATED_RANGES,
	filterCollection,
	readFilters,
	sortDirectionField,
	toQuery,
} from '../../lists/filters';
import { ENDPOINTS } from '../../transport/endpoints';

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

/** What an agent reads of a refund request (Simplify). */
export const REFUND_FOR_MODEL: ModelRecord = ['id', 'orderId', 'status', 'valueInCents', 'buyerEmail', 'productName', 'motive', 'requestAt'];

const filterFields = [
	field.date('createdAfter', 'Created After', 'Only refund requests created at or after this moment'),
	field.date('createdBefore', 'Created Before', 'Only refund requests created at or before this moment'),
	field.date('updatedAfter', 'Updated After', 'Only refund requests updated at or after this moment'),
	field.date('updatedBefore', 'Updated Before', 'Only refund requests updated at or before this moment'),
];

const optionFields = [
	field.option(
		'orderByField',
		'Sort By',
		[{ name: 'Created At', value: 'createdAt' }],
		'Field the refund requests are sorted by',
	),
	sortDirectionField(),
];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many refund requests',
	amounts: true,
	description: 'List the refund requests (order revert requests) of the business',
	recordKey: NO_RECORD,
	properties: [
		...listPropertiesWith([], 'always'),
		filterCollection(filterFields),
		filterCollection(optionFields, 'options', 'Options', 'Add option'),
	],
	async execute(i) {
		const filters = readFilters.call(this, i, filterFields);
		checkRanges.call(this, i, filters, filterFields, CREATED_UPDATED_RANGES);
		// The sort options are query keys of their own name.
		const qs = { ...toQuery(filters, CREATED_UPDATED_QUERY_KEYS), ...readFilters.call(this, i, optionFields, 'options') };
		const simplify = this.getNodeParameter('simplify', i, true) as boolean;
		return await listAll.call(
			this,
			i,
			{ ...ENDPOINTS.refund.list, qs },
			REFUND_FOR_MODEL,
			simplify ? (r) => pick(r, REFUND_SIMPLE_FIELDS) : undefined,
		);
	},
};
