import type { NodeContext } from './errors';
import { fieldError } from './errors';

/** Whole numbers read strictly: Request Options, Pagination and the polling trigger's options, and the checks of fields/validation.ts. */

/** A whole number written in decimal digits: no exponent, no hex, no sign, no fraction. */
const DECIMAL_DIGITS = /^\d+$/;

/**
 * A whole number at least `min`: a number that is a safe integer, or decimal digits. `1e21`,
 * `"1e3"`, `"0x10"`, `" 12.0 "` and numbers beyond 2^53 are refused, never reinterpreted.
 */
export function strictInteger(value: unknown, min: number): number | undefined {
	let n: number;
	if (typeof value === 'number') n = value;
	else if (typeof value === 'string' && DECIMAL_DIGITS.test(value.trim())) n = Number(value.trim());
	else return undefined;
	return Number.isSafeInteger(n) && n >= min ? n : undefined;
}

/**
 * A whole-number option (Request Options, Pagination, the polling trigger's options): empty gives
 * `fallback`; anything else must be written in digits, from `min` to `max`.
 */
export function wholeNumberOption(
	ctx: NodeContext,
	value: unknown,
	option: { label: string; min: number; max: number; fallback: number; minNote?: string },
	itemIndex?: number,
): number {
	if (value === undefined || value === null || value === '') return option.fallback;
	const n = strictInteger(value, option.min);
	if (n === undefined || n > option.max) {
		const { label, min, max, minNote = '' } = option;
		fieldError(ctx, `${label} must be a whole number from ${min}${minNote} to ${max} (got ${JSON.stringify(value)})`, itemIndex);
	}
	return n;
}
