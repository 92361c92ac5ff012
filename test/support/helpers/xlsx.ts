/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Reads an .xlsx for the tests of Output › Excel File with exceljs (an independent, well-kept
 * reader; not the node's writer): each sheet's name, frozen rows, and rows of typed values (a
 * number stays a number, a boolean a boolean, a text a string; an empty cell is undefined), the
 * number format of each cell, and every formula found (there must be none).
 *
 * exceljs reads inline strings without undoing OOXML's `_xHHHH_` escape (ECMA-376 Part 1, 22.9.2.19
 * ST_Xstring: how a text holds characters XML cannot, as Excel itself writes them): done here.
 *
 * Every workbook is also read by exceljs's streaming reader (WorkbookReader, readXlsxStreaming),
 * which needs each cell's reference (`r="B7"`), and must find the same sheets, rows and values.
 */
import { Readable } from 'node:stream';

import ExcelJS from 'exceljs';
import type { IDataObject } from 'n8n-workflow';

import { Utf8Builder } from '../../../nodes/SalesPayments/files/utf8';
import type { XlsxWriter } from '../../../nodes/SalesPayments/files/xlsx';

export interface SheetRead {
	name: string;
	frozenRows: number;
	rows: unknown[][];
	numFmts: Array<Array<string | undefined>>;
	formulas: string[];
}

/**
 * A typed cell as the CSV of the same list writes it with Dates › Date and Time in the Workflow's
 * Time Zone: a date cell (exceljs gives a Date holding the wall time as if it were UTC) as
 * `yyyy-mm-dd hh:mm:ss`, a number or boolean as JSON writes it, nothing as ''.
 */
export function asCsvText(value: unknown): string {
	if (value === undefined) return '';
	if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ');
	return typeof value === 'string' ? value : String(value);
}

