import type { IDataObject, IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';

import { dateValueMs, isTimeZone } from './dates';
import type { NodeContext } from '../transport/errors';
import { fieldError, wrongType } from '../transport/errors';
import type { SegmentRule } from '../transport/paths';
import { checkSegment, ID_PATTERN, ID_RULE_WORDS } from '../transport/paths';
import { strictInteger } from '../transport/numbers';

/**
 * Input checks shared by every operation and both triggers. Each throws a NodeOperationError
 * that names the field (by its display name) before any request is made. Numbers and dates are
 * read strictly: what is sent is exactly what the user meant, or nothing is sent.
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A text value trimmed, a number as text, anything else (or empty) undefined. */
export function optionalText(value: unknown): string | undefined {
	const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
	return text === '' ? undefined : text;
}

/**
 * A text field's value trimmed (a number as text); empty: undefined. Any other type is refused,
 * naming it ("Name must be text; received an object"): never read as "not set".
 */
export function readText(ctx: NodeContext, value: unknown, label: string, i?: number): string | undefined {
	const blank = value === undefined || value === null || value === '';
	if (!blank && typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) wrongType(ctx, label, 'text', value, i);
	return optionalText(value);
}

export function requireString(this: IExecuteFunctions, name: string, i: number, label: string): string {
	const text = readText(this, this.getNodeParameter(name, i, ''), label, i);
	if (text === undefined) fieldError(this, `${label} is required`, i);
	return text;
}

/** An ID (or code) checked against the path rule of transport/paths.ts. */
export function checkId(ctx: NodeContext, value: unknown, label: string, i?: number, rule: SegmentRule = 'id'): string {
	return checkSegment(ctx, value, label, rule, i);
}

/** A resource locator's value object (`{ __rl, mode, value }`), as n8n stores it. */
export function isLocator(value: unknown): value is INodeParameterResourceLocator {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && ('__rl' in value || ('mode' in value && 'value' in value));
}

/** Reads a resource locator (From list / By ID / By URL) or a plain string field as an ID. */
export function requireId(this: IExecuteFunctions, name: string, i: number, label: string, rule: SegmentRule = 'id'): string {
	const raw = this.getNodeParameter(name, i, '', { extractValue: true }) as
		| string
		| number
		| INodeParameterResourceLocator;
	// A locator n8n did not unwrap gives its value; any other object is the wrong type (checkSegment says so).
	const value = isLocator(raw) ? raw.value : raw;
	return checkSegment(this, value, label, rule, i);
}

/** Splits "a, b" (or takes an array) into IDs, each checked. */
export function readIds(ctx: NodeContext, value: unknown, i: number | undefined, label: string): string[] {
	const parts: unknown[] = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
	const ids = parts.map((p) => readText(ctx, p, label, i) ?? '').filter((p) => p !== '');
	for (const id of ids) {
		if (!ID_PATTERN.test(id)) fieldError(ctx, `${label} contains ${JSON.stringify(id)}, which ${ID_RULE_WORDS}`, i);
	}
	return ids;
}

export function checkEmail(this: NodeContext, value: unknown, i: number | undefined, label: string): string {
	const text = readText(this, value, label, i) ?? '';
	if (!EMAIL.test(text)) fieldError(this, `${label} must be a valid email address${text ? ` ("${text}" is not)` : ''}`, i);
	return text;
}

/** An amount in cents: a whole, non-negative number. */
export function checkCents(this: NodeContext, value: unknown, i: number | undefined, label: string): number {
	const n = strictInteger(value, 0);
	if (n === undefined) {
		fieldError(this, `${label} must be a whole, non-negative number of cents, written in digits (got ${JSON.stringify(value)})`, i);
	}
	return n;
}

export function checkInteger(this: NodeContext, value: unknown, i: number | undefined, label: string, min = 0): number {
	const n = strictInteger(value, min);
	if (n === undefined) fieldError(this, `${label} must be a whole number of at least ${min}, written in digits (got ${JSON.stringify(value)})`, i);
	return n;
}

/**
 * A decimal number from `min` to `max` (rates, percentages): a finite number, or digits with an
 * optional fraction. `"1e3"`, `"0x10"` and `"Infinity"` are refused.
 */
export function checkNumber(this: NodeContext, value: unknown, i: number | undefined, label: string, min: number, max?: number): number {
	let n: number | undefined;
	if (typeof value === 'number') n = value;
	else if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) n = Number(value.trim());
	if (n === undefined || !Number.isFinite(n) || n < min || (max !== undefined && n > max)) {
		const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
		fieldError(this, `${label} must be a number ${range} (got ${JSON.stringify(value)})`, i);
	}
	return n;
}

