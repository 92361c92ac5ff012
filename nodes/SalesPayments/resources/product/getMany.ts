import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { listAll, listProperties } from '../../lists/lists';
import { field } from '../../fields/fields';
import { checkRanges, filterCollection, readFilters } from '../../lists/filters';
import { PRODUCT_STATUS_OPTIONS, PRODUCT_TYPE_OPTIONS } from '../../fields/values';
import { ENDPOINTS } from '../../transport/endpoints';

const filterFields = [
	field.option('status', 'Status', PRODUCT_STATUS_OPTIONS, 'Only products in this status'),
	field.option('type', 'Type', PRODUCT_TYPE_OPTIONS, 'Only products of this type'),
	field.ids('productIds', 'Product IDs', 'Only these products (comma-separated product IDs)'),
	field.date('createdAfter', 'Created After', 'Only products created at or after this moment'),
	field.date('createdBefore', 'Created Before', 'Only products created at or before this moment'),
	field.date('updatedAfter', 'Updated After', 'Only products updated at or after this moment'),
	field.date('updatedBefore', 'Updated Before', 'Only products updated at or before this moment'),
];

/** Builds `{ startsAt, endsAt }` with the bounds that are set, or undefined. */
function range(startsAt: unknown, endsAt: unknown): IDataObject | undefined {
	const out: IDataObject = {};
	if (startsAt !== undefined) out.startsAt = startsAt as string;
	if (endsAt !== undefined) out.endsAt = endsAt as string;
	return Object.keys(out).length ? out : undefined;
}

/** What an agent reads of a product (Simplify). */
export const PRODUCT_FOR_MODEL: ModelRecord = ['id', 'name', 'type', 'status', 'priceInCents', 'createdAt'];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many products',
	amounts: true,
	description: 'Filter the products of the business',
	recordKey: NO_RECORD,
	properties: [...listProperties, filterCollection(filterFields)],
	async execute(i) {
		const f = readFilters.call(this, i, filterFields);
		checkRanges.call(this, i, f, filterFields, [
			['createdAfter', 'createdBefore'],
			['updatedAfter', 'updatedBefore'],
		]);
		const body: IDataObject = {};
		if (f.status !== undefined) body.status = f.status;
		if (f.type !== undefined) body.type = f.type;
		if (f.productIds !== undefined) body.productIds = f.productIds;
		const createdAt = range(f.createdAfter, f.createdBefore);
		if (createdAt) body.createdAt = createdAt;
		const updatedAt = range(f.updatedAfter, f.updatedBefore);
		if (updatedAt) body.updatedAt = updatedAt;
		return await listAll.call(this, i, { ...ENDPOINTS.product.filter, body }, PRODUCT_FOR_MODEL);
	},
};
