import type { IDataObject } from 'n8n-workflow';

import type { DateCells } from './cellDates';
import { isDateField } from './cellDates';
import type { ChosenColumn } from './table';
import { TableLayout } from './table';
import { Utf8Builder } from './utf8';
import { columnLetters, PLAIN_ASCII, xmlText } from './xlsxText';
import { NS, sheetNameOf, STYLE_DATE_TIME, STYLE_DAY, STYLE_DECIMAL, STYLE_HEADER, workbookParts, XML_DECLARATION } from './xlsxParts';
import { colsXml, columnWidths } from './xlsxWidths';
import type { TooLargePart } from './zip';
import { ZipWriter } from './zip';
import { COPY_BELOW } from './deflate';

/**
 * Output › Excel File (docs/exports.md, "Excel (.xlsx)"): a workbook written page by page in a
 * ZIP whose entries are compressed as they are written (zip.ts), with the CSV's columns. Cells keep
 * their type and their reference (`r="B7"`); texts are inline strings, never formulas, so nothing
 * gets a `'`. Past 1,048,576 rows a new sheet starts, repeating the header.
 */

export const XLSX_MAX_ROWS = 1_048_576;
/** Excel's most columns (A to XFD). */
export const XLSX_MAX_COLUMNS = 16_384;
/** Excel's most characters in a cell; a longer text is cut (the summary counts them). */
export const XLSX_MAX_TEXT = 32_767;
/** Cells the summary names (record id and field), for texts cut and texts with characters replaced. */
const MAX_NAMED = 5;
/**
 * The sheet's XML goes to the compressor in slices of at least this size: zlib compresses one (into
 * less than its 16 KiB output buffer) in its thread while the next is written. A whole page (600 KB)
 * needs the main thread back every 16 KiB of output, so zlib would mostly wait for the page's end.
 * Not less than deflate.ts COPY_BELOW: a slice is handed over without a copy.
 */
const SLICE_BYTES = COPY_BELOW;

export interface XlsxOptions {
	sheetName: string;
	headerRow: boolean;
	/** Mark the decimal amounts (Add Decimal Amounts) with two decimals. */
	decimalAmounts: boolean;
	/** Dates as date-time cells in this reader's time zone; unset: dates stay texts, as the platform wrote them. */
	dates?: DateCells;
	/** File Options › Columns; unset: every field. */
	columns?: ChosenColumn[];
	/** Rows per sheet, header included (tests lower it). */
	maxRows?: number;
	/** Most bytes of the file (tests lower it; default: the ZIP's 4 GiB). */
	maxBytes?: number;
	/** Most compressed bytes of a sheet held to write its sizes first (tests lower it; default: zip.ts HOLD_BYTES). */
	holdBytes?: number;
	/** Throws the caller's error when the file, or a sheet before compression, would pass the ZIP's limit (else ZipTooLarge). */
	tooLarge?: (part: TooLargePart) => never;
	now?: Date;
}

/** A cell the summary names: its record's id (null for the header row) and its column. */
interface NamedCell {
	id: string | number | null;
	field: string;
}

export class XlsxWriter {
	readonly layout: TableLayout;
	private readonly zip: ZipWriter;
	private readonly maxRows: number;
	private readonly sheets: string[] = [];
	/** Row number of the next row in the current sheet (1-based). */
	private rowNumber = 1;
	/** The current sheet's XML not yet given to the ZIP, and the buffer of the page before (the compressor's until the next page is given). */
	private xml = new Utf8Builder();
	private given = new Utf8Builder();
	/** Whether the current sheet's XML went to the ZIP yet. */
	private sheetGiven = false;
	/** The list's size as its pages say (page), if they do. */
	private listSize?: number;
	private letters: string[] = [];
	/** Per column: its style attribute (decimal amounts), else ''. */
	private styles: string[] = [];
	/** Per column: 1 when it is a field the platform dates records by (cellDates.ts). */
	private dateColumns = new Uint8Array(0);
	private header: string[] = [];
	/** The sheets' `<cols>` (xlsxWidths.ts). */
	private cols = '';
	/** The id of the record being written (null: the header row). */
	private recordId: string | number | null = null;
	private cut = 0;
	private readonly cutIn: NamedCell[] = [];
	private readonly replaced = { count: 0 };
	private textsReplaced = 0;
	private readonly replacedIn: NamedCell[] = [];

