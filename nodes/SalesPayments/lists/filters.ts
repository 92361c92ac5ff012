import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Endpoint } from '../transport/endpoints';
import type { NodeContext } from '../transport/errors';
import { fieldError } from '../transport/errors';
import type { Field } from '../fields/fields';
import { field, readField } from '../fields/fields';
import { listAll, listPropertiesWith } from './lists';
import type { ModelRecord } from '../fields/simplify';
import type { FileItem } from '../fields/types';
import { compact } from '../fields/validation';

/**
 * The Filters and Options collections of the read operations (lists and the polling trigger):
 * fields declared with their kind (fields/fields.ts), read and converted by the one converter;
 * the documented ranges and how their values are sent.
 */

/** Options of an order direction field, named as n8n users expect. */
export const ORDER_DIRECTIONS: INodePropertyOptions[] = [
	{ name: 'Ascending', value: 'ASC' },
	{ name: 'Descending', value: 'DESC' },
];

/** The platform's `orderDirection` (ASC or DESC), as a sort option. */
export const sortDirectionField = (): Field =>
	field.option('orderDirection', 'Sort Direction', ORDER_DIRECTIONS, 'Whether to sort ascending or descending');

/** The documented date and amount ranges of the POST filters: from must not be after to. */
export const DATE_AND_VALUE_RANGES: Array<[string, string]> = [
	['initialDate', 'endDate'],
	['initialValue', 'endValue'],
];

/** The created/updated date ranges of the GET lists (customers, refund requests). */
export const CREATED_UPDATED_RANGES: Array<[string, string]> = [
	['createdAfter', 'createdBefore'],
	['updatedAfter', 'updatedBefore'],
];

/** Query keys of those date ranges: the platform reads them literally, brackets included. */
export const CREATED_UPDATED_QUERY_KEYS: Record<string, string> = {
	createdAfter: 'createdAt[startsAt]',
	createdBefore: 'createdAt[endsAt]',
	updatedAfter: 'updatedAt[startsAt]',
	updatedBefore: 'updatedAt[endsAt]',
};

/** The set filter values under the query keys that name them. */
export function toQuery(values: IDataObject, keys: Record<string, string>): IDataObject {
	const qs: IDataObject = {};
	for (const [name, key] of Object.entries(keys)) if (values[name] !== undefined) qs[key] = values[name];
	return qs;
}

/** A collection (Filters, Options) made of filter fields, listed alphabetically. */
export function filterCollection(
	fields: Field[],
	name = 'filters',
	displayName = 'Filters',
	placeholder = 'Add filter',
): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder,
		default: {},
		options: fields
			.map((f) => f.property)
			.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/**
 * Reads a Filters/Options collection of item `i`: each set field checked and converted, keyed
 * by its parameter name. Empty fields are left out, so only what the user set is sent.
 */
export function readFilters(
	this: IExecuteFunctions,
	i: number,
	fields: Field[],
	collection = 'filters',
): IDataObject {
	return convertFilters(this, this.getNodeParameter(collection, i, {}) as IDataObject, fields, i);
}

/**
 * The values of a Filters/Options collection as read from any context (a trigger reads its
 * parameters without an item): each set field checked and converted, empty ones left out.
 */
export function convertFilters(ctx: NodeContext, raw: IDataObject, fields: Field[], i?: number): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(raw ?? {})) {
		const f = fields.find((x) => x.property.name === key);
		if (!f) continue;
		out[key] = readField(ctx, f, value, i) as IDataObject[string];
	}
	return compact(out);
}

/**
 * Refuses ranges whose start is after their end (dates as ISO strings, amounts as numbers),
 * naming both fields.
 */
export function checkRanges(
	this: IExecuteFunctions,
	i: number,
	values: IDataObject,
	fields: Field[],
	ranges: Array<[string, string]>,
): void {
	const label = (name: string) => fields.find((f) => f.property.name === name)?.property.displayName ?? name;
	for (const [from, to] of ranges) {
		const a = values[from];
		const b = values[to];
		if (a === undefined || b === undefined) continue;
		const before = typeof a === 'number' && typeof b === 'number' ? a <= b : Date.parse(String(a)) <= Date.parse(String(b));
		if (!before) fieldError(this, `${label(from)} must not be after ${label(to)} (${String(a)} > ${String(b)})`, i);
	}
}

/**
 * The body of a POST filter endpoint with sorting: the Filters collection (ranges checked) plus
 * the Options collection's sort fields under `orderBy`, as subscriptions and withdraw requests take it.
 */
export function readSortedFilterBody(
	this: IExecuteFunctions,
	i: number,
	filterFields: Field[],
	ranges: Array<[string, string]>,
	sortFields: Field[],
): IDataObject {
	const body = readFilters.call(this, i, filterFields);
	checkRanges.call(this, i, body, filterFields, ranges);
	const orderBy = readFilters.call(this, i, sortFields, 'options');
	if (Object.keys(orderBy).length) body.orderBy = orderBy;
	return body;
}

/**
 * A POST filter list whose date and amount ranges and sort options are documented alike
 * (subscriptions, withdraw requests): its properties, and its records for item `i`.
 */
export const sortedFilterList = {
	/** `simplify`: see listPropertiesWith. */
	properties(filterFields: Field[], sortFields: Field[], simplify: 'always' | 'tool' = 'tool'): INodeProperties[] {
		return [
			...listPropertiesWith([], simplify),
			filterCollection(filterFields),
			filterCollection(sortFields, 'options', 'Options', 'Add option'),
		];
	},
	async records(
		this: IExecuteFunctions,
		i: number,
		endpoint: Endpoint,
		filterFields: Field[],
		sortFields: Field[],
		model: ModelRecord,
		shape?: (record: IDataObject) => IDataObject,
	): Promise<IDataObject[] | FileItem> {
		const body = readSortedFilterBody.call(this, i, filterFields, DATE_AND_VALUE_RANGES, sortFields);
		return await listAll.call(this, i, { ...endpoint, body }, model, shape);
	},
};
