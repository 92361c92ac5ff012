/**
 * Body validation for the write endpoints' simulator modules (customers, orders, payment links,
 * pixels, vouchers): every offending field is collected and reported at once, the way the
 * platform answers 400 `Invalid param: [a, b]`.
 */
import type { RouteContext } from './core';
import { invalidParams } from './core';

export type Source = Record<string, unknown>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The JSON body of a write request: an object (an empty one when nothing was sent). */
export function objectBody(ctx: RouteContext): Source {
	const body = ctx.body;
	if (body === undefined || body === null || body === '') return {};
	if (typeof body !== 'object' || Array.isArray(body)) throw invalidParams('body');
	return body as Source;
}

function isObject(value: unknown): value is Source {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class Checker {
	readonly bad: string[] = [];

	private fail(label: string): undefined {
		if (!this.bad.includes(label)) this.bad.push(label);
		return undefined;
	}

	private missing(src: Source | undefined, key: string): boolean {
		const v = src?.[key];
		return v === undefined || v === null;
	}

	/** A string (non-empty when required). */
	str(src: Source | undefined, key: string, label: string, required = false): string | undefined {
		if (this.missing(src, key)) return required ? this.fail(label) : undefined;
		const v = src![key];
		if (typeof v !== 'string' || (required && v.trim() === '')) return this.fail(label);
		return v;
	}

	email(src: Source | undefined, key: string, label: string, required = false): string | undefined {
		const v = this.str(src, key, label, required);
		if (v !== undefined && !EMAIL.test(v)) return this.fail(label);
		return v;
	}

	/** A whole number of at least `min` (amounts in cents: min 0). */
	int(src: Source | undefined, key: string, label: string, min = 0, required = false, max = Infinity): number | undefined {
		if (this.missing(src, key)) return required ? this.fail(label) : undefined;
		const v = src![key];
		if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) return this.fail(label);
		return v;
	}

	num(src: Source | undefined, key: string, label: string, min = 0, max = Infinity): number | undefined {
		if (this.missing(src, key)) return undefined;
		const v = src![key];
		if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) return this.fail(label);
		return v;
	}

	bool(src: Source | undefined, key: string, label: string): boolean | undefined {
		if (this.missing(src, key)) return undefined;
		const v = src![key];
		if (typeof v !== 'boolean') return this.fail(label);
		return v;
	}

	obj(src: Source | undefined, key: string, label: string, required = false): Source | undefined {
		if (this.missing(src, key)) return required ? this.fail(label) : undefined;
		const v = src![key];
		if (!isObject(v)) return this.fail(label);
		return v;
	}

	/** An array of objects (non-empty when required). */
	list(src: Source | undefined, key: string, label: string, required = false): Source[] | undefined {
		if (this.missing(src, key)) return required ? this.fail(label) : undefined;
		const v = src![key];
		if (!Array.isArray(v) || (required && v.length === 0) || v.some((x) => !isObject(x))) return this.fail(label);
		return v as Source[];
	}

	/** Throws the platform's 400 naming every offending field, if any. */
	done(): void {
		if (this.bad.length) throw invalidParams(...this.bad);
	}
}

/** Merges `patch` into `target`, objects key by key (a PATCH of nested fields). */
export function deepMerge(target: Source, patch: Source): Source {
	const out: Source = { ...target };
	for (const [key, value] of Object.entries(patch)) {
		out[key] = isObject(value) && isObject(out[key]) ? deepMerge(out[key] as Source, value) : value;
	}
	return out;
}