	constructor(private readonly options: XlsxOptions) {
		this.zip = new ZipWriter({ now: options.now, maxBytes: options.maxBytes, holdBytes: options.holdBytes, tooLarge: options.tooLarge });
		this.maxRows = options.maxRows ?? XLSX_MAX_ROWS;
		this.layout = new TableLayout(XLSX_MAX_COLUMNS, options.columns);
	}

	/**
	 * Writes the next page of records (the sheet, its header first, on the first page) into the
	 * sheet's XML, and the compressed bytes made so far into `out`.
	 */
	async page(records: IDataObject[], out: Utf8Builder, listSize?: number): Promise<void> {
		this.listSize = listSize;
		if (!this.layout.isStarted) {
			this.start(this.layout.start(records), records);
			this.openSheet(out);
		}
		for (const record of records) {
			if (this.rowNumber > this.maxRows) {
				await this.closeSheet(out);
				this.openSheet(out);
			}
			const id = record.id;
			this.recordId = typeof id === 'string' || typeof id === 'number' ? id : null;
			this.row(this.layout.row(record), '');
			if (this.xml.size >= SLICE_BYTES) await this.count(out);
		}
		await this.count(out);
	}

	/** The end of the file: the last sheet's end, the workbook's parts, the ZIP's directory. */
	async finish(out: Utf8Builder): Promise<void> {
		if (!this.layout.isStarted) {
			// An empty list: one empty sheet (a header only for chosen columns: else they come from the first page).
			this.start(this.layout.start([]), []);
			this.openSheet(out, this.options.headerRow && this.options.columns !== undefined);
		}
		await this.closeSheet(out);
		for (const [name, xml] of workbookParts(this.sheets)) await this.zip.entry(name, XML_DECLARATION + xml, out);
		this.zip.finish(out);
	}

	/** Stops writing (the export failed): the compressor of the sheet being written is freed. */
	abort(): void {
		this.zip.abort();
	}

	summary(): IDataObject {
		return {
			...this.layout.summary(),
			sheets: [...this.sheets],
			...(this.cut > 0 ? { textsCut: this.cut, textsCutIn: this.cutIn } : {}),
			...(this.textsReplaced > 0 ? { textsWithReplacedCharacters: this.textsReplaced, textsWithReplacedCharactersIn: this.replacedIn } : {}),
			...this.readersNote(),
		};
	}

	/**
	 * When a streamed sheet's compressed bytes hold a data descriptor's signature (zip.ts), which
	 * readers cannot read the file and which do (docs/exports.md, "Which readers read it").
	 */
	private readersNote(): IDataObject {
		const sheets = this.zip.signatureIn.map((entry) => {
			const n = Number(/^xl\/worksheets\/sheet(\d+)\.xml$/.exec(entry)?.[1]);
			return this.sheets[n - 1] ?? entry;
		});
		if (sheets.length === 0) return {};
		return {
			streamingReadersNote:
				`Streaming ZIP readers that end a part at the first data-descriptor signature they meet (exceljs's WorkbookReader) cannot read this file: ` +
				`the compressed data of ${sheets.map((name) => `the sheet ${JSON.stringify(name)}`).join(' and ')} happens to hold those 4 bytes. ` +
				`Readers that use the ZIP's central directory read it: LibreOffice, n8n's Extract From File and exceljs's whole-file reader were checked.`,
		};
	}

