import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../transport/records';

/**
 * A list as a table written page by page (CSV here, .xlsx in xlsx.ts): the same columns for both.
 *
 * Cells: nested objects are flattened into dot paths (`customer.email`); an empty object gives no
 * cell; arrays are written as JSON text; null is an empty cell.
 *
 * Columns: the header is written before the first row, so the columns are every field of the
 * first page, in the order they first appear. A field that only a later record has is not
 * dropped: the last column, `_extraFields`, holds such fields of its record as a JSON object
 * (`{"refundedAt":"2025-06-02T10:00:00.000Z"}`; empty when there are none), and the summary
 * names them. The column is always there, so that every export of a list has the same columns
 * whatever its length.
 *
 * CSV (RFC 4180, with the chosen delimiter): fields with the delimiter, a double quote, CR or LF
 * are quoted, quotes doubled; lines end with CRLF; UTF-8. Formulas: see neutralize().
 */

export const EXTRA_COLUMN = '_extraFields';
/** Names of fields outside the columns listed in the summary; more are counted. */
const MAX_EXTRA_NAMES = 100;

/** What Delimiter offers: comma, semicolon (Excel in Brazil and most of Europe), tab. */
export const DELIMITERS = [',', ';', '\t'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** `=`, `+`, `-`, `@`, tab, carriage return, NUL: a cell starting with one is a formula to a spreadsheet (ASVS 5.0 1.2.10). */
const FORMULA_START = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d, 0x00]);
/**
 * A plain number in either decimal notation: `-150`, `-12.50`, `-12,50`, `1.234,56`, `1,234.56`,
 * `1e5`. A spreadsheet reads it as a number (or as text), never as a formula.
 */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+|\d{1,3}(?:\.\d{3})+(?:,\d*)?|\d{1,3}(?:,\d{3})+(?:\.\d*)?)(?:[eE][+-]?\d+)?$/;

export interface CsvOptions {
	/** Prefix texts that a spreadsheet would run as a formula with `'` (default on). */
	neutralizeFormulas: boolean;
	/** Default `,`. */
	delimiter?: Delimiter;
	/** Default on. */
	headerRow?: boolean;
}

export function isPlainNumber(text: string): boolean {
	return PLAIN_NUMBER.test(text);
}

/**
 * A text a spreadsheet would run as a formula, with a `'` before the formula character, which
 * spreadsheets read as "this is text".
 *
 * A reader may split the line on another delimiter than the file's: a comma file opened with a
 * double click in a `;` locale (Excel in Brazil, most of Europe) is split on `;`, inside quoted
 * fields too, so `x;=1+2`, one quoted cell for a comma reader, gives that reader a cell `=1+2`.
 * So every part of the text that begins after one of the other delimiters (`,` `;` tab, except
 * the file's own, which quoting protects) is checked like the start of the text: when its first
 * character other than spaces and `"` starts a formula, a `'` goes before it (`x;'=1+2`). A part
 * (or the whole text) that is a plain number in either decimal notation is left as is.
 */
export function neutralize(text: string, delimiter: Delimiter = ','): string {
	if (text === '') return text;
	const startsFormula = FORMULA_START.has(text.charCodeAt(0));
	// Most texts neither start a formula nor hold another locale's delimiter: one native scan says so.
	if (!startsFormula && !OTHER_DELIMITERS[delimiter].test(text)) return text;
	if (isPlainNumber(text)) return text;
	const own = delimiter.charCodeAt(0);
	// The text's start: its first character, as the file's own reader reads the cell exactly.
	let out = startsFormula ? "'" : '';
	let kept = 0;
	for (let k = 0; k < text.length; k++) {
		if (!isOtherDelimiter(text.charCodeAt(k), own)) continue;
		// After another locale's delimiter, that reader's field may start with spaces or a quote.
		let j = k + 1;
		while (text[j] === ' ' || text[j] === '"') j++;
		if (j >= text.length || !FORMULA_START.has(text.charCodeAt(j))) continue;
		let end = j + 1;
		while (end < text.length && !isOtherDelimiter(text.charCodeAt(end), own)) end++;
		if (isPlainNumber(text.slice(j, end))) continue;
		out += `${text.slice(kept, j)}'`;
		kept = j;
	}
	return out + text.slice(kept);
}

