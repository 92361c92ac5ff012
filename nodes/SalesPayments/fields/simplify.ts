import type { IDataObject, INodeProperties } from 'n8n-workflow';

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

const IN_CENTS = /^(.+)InCents$/;

/** 4959 -> 49.59, -1500 -> -15; exact to the cent for every safe integer. */
export function centsToDecimal(cents: number): number {
	return Number.isInteger(cents) ? Number((cents / 100).toFixed(2)) : cents / 100;
}

/**
 * The fields of a record a model reads when the node runs as an AI agent's tool (Simplify on):
 * a key, or [key, dotted path] to lift a nested field (`['customerName', 'customer.name']`).
 */
export type ModelRecord = ReadonlyArray<string | readonly [string, string]>;

function valueAt(record: IDataObject, path: string): unknown {
	let value: unknown = record;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

/**
 * A record as an agent reads it: only the fields of `fields` the record has, in that order, each
 * amount in cents as money under its name without "InCents" (`valueInCents: 4959` -> `value:
 * 49.59`). An amount that is not a number keeps its own name: it is never shown as money.
 */
export function forModel(record: IDataObject, fields: ModelRecord): IDataObject {
	const out: IDataObject = {};
	for (const entry of fields) {
		const [key, path] = typeof entry === 'string' ? [entry, entry] : entry;
		const value = valueAt(record, path);
		if (value === undefined) continue;
		const base = IN_CENTS.exec(key)?.[1];
		if (base !== undefined && typeof value === 'number' && Number.isFinite(value)) out[base] = centsToDecimal(value);
		else out[key] = value as IDataObject[string];
	}
	return out;
}

/** Keeps the listed keys of a record (those present), in that order. */
export function pick(record: IDataObject, keys: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const key of keys) if (key in record) out[key] = record[key];
	return out;
}

/**
 * Amounts for people: the platform gives money in cents (`valueInCents: 4959`); finance exports
 * want money as money. Read operations offer this switch (see OperationDef.amounts).
 */
export const decimalAmountsField: INodeProperties = {
	displayName: 'Add Decimal Amounts',
	name: 'decimalAmounts',
	type: 'boolean',
	default: false,
	description:
		'Whether to add next to each amount in cents the same amount as a decimal number: valueInCents 4959 gets value 49.59, also inside nested records. The fields in cents stay as they are.',
};

function withAmounts(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withAmounts);
	if (value === null || typeof value !== 'object') return value;
	const record = value as IDataObject;
	const out: IDataObject = {};
	for (const [key, inner] of Object.entries(record)) {
		out[key] = withAmounts(inner) as IDataObject[string];
		const base = IN_CENTS.exec(key)?.[1];
		if (base === undefined || typeof inner !== 'number' || !Number.isFinite(inner)) continue;
		// Next to the cents field, under its name without "InCents"; a name the record already
		// uses is never overwritten: the decimal then goes to `<name>Decimal`.
		const name = base in record ? `${base}Decimal` : base;
		if (!(name in record)) out[name] = centsToDecimal(inner);
	}
	return out;
}

/**
 * The record with a decimal amount added next to each `...InCents` number, at every depth
 * (`valueInCents: 4959` -> `value: 49.59`). Nothing is removed or replaced.
 */
export function withDecimalAmounts(record: IDataObject): IDataObject {
	return withAmounts(record) as IDataObject;
}