	/** The columns' letters, styles and widths, from the header, the fields and the first page. */
	private start(header: string[], firstPage: IDataObject[]): void {
		const fields = this.layout.fields;
		this.header = header;
		this.letters = header.map((_, n) => columnLetters(n));
		this.dateColumns = Uint8Array.from(fields, (name) => (isDateField(name) ? 1 : 0));
		const names = this.layout.firstPageFields;
		const decimals = new Set<string>();
		if (this.options.decimalAmounts) {
			for (const name of names) {
				const base = /^(.+)InCents$/.exec(name)?.[1];
				// Add Decimal Amounts puts `value` next to `valueInCents`, or `valueDecimal` when the record has a `value` already.
				if (base !== undefined) decimals.add(names.has(`${base}Decimal`) ? `${base}Decimal` : base);
			}
		}
		this.styles = header.map((_, k) => (decimals.has(fields[k]) ? ` s="${STYLE_DECIMAL}"` : ''));
		const { headerRow, dates } = this.options;
		this.cols = colsXml(columnWidths(firstPage, { header, fields, headerRow, dates, decimal: this.styles.map((style) => style !== '') }));
	}

	private openSheet(out: Utf8Builder, header = this.options.headerRow): void {
		const n = this.sheets.length + 1;
		this.sheets.push(n === 1 ? this.options.sheetName : sheetNameOf(this.options.sheetName, n, this.sheets));
		this.zip.begin(`xl/worksheets/sheet${n}.xml`);
		this.sheetGiven = false;
		this.xml.append(`${XML_DECLARATION}<worksheet xmlns="${NS}">${this.sheetHead(n, header)}<sheetData>`);
		this.rowNumber = 1;
		this.recordId = null;
		if (header) this.row(this.header, HEADER_STYLE);
	}

	/**
	 * What comes before the rows of sheet `n`, in CT_Worksheet's order (ECMA-376 18.3.1.99): the
	 * view, with the header row frozen, then the column widths (`<cols>`, xlsxWidths.ts), right before `<sheetData>`.
	 */
	private sheetHead(n: number, header: boolean): string {
		const frozen = header ? '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/>' : '';
		return `<sheetViews><sheetView${n === 1 ? ' tabSelected="1"' : ''} workbookViewId="0">${frozen}</sheetView></sheetViews>${this.cols}`;
	}

	private async closeSheet(out: Utf8Builder): Promise<void> {
		this.xml.append('</sheetData></worksheet>');
		await this.count(out);
		await this.zip.end(out);
	}

	/**
	 * Gives the sheet's XML written so far to the ZIP (which throws past its limit before giving out
	 * any of it). The compressor reads it while the next page is written into the other buffer; by the
	 * time this one is written again, the compressor has read it (deflate.ts). With nothing written
	 * since, nothing changes hands: the other buffer may still be the compressor's.
	 */
	private async count(out: Utf8Builder): Promise<void> {
		if (this.xml.size === 0) return;
		if (!this.sheetGiven && this.listSize !== undefined) {
			// The sheet's size foreseen from its first rows: a large one streams from its start (zip.ts).
			const rows = Math.max(1, this.rowNumber - 1);
			this.zip.expect((this.xml.size / rows) * Math.min(this.listSize, this.maxRows));
		}
		this.sheetGiven = true;
		const bytes = this.xml.take(true);
		[this.xml, this.given] = [this.given, this.xml];
		await this.zip.data(bytes, out);
	}

	/**
	 * One `<row>`, written piece by piece, each cell with its reference (`r="B7"`): optional in
	 * ECMA-376 (18.3.1.4), but streaming readers (exceljs's WorkbookReader) need it, and compressed
	 * it costs a few percent of the file.
	 */
	private row(cells: unknown[], style: string): void {
		const xml = this.xml;
		const dates = style === '' ? this.options.dates : undefined;
		const r = String(this.rowNumber++);
		xml.appendShort(ROW_OPEN);
		xml.appendPlain(r);
		xml.appendShort(QUOTE_CLOSE);
		for (let k = 0; k < cells.length; k++) {
			const value = cells[k];
			if (value === undefined || value === null || value === '') continue;
			xml.appendShort(CELL_REFERENCE);
			xml.appendPlain(this.letters[k]);
			xml.appendPlain(r);
			xml.appendShort(QUOTE);
			if (typeof value === 'number') {
				// Infinity and NaN are no xsd:double: written as the CSV's text.
				if (Number.isFinite(value)) this.numberCell(String(value), style || this.styles[k]);
				else this.textCell(style, String(value), k);
			} else if (typeof value === 'boolean') {
				xml.appendPlain(style);
				xml.appendShort(value ? BOOLEAN_TRUE : BOOLEAN_FALSE);
			} else if (typeof value === 'string') {
				// A date (a quick look at its fifth character first: most texts are none).
				const wall = dates !== undefined && value.charCodeAt(4) === 0x2d ? dates.wallSeconds(value, this.dateColumns[k] === 1) : Number.NaN;
				if (Number.isNaN(wall)) this.textCell(style, value, k);
				else {
					xml.appendPlain(dates!.dayOnly ? DAY_STYLE : DATE_TIME_STYLE);
					xml.appendShort(VALUE_OPEN);
					dates!.writeSerial(wall, xml);
					xml.appendShort(VALUE_CLOSE);
				}
			} else this.textCell(style, JSON.stringify(value), k);
		}
		xml.appendShort(ROW_CLOSE);
	}

