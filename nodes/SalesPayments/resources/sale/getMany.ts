import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { listAll, listProperties } from '../../lists/lists';
import { field } from '../../fields/fields';
import { checkRanges, filterCollection, readFilters } from '../../lists/filters';
import { ENDPOINTS } from '../../transport/endpoints';

const filterFields = [
	field.date('initialDate', 'Date From', 'Only sales made at or after this moment'),
	field.date('endDate', 'Date To', 'Only sales made at or before this moment'),
	field.text('status', 'Status', 'Only sales in this status, as the platform names it', 'e.g. paid'),
	field.email('email', 'Email', 'Only sales to the buyer with this email address'),
	field.ids('productIds', 'Product IDs', 'Only sales of these products (comma-separated product IDs)'),
	field.json('extraFields', 'Extra Fields (JSON)', 'Further filter fields, merged into the request body unchanged (the fields above take precedence)'),
];

/** What an agent reads of a sale (Simplify): the buyer's name and the product lifted to the top. */
export const SALE_FOR_MODEL: ModelRecord = [
	'id',
	'orderId',
	'status',
	'valueInCents',
	'paymentMethod',
	['customerName', 'customer.name'],
	['productName', 'product.name'],
	'createdAt',
	'paidAt',
];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many sales',
	amounts: true,
	description: 'Filter the sales of the business',
	recordKey: NO_RECORD,
	properties: [...listProperties, filterCollection(filterFields)],
	async execute(i) {
		const { extraFields, ...documented } = readFilters.call(this, i, filterFields);
		checkRanges.call(this, i, documented, filterFields, [['initialDate', 'endDate']]);
		const body: IDataObject = { ...((extraFields as IDataObject | undefined) ?? {}), ...documented };
		// The spec does not show the headers of POST /sales/filter. Sales belong to a business, as
		// do the records of every other filter endpoint (all KEYS+BIZ), so the credential's
		// business is sent as `business-id`: without it the platform could not scope the sales.
		return await listAll.call(this, i, { ...ENDPOINTS.sale.filter, body }, SALE_FOR_MODEL);
	},
};
