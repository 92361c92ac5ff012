import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { listAll, listProperties } from './lists';
import type { FileItem } from './types';

import type { NodeContext } from './errors';
import { fieldError } from './errors';
import {
	checkBoolean,
	checkCents,
	checkEmail,
	checkOneOf,
	compact,
	optionalText,
	parseJsonObject,
	readIds,
	toIsoDate,
} from './validation';
import type { Endpoint } from './endpoints';

/**
 * Filter fields of the read operations, declared once with how their value is checked and
 * converted: dates become ISO 8601 UTC with milliseconds, amounts whole cents, ID lists arrays.
 */
export type FilterKind = 'boolean' | 'cents' | 'date' | 'email' | 'ids' | 'json' | 'option' | 'text';

export interface FilterField {
	kind: FilterKind;
	property: INodeProperties;
}

function field(kind: FilterKind, property: INodeProperties): FilterField {
	return { kind, property };
}

export const filter = {
	/** A date-time, sent as ISO 8601 UTC with milliseconds. */
	date(name: string, displayName: string, description: string): FilterField {
		return field('date', { displayName, name, type: 'dateTime', default: '', description });
	},
	/** An amount: a whole, non-negative number of cents. */
	cents(name: string, displayName: string, description: string): FilterField {
		return field('cents', {
			displayName,
			name,
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description,
		});
	},
	text(name: string, displayName: string, description: string, placeholder?: string): FilterField {
		return field('text', { displayName, name, type: 'string', default: '', description, placeholder });
	},
	email(name: string, displayName: string, description: string): FilterField {
		return field('email', {
			displayName,
			name,
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description,
		});
	},
	/** A list of IDs typed as comma-separated text (or an array from an expression). */
	ids(name: string, displayName: string, description: string): FilterField {
		return field('ids', {
			displayName,
			name,
			type: 'string',
			default: '',
			placeholder: 'e.g. 1b2c3d4e-..., 5f6a7b8c-...',
			description,
		});
	},
	boolean(name: string, displayName: string, description: string): FilterField {
		return field('boolean', { displayName, name, type: 'boolean', default: false, description });
	},
	option(name: string, displayName: string, options: INodePropertyOptions[], description: string): FilterField {
		const sorted = [...options].sort((a, b) => a.name.localeCompare(b.name));
		// A variable: n8n's lint accepts an identifier as a default it cannot evaluate.
		const first = sorted[0].value;
		return field('option', { displayName, name, type: 'options', options: sorted, default: first, description });
	},
	/** A JSON object given as text (or an object from an expression). */
	json(name: string, displayName: string, description: string): FilterField {
		return field('json', { displayName, name, type: 'json', default: '{}', description });
	},
};

/** Options of an order direction field, named as n8n users expect. */
export const ORDER_DIRECTIONS: INodePropertyOptions[] = [
	{ name: 'Ascending', value: 'ASC' },
	{ name: 'Descending', value: 'DESC' },
];

/** The platform's `orderDirection` (ASC or DESC), as a sort option. */
export const sortDirectionField = (): FilterField =>
	filter.option('orderDirection', 'Sort Direction', ORDER_DIRECTIONS, 'Whether to sort ascending or descending');

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
	fields: FilterField[],
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

/** Converts one filter value; undefined means "not set, send nothing". */
function convert(ctx: NodeContext, f: FilterField, value: unknown, i: number | undefined): unknown {
	const label = f.property.displayName;
	switch (f.kind) {
		case 'date':
			return value === '' || value === undefined || value === null ? undefined : toIsoDate.call(ctx, value, i, label);
		case 'cents':
			return value === '' || value === undefined || value === null ? undefined : checkCents.call(ctx, value, i, label);
		case 'email':
			return value === '' || value === undefined ? undefined : checkEmail.call(ctx, value, i, label);
		case 'ids': {
			const ids = readIds(ctx, value, i, label);
			return ids.length ? ids : undefined;
		}
		case 'boolean':
			return checkBoolean.call(ctx, value, i, label);
		case 'option': {
			const allowed = (f.property.options as INodePropertyOptions[]).map((o) => String(o.value));
			return checkOneOf.call(ctx, value, allowed, i, label);
		}
		case 'json':
			return parseJsonObject.call(ctx, value, i, label);
		case 'text':
			return optionalText(value);
	}
}

/**
 * Reads a Filters/Options collection of item `i`: each set field checked and converted, keyed
 * by its parameter name. Empty fields are left out, so only what the user set is sent.
 */
export function readFilters(
	this: IExecuteFunctions,
	i: number,
	fields: FilterField[],
	collection = 'filters',
): IDataObject {
	return convertFilters(this, this.getNodeParameter(collection, i, {}) as IDataObject, fields, i);
}

/**
 * The values of a Filters/Options collection as read from any context (a trigger reads its
 * parameters without an item): each set field checked and converted, empty ones left out.
 */
export function convertFilters(ctx: NodeContext, raw: IDataObject, fields: FilterField[], i?: number): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(raw ?? {})) {
		const f = fields.find((x) => x.property.name === key);
		if (!f) continue;
		out[key] = convert(ctx, f, value, i) as IDataObject[string];
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
	fields: FilterField[],
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
	filterFields: FilterField[],
	ranges: Array<[string, string]>,
	sortFields: FilterField[],
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
	properties(filterFields: FilterField[], sortFields: FilterField[], extra: INodeProperties[] = []): INodeProperties[] {
		return [
			...listProperties,
			...extra,
			filterCollection(filterFields),
			filterCollection(sortFields, 'options', 'Options', 'Add option'),
		];
	},
	async records(
		this: IExecuteFunctions,
		i: number,
		endpoint: Endpoint,
		filterFields: FilterField[],
		sortFields: FilterField[],
		shape?: (record: IDataObject) => IDataObject,
	): Promise<IDataObject[] | FileItem> {
		const body = readSortedFilterBody.call(this, i, filterFields, DATE_AND_VALUE_RANGES, sortFields);
		return await listAll.call(this, i, { ...endpoint, body }, shape);
	},
};
