import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from './records';

/**
 * CSV for a list written page by page (RFC 4180: fields with a comma, a double quote, CR or LF
 * are quoted, quotes doubled; lines end with CRLF; UTF-8).
 *
 * Cells: nested objects are flattened into dot paths (`customer.email`); an empty object gives no
 * cell; arrays are written as JSON text; null is an empty cell; numbers and booleans as JSON
 * writes them.
 *
 * Columns: the header is written before the first row, so the columns are every field of the
 * first page, in the order they first appear. A field that only a later record has is not
 * dropped: the last column, `_extraFields`, holds such fields of its record as a JSON object
 * (`{"refundedAt":"2025-06-02T10:00:00.000Z"}`; empty when there are none), and the summary
 * names them. The column is always there, so that every export of a list has the same columns
 * whatever its length.
 *
 * Formulas: a spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return as a formula (CSV injection). With neutralizing on (the default), such a text gets a
 * leading `'`, which spreadsheets read as "this is text". Numbers are never changed (`-150` is
 * a number, not a formula), and neither is a text that is a plain number (`"-150.00"`).
 */

export const EXTRA_COLUMN = '_extraFields';
/** Names of fields outside the columns listed in the summary; more are counted. */
const MAX_EXTRA_NAMES = 100;

/** `=`, `+`, `-`, `@`, tab, carriage return: a cell starting with one is a formula to a spreadsheet. */
const FORMULA_START = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d]);
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

export interface CsvOptions {
	/** Prefix texts that a spreadsheet would run as a formula with `'` (default on). */
	neutralizeFormulas: boolean;
}

/** A text a spreadsheet would run as a formula, with a leading `'`. */
export function neutralize(text: string): string {
	return FORMULA_START.has(text.charCodeAt(0)) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** One field as RFC 4180 writes it. */
export function quote(text: string): string {
	return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The leaves of a record as [dot path, value], depth first, in key order. */
export function flatten(record: IDataObject, prefix = '', out: Array<[string, unknown]> = []): Array<[string, unknown]> {
	for (const key of Object.keys(record)) {
		const value = record[key];
		const path = prefix === '' ? key : `${prefix}.${key}`;
		if (isPlainObject(value)) flatten(value, path, out);
		else out.push([path, value]);
	}
	return out;
}

function cellText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return JSON.stringify(value);
}

/**
 * Text encoded straight into a Buffer, outside V8's heap: a page's text never becomes one large
 * string (large strings go to V8's old generation and stay there until a full collection).
 */
export class Utf8Builder {
	private buffer = Buffer.allocUnsafe(64 * 1024);
	private length = 0;

	append(text: string): void {
		// At most 3 bytes per UTF-16 unit.
		if (this.buffer.length - this.length < 3 * text.length) {
			const bigger = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.length + 3 * text.length));
			this.buffer.copy(bigger, 0, 0, this.length);
			this.buffer = bigger;
		}
		this.length += this.buffer.write(text, this.length, 'utf8');
	}

	/** Bytes written since the last take. */
	get size(): number {
		return this.length;
	}

	/**
	 * The bytes written since the last take. With `reuse` the next text overwrites them (the
	 * consumer must be done with them first); else they stay the caller's.
	 */
	take(reuse = false): Buffer {
		const bytes = this.buffer.subarray(0, this.length);
		if (!reuse) this.buffer = Buffer.allocUnsafe(this.buffer.length);
		this.length = 0;
		return bytes;
	}
}

export class CsvWriter {
	private columns = new Map<string, number>();
	private started = false;
	private extraColumn = EXTRA_COLUMN;
	/** The cells of the row being written, and which columns it has filled (reused row to row). */
	private cells: string[] = [];
	private filled = new Uint8Array(0);
	private readonly extraNames = new Set<string>();
	/** Distinct names beyond MAX_EXTRA_NAMES are not kept: this says there were more. */
	private moreExtraNames = false;
	private recordsWithExtra = 0;

	constructor(private readonly options: CsvOptions) {}

	/** Writes the next page of records: the header line first, on the first page. */
	page(records: IDataObject[], out: Utf8Builder): void {
		if (!this.started) this.header(records, out);
		for (const record of records) this.row(record, out);
	}

	/** What the summary says of the columns. */
	summary(): IDataObject {
		return {
			columns: [...this.columns.keys()],
			extraFields: [...this.extraNames],
			...(this.moreExtraNames ? { moreExtraFields: true } : {}),
			recordsWithExtraFields: this.recordsWithExtra,
		};
	}

	private header(firstPage: IDataObject[], out: Utf8Builder): void {
		for (const record of firstPage) for (const [path] of flatten(record)) if (!this.columns.has(path)) this.columns.set(path, this.columns.size);
		while (this.columns.has(this.extraColumn)) this.extraColumn = `_${this.extraColumn}`;
		this.started = true;
		this.cells = new Array<string>(this.columns.size + 1).fill('');
		this.filled = new Uint8Array(this.columns.size);
		out.append(this.line([...this.columns.keys(), this.extraColumn]));
	}

	private row(record: IDataObject, out: Utf8Builder): void {
		this.cells.fill('');
		this.filled.fill(0);
		const extra = this.place(record, '', undefined);
		if (extra) {
			this.recordsWithExtra++;
			this.cells[this.columns.size] = JSON.stringify(extra);
		}
		out.append(this.line(this.cells));
	}

	/** Puts each leaf of `record` into its column, or into `extra` when it has none. */
	private place(record: IDataObject, prefix: string, extra: IDataObject | undefined): IDataObject | undefined {
		for (const key of Object.keys(record)) {
			const value = record[key];
			const path = prefix === '' ? key : `${prefix}.${key}`;
			if (isPlainObject(value)) {
				extra = this.place(value, path, extra);
				continue;
			}
			const at = this.columns.get(path);
			if (at !== undefined && this.filled[at] === 0) {
				this.filled[at] = 1;
				this.cells[at] = cellText(value);
				continue;
			}
			// A field outside the columns (or a dotted key equal to a nested path already placed).
			extra ??= {};
			let name = path;
			for (let n = 2; name in extra; n++) name = `${path}#${n}`;
			extra[name] = value as IDataObject[string];
			this.noteExtra(path);
		}
		return extra;
	}

	private noteExtra(path: string): void {
		if (this.extraNames.has(path)) return;
		if (this.extraNames.size < MAX_EXTRA_NAMES) this.extraNames.add(path);
		else this.moreExtraNames = true;
	}

	private line(cells: string[]): string {
		let line = '';
		for (let k = 0; k < cells.length; k++) {
			const cell = this.options.neutralizeFormulas ? neutralize(cells[k]) : cells[k];
			line += k === 0 ? quote(cell) : `,${quote(cell)}`;
		}
		return `${line}\r\n`;
	}
}
