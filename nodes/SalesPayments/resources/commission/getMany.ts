import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { listAll, listProperties } from '../../lists/lists';
import { field } from '../../fields/fields';
import { checkRanges, filterCollection, readFilters } from '../../lists/filters';
import { ENDPOINTS } from '../../transport/endpoints';

const filterFields = [
	field.date('initialDate', 'Date From', 'Only commissions created at or after this moment'),
	field.date('endDate', 'Date To', 'Only commissions created at or before this moment'),
	field.text('status', 'Status', 'Only commissions in this status, as the platform names it', 'e.g. released'),
];

/** What an agent reads of a commission (Simplify). */
export const COMMISSION_FOR_MODEL: ModelRecord = ['id', 'orderId', 'status', 'valueInCents', 'commissionedName', 'role', 'productName', 'createdAt', 'releaseAt'];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many commissions',
	amounts: true,
	description: 'List the commissions of the business',
	recordKey: NO_RECORD,
	properties: [...listProperties, filterCollection(filterFields)],
	async execute(i) {
		const qs = readFilters.call(this, i, filterFields);
		checkRanges.call(this, i, qs, filterFields, [['initialDate', 'endDate']]);
		return await listAll.call(this, i, { ...ENDPOINTS.commission.list, qs }, COMMISSION_FOR_MODEL);
	},
};
