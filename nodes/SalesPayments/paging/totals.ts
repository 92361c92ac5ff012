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

/**
 * The most digits (before and after the point) and the largest exponent (±) of a figure: beyond
 * them a text is no number. Read exactly, `0e8000000` would hold the process for a second and
 * `1e-20000000` write 20 million digits; no count or amount needs more.
 */
export const MAX_FIGURE_DIGITS = 40;
export const MAX_FIGURE_EXPONENT = 400;
/** Longer than any text within those bounds: not even looked at. */
const MAX_FIGURE_TEXT = 2 + MAX_FIGURE_DIGITS + 2 + String(MAX_FIGURE_EXPONENT).length;

/** The parts of a text that is exactly a number within the bounds, else undefined. */
function numberParts(text: string): RegExpExecArray | undefined {
	if (text.length > MAX_FIGURE_TEXT) return undefined;
	const parts = NUMBER_TEXT.exec(text);
	if (!parts) return undefined;
	const [, , whole, fraction = '', exponent = '0'] = parts;
	return whole.length + fraction.length <= MAX_FIGURE_DIGITS && Math.abs(Number(exponent)) <= MAX_FIGURE_EXPONENT ? parts : undefined;
}

/** A number, or a text that is exactly a finite number within the bounds; undefined for anything else. */
export function readNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || numberParts(value) === undefined) return undefined;
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
	// A finite double's text (at most 17 digits, exponent within ±324) or a text readNumber took.
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

/** The most characters of a figure in a reason written in full; a longer one is written exactly in scientific notation. */
const MAX_FIGURE_SHOWN = 40;

/** A figure for a reason, exact and grouped: 2,516,990 or 2,516,989.9999999995; a long one as 1.5e+300 (its digits past 40 cut, marked …). */
export function figure(value: Exact | bigint | number): string {
	const exact = typeof value === 'object' ? value : { units: BigInt(value), scale: 0 };
	const text = decimalText(exact, true);
	return text.length <= MAX_FIGURE_SHOWN ? text : scientific(exact);
}

/**
 * `units / 10^scale` as one digit, the others after a point, and a power of ten: -1.25e+300; exact
 * up to MAX_FIGURE_SHOWN digits, past them cut (never rounded) and marked: 1.4999999999999999999…e+400.
 */
function scientific({ units, scale }: Exact): string {
	const all = (units < 0n ? -units : units).toString();
	const exponent = all.length - 1 - scale;
	const digits = all.replace(/0+$/, '') || '0';
	const shown = digits.length > MAX_FIGURE_SHOWN ? `${digits.slice(0, MAX_FIGURE_SHOWN / 2)}…` : digits;
	const mantissa = digits.length > 1 ? `${shown[0]}.${shown.slice(1)}` : shown;
	return `${units < 0n ? '-' : ''}${mantissa}e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
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

/** What came, as a reason quotes it: `null`, `"abc"`, `missing`, cut to `most` characters (60). */
export function cameText(value: unknown, most = 60): string {
	if (value === undefined) return 'missing';
	if (typeof value === 'number') return String(value);
	// A long text is cut before it is quoted: JSON.stringify of megabytes only to show 60 characters.
	const text = JSON.stringify(typeof value === 'string' && value.length > most ? value.slice(0, most) : value) ?? String(value);
	return text.length > most ? `${text.slice(0, most - 1)}…` : text;
}
