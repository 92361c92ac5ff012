import type { IDataObject, IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Input checks shared by every operation. Each throws a NodeOperationError that names the
 * field (by its display name) before any request is made.
 */
function fail(ctx: IExecuteFunctions, i: number, message: string): never {
	throw new NodeOperationError(ctx.getNode(), message, { itemIndex: i });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requireString(this: IExecuteFunctions, name: string, i: number, label: string): string {
	const value = this.getNodeParameter(name, i, '') as unknown;
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (!text) fail(this, i, `${label} is required`);
	return text;
}

/** Reads a resource locator (From list / By ID / By URL) or a plain string field as an id. */
export function requireId(this: IExecuteFunctions, name: string, i: number, label: string): string {
	const raw = this.getNodeParameter(name, i, '', { extractValue: true }) as
		| string
		| number
		| INodeParameterResourceLocator;
	const value = typeof raw === 'object' && raw !== null ? raw.value : raw;
	const text = value === undefined || value === null ? '' : String(value).trim();
	if (!text) fail(this, i, `${label} is required`);
	if (/[/?#\s]/.test(text)) fail(this, i, `${label} "${text}" is not a valid ID`);
	return text;
}

export function checkEmail(this: IExecuteFunctions, value: unknown, i: number, label: string): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!EMAIL.test(text)) fail(this, i, `${label} must be a valid email address${text ? ` ("${text}" is not)` : ''}`);
	return text;
}

/** An amount in cents: a non-negative whole number. */
export function checkCents(this: IExecuteFunctions, value: unknown, i: number, label: string): number {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
		fail(this, i, `${label} must be a whole, non-negative number of cents (got ${JSON.stringify(value)})`);
	}
	return n;
}

export function checkInteger(
	this: IExecuteFunctions,
	value: unknown,
	i: number,
	label: string,
	min = 0,
): number {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < min) {
		fail(this, i, `${label} must be a whole number of at least ${min} (got ${JSON.stringify(value)})`);
	}
	return n;
}

/** A date-time field as ISO 8601 UTC with milliseconds, e.g. 2026-01-31T00:00:00.000Z. */
export function toIsoDate(this: IExecuteFunctions, value: unknown, i: number, label: string): string {
	if (value && typeof value === 'object' && 'toISO' in (value as object)) {
		value = (value as { toISO: () => string }).toISO();
	}
	const text = typeof value === 'string' ? value.trim() : value instanceof Date ? value.toISOString() : '';
	const ms = text ? Date.parse(text) : NaN;
	if (Number.isNaN(ms)) fail(this, i, `${label} must be a date (got ${JSON.stringify(value)})`);
	return new Date(ms).toISOString();
}

export function checkOneOf<T extends string>(
	this: IExecuteFunctions,
	value: unknown,
	allowed: readonly T[],
	i: number,
	label: string,
): T {
	if (typeof value !== 'string' || !allowed.includes(value as T)) {
		fail(this, i, `${label} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
	}
	return value as T;
}

/** A JSON field: an object given as text or already parsed by n8n. */
export function parseJsonObject(this: IExecuteFunctions, value: unknown, i: number, label: string): IDataObject {
	if (value === undefined || value === null || value === '') return {};
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			fail(this, i, `${label} is not valid JSON: ${(error as Error).message}`);
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) fail(this, i, `${label} must be a JSON object`);
	return parsed as IDataObject;
}

/** A JSON field that must hold an array (of objects). */
export function parseJsonArray(this: IExecuteFunctions, value: unknown, i: number, label: string): IDataObject[] {
	if (value === undefined || value === null || value === '') return [];
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			fail(this, i, `${label} is not valid JSON: ${(error as Error).message}`);
		}
	}
	if (!Array.isArray(parsed)) fail(this, i, `${label} must be a JSON array`);
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