/** For each file delimiter, the other locales' delimiters (`,` `;` tab). */
const OTHER_DELIMITERS: Record<Delimiter, RegExp> = { ',': /[;\t]/, ';': /[,\t]/, '\t': /[,;]/ };

/** `,` `;` or tab, when it is not the file's own delimiter (which quoting protects). */
function isOtherDelimiter(c: number, own: number): boolean {
	return (c === 0x2c || c === 0x3b || c === 0x09) && c !== own;
}

/** One field as RFC 4180 writes it, with `delimiter` between fields. */
export function quote(text: string, delimiter: Delimiter = ','): string {
	let needs = false;
	for (let k = 0; k < text.length && !needs; k++) {
		const c = text[k];
		needs = c === '"' || c === '\r' || c === '\n' || c === delimiter;
	}
	return needs ? `"${text.replace(/"/g, '""')}"` : text;
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

export function cellText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return JSON.stringify(value);
}

/** The characters allowed by `allowed` (an `appendPlain` table): every ASCII one but those of `except`. */
export function asciiExcept(except: string): Uint8Array {
	const table = new Uint8Array(128).fill(1);
	for (const c of except) table[c.charCodeAt(0)] = 0;
	return table;
}

const ASCII = asciiExcept('');

/**
 * Text encoded straight into a Buffer, outside V8's heap: a page's text never becomes one large
 * string (large strings go to V8's old generation and stay there until a full collection).
 */
export class Utf8Builder {
	private buffer = Buffer.allocUnsafe(64 * 1024);
	private length = 0;

	append(text: string): void {
		// At most 3 bytes per UTF-16 unit.
		this.room(3 * text.length);
		this.length += this.buffer.write(text, this.length, 'utf8');
	}

	/**
	 * Appends `text` when it is all ASCII and each of its characters is allowed by `allowed` (128
	 * entries, 1: allowed), byte by byte; else appends nothing and returns false. With `allowed`
	 * unset, any ASCII text. No string is made: a row written piece by piece this way leaves no
	 * garbage for V8 to collect (a row built as a string leaves about three times its size).
	 */
	appendPlain(text: string, allowed: Uint8Array = ASCII): boolean {
		this.room(text.length);
		const buffer = this.buffer;
		let at = this.length;
		for (let k = 0; k < text.length; k++) {
			const c = text.charCodeAt(k);
			if (c > 0x7f || allowed[c] === 0) return false;
			buffer[at++] = c;
		}
		this.length = at;
		return true;
	}

	/** Appends a few bytes (copied one by one: quicker than a native copy for a short piece). */
	appendShort(bytes: Uint8Array): void {
		this.room(bytes.length);
		const buffer = this.buffer;
		let at = this.length;
		for (let k = 0; k < bytes.length; k++) buffer[at++] = bytes[k];
		this.length = at;
	}

	appendBytes(bytes: Uint8Array): void {
		this.room(bytes.length);
		this.buffer.set(bytes, this.length);
		this.length += bytes.length;
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

	private room(bytes: number): void {
		if (this.buffer.length - this.length >= bytes) return;
		const bigger = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.length + bytes));
		this.buffer.copy(bigger, 0, 0, this.length);
		this.buffer = bigger;
	}
}

/**
 * The columns of a table written page by page: fixed by the first page, each later record's
 * leaves put into them, the rest into `_extraFields`. Cells keep their values (the CSV writes
 * them as text, the .xlsx with their type).
 */
export class TableLayout {
	private columns = new Map<string, number>();
	private started = false;
	private extraColumn = EXTRA_COLUMN;
	/** The cells of the row being placed, and which columns it has filled (reused row to row). */
	private cells: unknown[] = [];
	private filled = new Uint8Array(0);
	private readonly extraNames = new Set<string>();
	/** Distinct names beyond MAX_EXTRA_NAMES are not kept: this says there were more. */
	private moreExtraNames = false;
	private recordsWithExtra = 0;

	get isStarted(): boolean {
		return this.started;
	}

	/** Column names, `_extraFields` last. */
	get header(): string[] {
		return [...this.columns.keys(), this.extraColumn];
	}

