/**
 * Reads an .xlsx for the tests of Output › Excel File with exceljs (an independent, well-kept
 * reader; not the node's writer): each sheet's name, frozen rows, and rows of typed values (a
 * number stays a number, a boolean a boolean, a text a string; an empty cell is undefined), the
 * number format of each cell, and every formula found (there must be none).
 *
 * exceljs reads inline strings without undoing OOXML's `_xHHHH_` escape (ECMA-376 Part 1, 22.9.2.19
 * ST_Xstring: how a text holds characters XML cannot, as Excel itself writes them): done here.
 */
import ExcelJS from 'exceljs';

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
	return sheets;
}