/** The workflow's time zone (Settings > Timezone, else the instance's), or UTC when unknown. */
export function workflowTimeZone(ctx: NodeContext): string {
	const tz = (ctx as { getTimezone?: () => string }).getTimezone?.();
	return typeof tz === 'string' && tz && isTimeZone(tz) ? tz : 'UTC';
}

/**
 * A date-time field as ISO 8601 UTC with milliseconds, e.g. 2026-01-31T03:00:00.000Z. Takes
 * ISO 8601 with a real calendar day, or an n8n DateTime / Date; a value without a zone is read
 * in the workflow's time zone.
 */
export function toIsoDate(this: NodeContext, value: unknown, i: number | undefined, label: string): string {
	const ms = dateValueMs(value, workflowTimeZone(this));
	if (ms === undefined) {
		fieldError(this, `${label} must be a date in ISO 8601 form such as 2026-01-31 or 2026-01-31T09:30:00 (got ${JSON.stringify(value)})`, i);
	}
	return new Date(ms).toISOString();
}

export function checkOneOf<T extends string>(
	this: NodeContext,
	value: unknown,
	allowed: readonly T[],
	i: number | undefined,
	label: string,
): T {
	if (typeof value !== 'string' || !allowed.includes(value as T)) {
		fieldError(this, `${label} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`, i);
	}
	return value as T;
}

/**
 * The values of a multi-select (an array, or comma-separated text by expression), each one of
 * `allowed`; blanks and duplicates dropped.
 */
export function checkOptions(this: NodeContext, value: unknown, allowed: readonly string[], i: number | undefined, label: string): string[] {
	const list = Array.isArray(value) ? value : typeof value === 'string' && value.trim() ? value.split(',') : [];
	const values = list.map((v) => String(v).trim()).filter(Boolean);
	for (const v of values) checkOneOf.call(this, v, allowed, i, label);
	return [...new Set(values)];
}

/** A boolean field (n8n may hand an expression's result through unchecked). */
export function checkBoolean(this: NodeContext, value: unknown, i: number | undefined, label: string): boolean {
	if (typeof value !== 'boolean') fieldError(this, `${label} must be true or false (got ${JSON.stringify(value)})`, i);
	return value;
}

function parseJson(ctx: NodeContext, value: unknown, i: number | undefined, label: string): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch (error) {
		return fieldError(ctx, `${label} is not valid JSON: ${(error as Error).message}`, i);
	}
}

/** A JSON field: an object given as text or already parsed by n8n. */
export function parseJsonObject(this: NodeContext, value: unknown, i: number | undefined, label: string): IDataObject {
	if (value === undefined || value === null || value === '') return {};
	const parsed = parseJson(this, value, i, label);
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) fieldError(this, `${label} must be a JSON object`, i);
	return parsed as IDataObject;
}

/** A JSON field that must hold an array (of objects). */
export function parseJsonArray(this: NodeContext, value: unknown, i: number, label: string): IDataObject[] {
	if (value === undefined || value === null || value === '') return [];
	const parsed = parseJson(this, value, i, label);
	if (!Array.isArray(parsed)) fieldError(this, `${label} must be a JSON array`, i);
	return parsed as IDataObject[];
}

/** Drops undefined, empty-string and empty-object values so only what the user set is sent. */
export function compact(obj: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(obj)) {
		if (value === undefined || value === '' || value === null) continue;
		if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0) continue;
		out[key] = value;
	}
	return out;
}
