import type { IDataObject } from 'n8n-workflow';

/**
 * The one reading of a list's own figures (page numbers, counts, totals), shared by the walk
 * (pages.ts) and the file outputs' reconciliation (files/reconcile.ts): a number and a text that
 * is exactly a number read alike; anything else is no number. Figures are also read exactly
 * (`units / 10^scale`, as BigInt), so that sums and comparisons hold at any size and reasons
 * show the figures as they came, never rounded.
 */

/** The fields a list names its count by, in the order they are read: the spec's `totalDocs` first. */
export const COUNT_FIELDS = ['totalDocs', 'count', 'total'] as const;

/** A text that is exactly a number: sign, digits, fraction, exponent (no spaces, no hex, no Infinity). */
const NUMBER_TEXT = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A number, or a text that is exactly a finite number; undefined for anything else. */
export function readNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || !NUMBER_TEXT.test(value)) return undefined;
	const n = Number(value);
	return Number.isFinite(n) ? n : undefined;
}

/** A figure read exactly: `units / 10^scale`, scale 0 for a whole number (trailing zeros removed). */
export interface Exact {
	units: bigint;
	scale: number;
}

/** The exact value of a number or a text that is exactly a (finite) number; undefined for anything else. */
export function readExact(value: unknown): Exact | undefined {
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return undefined;
		// A whole double converts exactly; any other is read from its shortest text (what JSON had).
		return Number.isInteger(value) ? { units: BigInt(value), scale: 0 } : exactOfText(String(value));
	}
	return readNumber(value) === undefined ? undefined : exactOfText(value as string);
}

function exactOfText(text: string): Exact {
	const [, sign, whole, fraction = '', exponent = '0'] = NUMBER_TEXT.exec(text)!;
	let units = BigInt(`${sign === '-' ? '-' : ''}${whole}${fraction}`);
	let scale = fraction.length - Number(exponent);
	if (scale < 0) {
		units *= 10n ** BigInt(-scale);
		scale = 0;
	}
	while (scale > 0 && units % 10n === 0n) {
		units /= 10n;
		scale--;
	}
	return { units, scale };
}

/** A whole number read exactly (a count, cents), or undefined. */
export function wholeOf(value: unknown): bigint | undefined {
	if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
	const exact = readExact(value);
	return exact !== undefined && exact.scale === 0 ? exact.units : undefined;
}

/** The count field a list gives (the first of COUNT_FIELDS that is neither missing nor null), or undefined. */
export function countFieldOf(fields: IDataObject): (typeof COUNT_FIELDS)[number] | undefined {
	return COUNT_FIELDS.find((name) => fields[name] !== undefined && fields[name] !== null);
}

/** The list's count as the walk uses it: the first count field given, read as a number. */
export function readCount(fields: IDataObject): number | undefined {
	const name = countFieldOf(fields);
	return name === undefined ? undefined : readNumber(fields[name]);
}

/** Digits with a comma every three, from the right. */
function grouped(digits: string): string {
	return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `units / 10^scale` as plain decimal text, exactly: `-12.5`, `0.0000001`. */
export function decimalText({ units, scale }: Exact, group = false): string {
	const negative = units < 0n;
	const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
	const whole = digits.slice(0, digits.length - scale);
	const text = `${group ? grouped(whole) : whole}${scale > 0 ? `.${digits.slice(digits.length - scale)}` : ''}`;
	return negative ? `-${text}` : text;
}

/** A figure for a reason, exact and grouped: 2,516,990 or 2,516,989.9999999995. */
export function figure(value: Exact | bigint | number): string {
	return decimalText(typeof value === 'object' ? value : { units: BigInt(value), scale: 0 }, true);
}

/** A difference `a - b` of exact figures, exactly. */
export function minus(a: Exact, b: Exact): Exact {
	const scale = Math.max(a.scale, b.scale);
	const at = (x: Exact) => x.units * 10n ** BigInt(scale - x.scale);
	return { units: at(a) - at(b), scale };
}

/** A whole figure as JSON holds it exactly: a number while it is a safe integer, else its digits as text. */
export function jsonOf(units: bigint): number | string {
	const n = Number(units);
	return Number.isSafeInteger(n) ? n : units.toString();
}

/**
 * Cents as money, exactly (2516990 -> 25169.9): a number when JSON's number shows the exact amount
 * (up to 15 digits), else the text with two decimals ("80000000000000.07").
 */
export function moneyOf(cents: bigint): number | string {
	const text = decimalText({ units: cents, scale: 2 });
	const n = Number(text);
	return String(n) === text.replace(/\.?0+$/, '') ? n : text;
}

/** What came, as a reason quotes it: `null`, `"abc"`, `missing`, cut to 60 characters. */
export function cameText(value: unknown): string {
	if (value === undefined) return 'missing';
	if (typeof value === 'number') return String(value);
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