	/** Fixes the columns from the first page: every field, in the order they first appear. */
	start(firstPage: IDataObject[]): string[] {
		for (const record of firstPage) for (const [path] of flatten(record)) if (!this.columns.has(path)) this.columns.set(path, this.columns.size);
		while (this.columns.has(this.extraColumn)) this.extraColumn = `_${this.extraColumn}`;
		this.started = true;
		this.cells = new Array<unknown>(this.columns.size + 1).fill(undefined);
		this.filled = new Uint8Array(this.columns.size);
		return this.header;
	}

	/** The record's cells, one per column (undefined: none), the last the JSON text of its extra fields. Reused: read before the next call. */
	row(record: IDataObject): unknown[] {
		this.cells.fill(undefined);
		this.filled.fill(0);
		const extra = this.place(record, '', undefined);
		if (extra) {
			this.recordsWithExtra++;
			this.cells[this.columns.size] = JSON.stringify(Object.fromEntries(extra));
		}
		return this.cells;
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

	/**
	 * Puts each leaf of `record` into its column, or into `extra` when it has none. `extra` is a
	 * Map: a name like `constructor` or `__proto__` is kept as it is (Object.fromEntries makes it
	 * an own property).
	 */
	private place(record: IDataObject, prefix: string, extra: Map<string, unknown> | undefined): Map<string, unknown> | undefined {
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
				this.cells[at] = value;
				continue;
			}
			// A field outside the columns (or a dotted key equal to a nested path already placed).
			extra ??= new Map();
			let name = path;
			for (let n = 2; extra.has(name); n++) name = `${path}#${n}`;
			extra.set(name, value);
			this.noteExtra(path);
		}
		return extra;
	}

	private noteExtra(path: string): void {
		if (this.extraNames.has(path)) return;
		if (this.extraNames.size < MAX_EXTRA_NAMES) this.extraNames.add(path);
		else this.moreExtraNames = true;
	}
}

/**
 * The ASCII characters of a text written as it is whatever the delimiter and Neutralize Formulas
 * (Utf8Builder.appendPlain): no `"`, CR, LF or delimiter of any locale (nothing to quote, no other
 * locale's field to neutralize); and its first character starts no formula (`=`, `+`, `-`, `@`,
 * tab, CR, NUL). Most cells (ids, dates, names) are copied so, skipping neutralize() and quote(),
 * which would give them back unchanged.
 */
const PLAIN_ASCII = asciiExcept('"\r\n,;\t');
const FORMULA_FIRST = asciiExcept('');
for (const c of FORMULA_START) FORMULA_FIRST[c] = 0;
const DELIMITER_BYTES: Record<Delimiter, Uint8Array> = { ',': Buffer.from(','), ';': Buffer.from(';'), '\t': Buffer.from('\t') };
const LINE_END = Buffer.from('\r\n');

export class CsvWriter {
	readonly layout = new TableLayout();

	constructor(private readonly options: CsvOptions) {}

	/** Writes the next page of records: the header line first, on the first page (Header Row). */
	page(records: IDataObject[], out: Utf8Builder): void {
		if (!this.layout.isStarted) {
			const header = this.layout.start(records);
			if (this.options.headerRow !== false) this.line(header, out);
		}
		for (const record of records) this.line(this.layout.row(record), out);
	}

	summary(): IDataObject {
		return this.layout.summary();
	}

	/** One line, written cell by cell into `out` (no string made of it). */
	private line(cells: unknown[], out: Utf8Builder): void {
		const delimiter = DELIMITER_BYTES[this.options.delimiter ?? ','];
		for (let k = 0; k < cells.length; k++) {
			if (k > 0) out.appendShort(delimiter);
			this.cell(cells[k], out);
		}
		out.appendShort(LINE_END);
	}

	/** A cell as the file holds it: cellText(), neutralized (Neutralize Formulas) and quoted. */
	private cell(value: unknown, out: Utf8Builder): void {
		if (typeof value === 'string') {
			if (value === '') return;
			const first = value.charCodeAt(0);
			if (first < 0x80 && FORMULA_FIRST[first] === 1 && out.appendPlain(value, PLAIN_ASCII)) return;
		} else if (typeof value === 'number') {
			// A finite number's text is a plain number (never neutralized) with nothing to quote.
			if (Number.isFinite(value) && out.appendPlain(String(value))) return;
		} else if (value === undefined || value === null) return;
		const { delimiter = ',', neutralizeFormulas } = this.options;
		const text = cellText(value);
		out.append(quote(neutralizeFormulas ? neutralize(text, delimiter) : text, delimiter));
	}
}