export function unescapeXstring(text: string): string {
	return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** How streamingDifference marks a reader that got stuck. */
const STALLED = 'stalled: ';

export async function readXlsx(file: Buffer): Promise<SheetRead[]> {
	const workbook = new ExcelJS.Workbook();
	await workbook.xlsx.load(file as unknown as ArrayBuffer);
	const sheets: SheetRead[] = [];
	workbook.eachSheet((sheet) => {
		const view = sheet.views[0] as { state?: string; ySplit?: number } | undefined;
		const read: SheetRead = { name: sheet.name, frozenRows: view?.state === 'frozen' ? (view.ySplit ?? 0) : 0, rows: [], numFmts: [], formulas: [] };
		const width = sheet.columnCount;
		for (let r = 1; r <= sheet.rowCount; r++) {
			const row = sheet.getRow(r);
			const values: unknown[] = [];
			const formats: Array<string | undefined> = [];
			for (let c = 1; c <= width; c++) {
				const cell = row.getCell(c);
				if (cell.type === ExcelJS.ValueType.Formula || cell.formula) read.formulas.push(`${cell.address}: ${String(cell.formula)}`);
				const value = cell.value;
				values.push(value === null ? undefined : typeof value === 'string' ? unescapeXstring(value) : value);
				formats.push(cell.numFmt);
			}
			read.rows.push(values);
			read.numFmts.push(formats);
		}
		sheets.push(read);
	});
	// Read again, at most 5 times, while it differs: exceljs 4.4's streaming reader loses the last
	// entries of an archive now and then (its issue 3064, a race; measured: 8 in 100 reads of a workbook
	// of four sheets of three rows, none of larger ones). A fault of the file differs every time.
	let difference = '';
	for (let attempt = 0; attempt < 5; attempt++) {
		// A reader stuck on the file is no race: at once.
		difference = await streamingDifference(file, sheets);
		if (difference.startsWith(STALLED)) throw new Error(difference);
		if (difference === '') return sheets;
	}
	throw new Error(`exceljs's streaming reader reads the workbook differently, 5 times: ${difference}`);
}

/** How exceljs's streaming reader reads `file` otherwise than its whole-file reader did ('' for nothing). */
async function streamingDifference(file: Buffer, sheets: SheetRead[]): Promise<string> {
	let streamedSheets;
	try {
		streamedSheets = await readXlsxStreaming(file);
	} catch (error) {
		return error instanceof StreamingStalled ? `${STALLED}${error.message}` : `it threw ${(error as Error).message}`;
	}
	// Two faults of exceljs 4.4's streaming reader, not of the file: it decodes each inflated chunk on its
	// own (lib/utils/parse-sax.js), so a character whose UTF-8 bytes two chunks share reads as U+FFFD
	// (then texts are compared by their ASCII), and it decodes an inline string's entities a second
	// time (worksheet-reader.js: xmlDecode after the XML parser), so a text `&amp;` reads as `&`.
	const split = streamedSheets.some(({ rows }) => rows.some((row) => row.some((v) => typeof v === 'string' && v.includes('\uFFFD'))));
	// A third: a sheet it meets before the workbook's parts (xl/workbook.xml names the sheets, and is
	// written after them: their number is known at the end) goes to a temp file, and the entries after
	// it are then lost, depending on the file system's timing (its issue 3064: always with TMPDIR in a
	// folder of its own, as npm test runs, one read in ten in /tmp). It then names the sheets Sheet1,
	// Sheet2...: the names are the whole-file reader's to check (and LibreOffice's); the rows stay this one's.
	const namesLost = streamedSheets.length === sheets.length && streamedSheets.some((s, n) => s.name !== sheets[n].name) && streamedSheets.every((s, n) => s.name === `Sheet${n + 1}`);
	const streamed = comparable(namesLost ? streamedSheets.map((s, n) => ({ ...s, name: sheets[n].name })) : streamedSheets, split);
	const whole = comparable(sheets, split, decodedAgain);
	if (streamed === whole) return '';
	let at = 0;
	while (streamed[at] === whole[at]) at++;
	const around = (text: string) => text.slice(Math.max(0, at - 150), at + 150);
	return `at ${at}:\n${around(streamed)}\nwhole:\n${around(whole)}`;
}

/** Sheets' names and rows as one text, rows without their trailing empty cells, dates marked. */
function comparable(sheets: Array<{ name: string; rows: unknown[][] }>, asciiOnly: boolean, decode = (text: string) => text): string {
	const text = (value: string) => (asciiOnly ? decode(value).replace(/[^\x20-\x7e]/g, '') : decode(value));
	const trimmed = (row: unknown[]) => {
		let end = row.length;
		while (end > 0 && row[end - 1] === undefined) end--;
		return row.slice(0, end).map((value) => (value instanceof Date ? `date ${value.toISOString()}` : value === undefined ? '(empty)' : typeof value === 'string' ? text(value) : value));
	};
	return JSON.stringify(sheets.map(({ name, rows }) => {
		const all = rows.map(trimmed);
		while (all.length > 0 && all.at(-1)!.length === 0) all.pop();
		return [name, all];
	}));
}

/** What exceljs's streaming reader makes of a text by decoding its entities a second time (its utils.xmlDecode). */
function decodedAgain(text: string): string {
	const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&apos;': "'", '&quot;': '"' };
	return text.replace(/&([a-z]*);/g, (entity) => entities[entity] ?? entity);
}

/** A read that stopped: exceljs's streaming reader gave no row, no sheet and no end for `stallMs`. */
export class StreamingStalled extends Error {}

/**
 * The sheets as exceljs's streaming reader (WorkbookReader) reads them, row by row: what an
 * import of a large workbook uses. Each row's values from column A (an empty cell undefined, the
 * row as wide as its last value); texts with `_xHHHH_` read as readXlsx does.
 *
 * Bounded: a reader that gives nothing for `stallMs` (no row, no sheet, no end) is stuck, not slow
 * (its unzipper, cutting an entry of unknown size at a data descriptor's signature inside the
 * compressed data, waits for bytes that never come): StreamingStalled, naming where it stopped.
 */
export async function readXlsxStreaming(file: Buffer, stallMs = 60_000): Promise<Array<{ name: string; rows: unknown[][] }>> {
	// In chunks of 64 KiB, as a file is read.
	const chunks = Array.from({ length: Math.ceil(file.length / 65_536) }, (_, n) => file.subarray(n * 65_536, (n + 1) * 65_536));
	const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(chunks), { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
	const sheets: Array<{ name: string; rows: unknown[][] }> = [];
	let rows: unknown[][] = [];
	let progress = performance.now();
	const read = (async () => {
		for await (const worksheet of reader) {
			progress = performance.now();
			rows = [];
			for await (const row of worksheet) {
				progress = performance.now();
				// Rows without cells are not given: their place is kept by their number.
				while (rows.length < row.number - 1) rows.push([]);
				const values = Array.from(row.values as unknown[]).slice(1).map((value) => (value === null ? undefined : typeof value === 'string' ? unescapeXstring(value) : value));
				rows.push(values);
			}
			sheets.push({ name: (worksheet as unknown as { name: string }).name, rows });
		}
		return sheets;
	})();
	let timer: NodeJS.Timeout | undefined;
	const stalled = new Promise<never>((_, reject) => {
		timer = setInterval(() => {
			if (performance.now() - progress < stallMs) return;
			reject(new StreamingStalled(`exceljs's streaming reader stopped: nothing for ${stallMs} ms after ${sheets.length} whole sheet(s) and ${rows.length} row(s) of the next`));
		}, Math.min(1000, stallMs / 4));
	});
	try {
		return await Promise.race([read, stalled]);
	} finally {
		clearInterval(timer);
	}
}

/** The workbook `writer` makes of `pages`, its bytes as the node gives them out page by page. */
export async function xlsxOfPages(writer: XlsxWriter, pages: IDataObject[][]): Promise<Buffer> {
	const out = new Utf8Builder();
	const chunks: Buffer[] = [];
	for (const page of pages) {
		await writer.page(page, out);
		chunks.push(Buffer.from(out.take()));
	}
	await writer.finish(out);
	chunks.push(out.take());
	return Buffer.concat(chunks);
}