	/** The rest of a number cell holding `text`, after its `<c r="..."`. */
	private numberCell(text: string, cellStyle: string): void {
		const xml = this.xml;
		xml.appendPlain(cellStyle);
		xml.appendShort(VALUE_OPEN);
		xml.appendPlain(text);
		xml.appendShort(VALUE_CLOSE);
	}

	/** The rest of a text cell of column `k`, after its `<c r="..."`. */
	private textCell(style: string, text: string, k: number): void {
		if (text.length > XLSX_MAX_TEXT) {
			this.cut++;
			this.name(this.cutIn, k);
			// Not in the middle of a surrogate pair.
			const end = text.charCodeAt(XLSX_MAX_TEXT - 1) >= 0xd800 && text.charCodeAt(XLSX_MAX_TEXT - 1) <= 0xdbff ? XLSX_MAX_TEXT - 1 : XLSX_MAX_TEXT;
			text = text.slice(0, end);
		}
		const xml = this.xml;
		const preserve = text.charCodeAt(0) <= 0x20 || text.charCodeAt(text.length - 1) <= 0x20;
		xml.appendPlain(style);
		xml.appendShort(preserve ? TEXT_OPEN_PRESERVE : TEXT_OPEN);
		// Most texts are ASCII that needs no escape: copied as they are; else escaped and encoded.
		if (!xml.appendPlain(text, PLAIN_ASCII)) {
			const before = this.replaced.count;
			xml.append(xmlText(text, this.replaced));
			if (this.replaced.count !== before) {
				this.textsReplaced++;
				this.name(this.replacedIn, k);
			}
		}
		xml.appendShort(TEXT_CLOSE);
	}

	/** Names the cell of column `k` of the row being written, among the first few. */
	private name(list: NamedCell[], k: number): void {
		if (list.length < MAX_NAMED) list.push({ id: this.recordId, field: this.layout.fields[k] ?? this.header[k] });
	}
}

/** The markup of rows and cells, as bytes (Utf8Builder.appendShort). */
const ascii = (text: string) => Buffer.from(text, 'latin1');
const HEADER_STYLE = ` s="${STYLE_HEADER}"`;
const DATE_TIME_STYLE = ` s="${STYLE_DATE_TIME}"`;
const DAY_STYLE = ` s="${STYLE_DAY}"`;
const ROW_OPEN = ascii('<row r="');
const ROW_CLOSE = ascii('</row>');
const QUOTE = ascii('"');
const QUOTE_CLOSE = ascii('">');
const CELL_REFERENCE = ascii('<c r="');
const VALUE_OPEN = ascii('><v>');
const VALUE_CLOSE = ascii('</v></c>');
const BOOLEAN_TRUE = ascii(' t="b"><v>1</v></c>');
const BOOLEAN_FALSE = ascii(' t="b"><v>0</v></c>');
const TEXT_OPEN = ascii(' t="inlineStr"><is><t>');
const TEXT_OPEN_PRESERVE = ascii(' t="inlineStr"><is><t xml:space="preserve">');
const TEXT_CLOSE = ascii('</t></is></c>');
