import type { IDataObject } from 'n8n-workflow';

import type { DateCells } from './cellDates';
import { isDateField } from './cellDates';
import { isPlainObject } from '../transport/records';

/**
 * The sheet's column widths (Excel's `<cols>`, docs/exports.md "Excel (.xlsx)"), from the header and
 * the first page's values, in characters of the default font. A date-time cell needs 19 characters
 * (yyyy-mm-dd hh:mm:ss) and a number may be larger on a later page: Excel and LibreOffice draw `###`
 * for a date or number wider than its column, so dates get their full width and numbers room for
 * 14 characters at least (99,999,999,999.99). Texts get their length, at most TEXT_MAX: a longer
 * text wraps into the next cells or is cut where that cell is filled, as in any sheet.
 */

/** Widest a column gets from its texts (characters). */
export const TEXT_MAX = 50;
/** Room every number column keeps for larger values on later pages (characters). */
export const NUMBER_MIN = 14;
const DATE_TIME = 19;
const DAY = 10;
/** The space Excel keeps on both sides of a cell's content, in characters. */
const PADDING = 2;
/** A column no narrower than Excel's default. */
const MIN_WIDTH = 8;
/** Bold header letters are wider. */
const BOLD = 1.15;
/** Records of the first page read for the widths: enough to see each column's usual values. */
const SAMPLE = 1000;

export interface WidthContext {
	header: string[];
	/** The field of each column (a dot path); the `_extraFields` column has none. */
	fields: string[];
	headerRow: boolean;
	/** Per column: shown with two decimals (Add Decimal Amounts). */
	decimal: boolean[];
	dates?: DateCells;
}

function valueAt(record: IDataObject, path: string): unknown {
	if (path in record) return record[path];
	let value: unknown = record;
	for (const key of path.split('.')) value = isPlainObject(value) ? value[key] : undefined;
	return value;
}

/** Characters a value needs in column `k`. */
function widthOf(value: unknown, k: number, context: WidthContext): number {
	if (value === undefined || value === null || value === '') return 0;
	if (typeof value === 'boolean') return 5;
	if (typeof value === 'number') {
		const shown = context.decimal[k] ? value.toFixed(2) : String(value);
		return Math.max(NUMBER_MIN, shown.length);
	}
	if (typeof value === 'string') {
		const { dates } = context;
		if (dates !== undefined && value.charCodeAt(4) === 0x2d && !Number.isNaN(dates.wallSeconds(value, isDateField(context.fields[k] ?? '')))) {
			return dates.dayOnly ? DAY : DATE_TIME;
		}
		return Math.min(TEXT_MAX, [...value].length);
	}
	return Math.min(TEXT_MAX, JSON.stringify(value)?.length ?? 0);
}

/** Each column's width in characters, padding included. */
export function columnWidths(records: IDataObject[], context: WidthContext): number[] {
	const widths = context.header.map((name) => (context.headerRow ? Math.ceil([...name].length * BOLD) : 0));
	for (const record of records.slice(0, SAMPLE)) {
		for (let k = 0; k < widths.length; k++) {
			const field = context.fields[k];
			// The `_extraFields` column (JSON of several fields, mostly empty): as wide as its name.
			const width = field === undefined ? 0 : widthOf(valueAt(record, field), k, context);
			if (width > widths[k]) widths[k] = width;
		}
	}
	return widths.map((w) => Math.min(255, Math.max(MIN_WIDTH, w + PADDING)));
}

/** The `<cols>` element of those widths (none for a sheet without columns). */
export function colsXml(widths: number[]): string {
	if (widths.length === 0) return '';
	return `<cols>${widths.map((w, k) => `<col min="${k + 1}" max="${k + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`;
}
