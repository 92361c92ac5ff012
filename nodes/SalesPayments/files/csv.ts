import type { IDataObject } from 'n8n-workflow';

import type { DateCells } from './cellDates';
import { isDateField } from './cellDates';
import type { ChosenColumn } from './table';
import { cellText, TableLayout } from './table';
import type { Utf8Builder } from './utf8';
import { asciiExcept } from './utf8';

/**
 * Output › CSV File, page by page, with the columns of table.ts: RFC 4180 with the chosen
 * delimiter, CRLF, UTF-8 (docs/exports.md, "CSV"). Numbers never get a thousands separator.
 */

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
	/** Numbers with a decimal comma (`12,5`) instead of a point; texts are never changed. Default off. */
	decimalComma?: boolean;
	/** Dates as `yyyy-mm-dd hh:mm:ss` wall times of this reader's zone; unset: as the platform wrote them. */
	dates?: DateCells;
	/** File Options › Columns; unset: every field. */
	columns?: ChosenColumn[];
}

export function isPlainNumber(text: string): boolean {
	return PLAIN_NUMBER.test(text);
}

/**
 * A text a spreadsheet would run as a formula, with a `'` before the formula character. Also after
 * another locale's delimiter and after a line break: a comma file opened in a `;` locale (Excel in
 * Brazil) is split on `;` inside quotes too, and a quoted line break ends its row there, so
 * `x;=1+2` becomes `x;'=1+2` and `Obrigado!\n=1+2` becomes `Obrigado!\n'=1+2`. Plain numbers are
 * left as they are.
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
	let copied = 0;
	for (let k = 0; k < text.length; k++) {
		if (!isOtherDelimiter(text.charCodeAt(k), own)) continue;
		// After another locale's delimiter, that reader's field may start with spaces or a quote.
		let j = k + 1;
		while (text[j] === ' ' || text[j] === '"') j++;
		if (j >= text.length || !FORMULA_START.has(text.charCodeAt(j))) continue;
		let end = j + 1;
		while (end < text.length && !isOtherDelimiter(text.charCodeAt(end), own)) end++;
		if (isPlainNumber(text.slice(j, end))) continue;
		out += `${text.slice(copied, j)}'`;
		copied = j;
	}
	return out + text.slice(copied);
}

/** For each file delimiter, where another reader's cell may start: the other locales' delimiters (`,` `;` tab) and line breaks. */
const OTHER_DELIMITERS: Record<Delimiter, RegExp> = { ',': /[;\t\r\n]/, ';': /[,\t\r\n]/, '\t': /[,;\r\n]/ };

/**
 * `,` `;` or tab when it is not the file's own delimiter (which quoting protects), or a line break:
 * a reader that splits on another delimiter ignores the quotes, so a quoted line break ends its row.
 */
function isOtherDelimiter(c: number, own: number): boolean {
	return ((c === 0x2c || c === 0x3b || c === 0x09) && c !== own) || c === 0x0a || c === 0x0d;
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

/**
 * ASCII that needs neither quoting nor neutralizing under any delimiter (no `"`, CR, LF, `,` `;` tab,
 * no formula start first): most cells (ids, dates, names) are copied as they are, skipping both.
 */
const PLAIN_ASCII = asciiExcept('"\r\n,;\t');
const FORMULA_FIRST = asciiExcept('');
for (const c of FORMULA_START) FORMULA_FIRST[c] = 0;
const DELIMITER_BYTES: Record<Delimiter, Uint8Array> = { ',': Buffer.from(','), ';': Buffer.from(';'), '\t': Buffer.from('\t') };
/** A number's text needs quoting only when it holds the delimiter (a decimal comma in a comma file). */
const NUMBER_PLAIN: Record<Delimiter, Uint8Array> = { ',': asciiExcept(','), ';': asciiExcept(';'), '\t': asciiExcept('\t') };
const LINE_END = Buffer.from('\r\n');

export class CsvWriter {
	readonly layout: TableLayout;
	/** Per column: 1 when it is a field the platform dates records by (cellDates.ts). */
	private dateColumns = new Uint8Array(0);

	constructor(private readonly options: CsvOptions) {
		this.layout = new TableLayout(Infinity, options.columns);
	}

	/** Writes the next page of records: the header line first, on the first page (Header Row). */
	page(records: IDataObject[], out: Utf8Builder): void {
		if (!this.layout.isStarted) {
			const header = this.layout.start(records);
			this.dateColumns = Uint8Array.from(this.layout.fields, (name) => (isDateField(name) ? 1 : 0));
			if (this.options.headerRow !== false) this.line(header, out, undefined);
		}
		for (const record of records) this.line(this.layout.row(record), out, this.options.dates);
	}

	/** The end of the file: an empty list with chosen columns still gets its header line. */
	finish(out: Utf8Builder): void {
		if (!this.layout.isStarted && this.options.columns) this.page([], out);
	}

	summary(): IDataObject {
		return this.layout.summary();
	}

	/** One line, written cell by cell into `out` (no string made of it); `dates` unset for the header. */
	private line(cells: unknown[], out: Utf8Builder, dates: DateCells | undefined): void {
		const delimiter = DELIMITER_BYTES[this.options.delimiter ?? ','];
		for (let k = 0; k < cells.length; k++) {
			if (k > 0) out.appendShort(delimiter);
			this.cell(cells[k], out, k, dates);
		}
		out.appendShort(LINE_END);
	}

	/** A cell as the file holds it: cellText(), neutralized (Neutralize Formulas) and quoted. */
	private cell(value: unknown, out: Utf8Builder, k: number, dates: DateCells | undefined): void {
		if (typeof value === 'string') {
			if (value === '') return;
			if (dates !== undefined && value.charCodeAt(4) === 0x2d) {
				const wall = dates.wallSeconds(value, this.dateColumns[k] === 1);
				if (!Number.isNaN(wall)) {
					dates.writeText(wall, dates.dayOnly, out);
					return;
				}
			}
			const first = value.charCodeAt(0);
			if (first < 0x80 && FORMULA_FIRST[first] === 1 && out.appendPlain(value, PLAIN_ASCII)) return;
		} else if (typeof value === 'number') {
			// A finite number's text is a plain number (never neutralized), quoted only when its decimal comma is the delimiter.
			if (Number.isFinite(value)) {
				const text = this.options.decimalComma ? String(value).replace('.', ',') : String(value);
				const delimiter = this.options.delimiter ?? ',';
				if (!out.appendPlain(text, NUMBER_PLAIN[delimiter])) out.append(quote(text, delimiter));
				return;
			}
		} else if (value === undefined || value === null) return;
		const { delimiter = ',', neutralizeFormulas } = this.options;
		const text = cellText(value);
		out.append(quote(neutralizeFormulas ? neutralize(text, delimiter) : text, delimiter));
	}
}
