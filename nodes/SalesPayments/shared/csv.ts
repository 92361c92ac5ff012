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

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

export interface CsvOptions {
	/** Prefix texts that a spreadsheet would run as a formula with `'` (default on). */
	neutralizeFormulas: boolean;
}

/** A text a spreadsheet would run as a formula, with a leading `'`. */
export function neutralize(text: string): string {
	return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
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

export class CsvWriter {
	private columns?: Map<string, number>;
	private extraColumn = EXTRA_COLUMN;
	private readonly extraNames = new Set<string>();
	/** Distinct names beyond MAX_EXTRA_NAMES are not kept: this says there were more. */
	private moreExtraNames = false;
	private recordsWithExtra = 0;

	constructor(private readonly options: CsvOptions) {}

	/** The CSV text of the next page of records: the header line first, on the first page. */
	page(records: IDataObject[]): string {
		const flat = records.map((record) => flatten(record));
		let text = '';
		if (!this.columns) text = this.header(flat);
		for (const leaves of flat) text += this.row(leaves);
		return text;
	}

	/** What the summary says of the columns. */
	summary(): IDataObject {
		return {
			columns: [...(this.columns?.keys() ?? [])],
			extraFields: [...this.extraNames],
			...(this.moreExtraNames ? { moreExtraFields: true } : {}),
			recordsWithExtraFields: this.recordsWithExtra,
		};
	}

	private header(firstPage: Array<Array<[string, unknown]>>): string {
		const columns = new Map<string, number>();
		for (const leaves of firstPage) for (const [path] of leaves) if (!columns.has(path)) columns.set(path, columns.size);
		while (columns.has(this.extraColumn)) this.extraColumn = `_${this.extraColumn}`;
		this.columns = columns;
		return this.line([...columns.keys(), this.extraColumn]);
	}

	private row(leaves: Array<[string, unknown]>): string {
		const columns = this.columns as Map<string, number>;
		const cells = new Array<string>(columns.size + 1).fill('');
		const filled = new Uint8Array(columns.size);
		let extra: IDataObject | undefined;
		for (const [path, value] of leaves) {
			const at = columns.get(path);
			if (at !== undefined && filled[at] === 0) {
				filled[at] = 1;
				cells[at] = cellText(value);
				continue;
			}
			// A field outside the columns (or a dotted key equal to a nested path already placed).
			extra ??= {};
			let name = path;
			for (let n = 2; name in extra; n++) name = `${path}#${n}`;
			extra[name] = value as IDataObject[string];
			this.noteExtra(path);
		}
		if (extra) {
			this.recordsWithExtra++;
			cells[columns.size] = JSON.stringify(extra);
		}
		return this.line(cells);
	}

	private noteExtra(path: string): void {
		if (this.extraNames.has(path)) return;
		if (this.extraNames.size < MAX_EXTRA_NAMES) this.extraNames.add(path);
		else this.moreExtraNames = true;
	}

	private line(cells: string[]): string {
		const safe = this.options.neutralizeFormulas ? cells.map(neutralize) : cells;
		return `${safe.map(quote).join(',')}\r\n`;
	}
}
