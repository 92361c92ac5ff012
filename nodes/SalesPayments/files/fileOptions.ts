import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DateCells } from './cellDates';
import type { Delimiter } from './csv';
import { DELIMITERS } from './csv';
import { isTimeZone } from '../fields/dates';
import { checkBoolean, checkOneOf } from '../fields/validation';
import { fieldError } from '../transport/errors';
import { isPlainObject } from '../transport/records';
import type { ChosenColumn } from './table';
import type { FileOutput } from './fileNames';
import { FILE_OUTPUTS, nameFile } from './fileNames';
import { XLSX_MAX_COLUMNS } from './xlsx';
import { sheetNameProblem } from './xlsxParts';

/**
 * The fields of the file outputs (Put Output File in Field, File Options) and their settings read
 * for one item, checked before any request. Names and meanings follow n8n's Convert to File where
 * they mean the same (Delimiter, Header Row, Sheet Name, File Name).
 */


/** The outputs written as a table (columns, header row): CSV and Excel. */
const TABLE_OUTPUTS: FileOutput[] = ['csvFile', 'xlsxFile'];

const DECIMAL_SEPARATORS = ['auto', 'point', 'comma'] as const;
const EXCEL_DATES = ['dateCells', 'isoText'] as const;
const CSV_DATES = ['isoText', 'workflowZoneText'] as const;
export const FILE_ORDERS = ['asListed', 'oldestFirst'] as const;

export const fileOutputFields: INodeProperties[] = [
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the output binary field to put the file in',
		displayOptions: { show: { output: [...FILE_OUTPUTS] } },
	},
	{
		displayName: 'File Options',
		name: 'fileOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { output: [...FILE_OUTPUTS] } },
		options: [
			{
				displayName: 'Add Byte Order Mark (BOM)',
				name: 'bom',
				type: 'boolean',
				default: false,
				description: 'Whether to start the file with a UTF-8 byte order mark, so that Excel reads accents and other non-ASCII letters right',
				displayOptions: { show: { '/output': ['csvFile'] } },
			},
			{
				displayName: 'Columns',
				name: 'columns',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true, sortable: true },
				placeholder: 'Add Column',
				default: {},
				description:
					'The columns of the file, in this order, each under its own name if you give one. None: every field of the records (the default), fields that only later records have in a last _extraFields column.',
				displayOptions: { show: { '/output': [...TABLE_OUTPUTS] } },
				options: [
					{
						displayName: 'Column',
						name: 'column',
						values: [
							{
								displayName: 'Field',
								name: 'field',
								type: 'resourceLocator',
								default: { mode: 'list', value: '' },
								description: 'The field of the records this column holds; a field inside another is a dot path, e.g. customer.email',
								modes: [
									{
										displayName: 'From List',
										name: 'list',
										type: 'list',
										placeholder: 'Select a field...',
										typeOptions: { searchListMethod: 'searchFileColumns', searchable: true },
									},
									{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. customer.email' },
								],
							},
							{
								displayName: 'Header Name',
								name: 'header',
								type: 'string',
								default: '',
								placeholder: 'e.g. Amount',
								description: "The column's name in the header row. Empty: the field's.",
							},
						],
					},
				],
			},
			{
				displayName: 'Dates',
				name: 'csvDates',
				type: 'options',
				options: [
					{ name: 'ISO Text (UTC)', value: 'isoText', description: 'As the platform writes them, e.g. 2025-07-01T02:30:00.000Z' },
					{
						name: "Date and Time in the Workflow's Time Zone",
						value: 'workflowZoneText',
						description: 'For example 2025-06-30 23:30:00 in America/Sao_Paulo: what spreadsheets read as a date and time, to the second',
					},
				],
				default: 'isoText',
				description: "How dates are written (the platform's timestamps, e.g. createdAt; texts that are not dates never change)",
				displayOptions: { show: { '/output': ['csvFile'] } },
			},
			{
				displayName: 'Dates',
				name: 'excelDates',
				type: 'options',
				options: [
					{
						name: 'Excel Dates',
						value: 'dateCells',
						description: "Date-time cells shown as yyyy-mm-dd hh:mm:ss, the time in the workflow's time zone, to the second: they sort, filter and pivot by day and month",
					},
					{ name: 'ISO Text (UTC)', value: 'isoText', description: 'Texts as the platform writes them, e.g. 2025-07-01T02:30:00.000Z' },
				],
				default: 'dateCells',
				description: "How dates are written (the platform's timestamps, e.g. createdAt; texts that are not dates never change)",
				displayOptions: { show: { '/output': ['xlsxFile'] } },
			},
			{
				displayName: 'Decimal Separator',
				name: 'decimalSeparator',
				type: 'options',
				options: [
					{ name: 'Automatic', value: 'auto', description: 'A comma with Delimiter Semicolon, else a point' },
					{ name: 'Comma (12,5)', value: 'comma', description: 'What Excel reads as a number where the decimal separator is a comma (Brazil, most of Europe)' },
					{ name: 'Point (12.5)', value: 'point' },
				],
				default: 'auto',
				description: 'The decimal separator of numbers (never of texts, nor thousands separators)',
				displayOptions: { show: { '/output': ['csvFile'] } },
			},
			{
				displayName: 'Delimiter',
				name: 'delimiter',
				type: 'options',
				options: [
					{ name: 'Comma (,)', value: ',' },
					{ name: 'Semicolon (;)', value: ';', description: 'What Excel expects where the decimal separator is a comma (Brazil, most of Europe)' },
					{ name: 'Tab', value: '\t' },
				],
				default: ',',
				description: 'The character between fields',
				displayOptions: { show: { '/output': ['csvFile'] } },
			},
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. movements-2025-06',
				description:
					"Name of the file. It ends in one extension, the output's (.csv, .xlsx or .jsonl): added when missing, put in place of another file type's (a .csv name for an Excel file). Empty, or only an extension: the list's name, e.g. movements.xlsx.",
			},
			{
				displayName: 'Header Row',
				name: 'headerRow',
				type: 'boolean',
				default: true,
				description: 'Whether the first row of the file contains the header names',
				displayOptions: { show: { '/output': [...TABLE_OUTPUTS] } },
			},
			{
				displayName: 'Neutralize Formulas',
				name: 'neutralizeFormulas',
				type: 'boolean',
				default: true,
				description:
					"Whether to put a ' before texts that a spreadsheet would run as a formula (those starting with =, +, -, @, a tab, a carriage return or NUL, also after a , ; tab or line break inside the text). Numbers are never changed.",
				displayOptions: { show: { '/output': ['csvFile'] } },
			},
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				options: [
					{ name: 'As Listed', value: 'asListed', description: "The platform's order (newest first on most lists), read as fast as it answers" },
					{
						name: 'Oldest First',
						value: 'oldestFirst',
						description:
							'By creation date, oldest first: the list is read in date ranges of one page each, about twice the requests, one at a time. Lists without a date filter (businesses, offers, payment links, pixels) refuse it.',
					},
				],
				default: 'asListed',
				description: 'The order of the rows in the file',
			},
			{
				displayName: 'Sheet Name',
				name: 'sheetName',
				type: 'string',
				default: 'Sheet',
				placeholder: 'e.g. Sheet',
				description: 'Name of the sheet to create in the spreadsheet. Past 1,048,575 records the next sheets are named e.g. Sheet (2).',
				displayOptions: { show: { '/output': ['xlsxFile'] } },
			},
		],
	},
];

export interface FileSettings {
	property: string;
	/** The name written, with the output's extension (fileNames.ts), its MIME type, and why it differs from File Name. */
	fileName: string;
	mimeType: string;
	note?: string;
	/** File Name as given. */
	given: string;
	bom: boolean;
	neutralizeFormulas: boolean;
	delimiter: Delimiter;
	decimalComma: boolean;
	headerRow: boolean;
	sheetName: string;
	decimalAmounts: boolean;
	/** Dates as wall times of the workflow's zone (Excel dates, or CSV date-time texts); unset: as the platform wrote them. */
	dates?: DateCells;
	/** File Options › Columns (CSV and Excel); unset: every field. */
	columns?: ChosenColumn[];
	order: (typeof FILE_ORDERS)[number];
}

/** The file settings of item `i`, checked before any request. */
export function readFileSettings(this: IExecuteFunctions, i: number, output: FileOutput): FileSettings {
	const property = this.getNodeParameter('binaryPropertyName', i, 'data');
	if (typeof property !== 'string' || property.trim() === '') {
		fieldError(this, `Put Output File in Field must name the binary field for the file, e.g. data (got ${JSON.stringify(property)})`, i);
	}
	const options = this.getNodeParameter('fileOptions', i, {}) as IDataObject;
	const listName = plural(String(this.getNodeParameter('resource', i)));
	// Empty: the list's name, given the output's extension below (movements.csv).
	const fileName = options.fileName === undefined || options.fileName === '' ? listName : options.fileName;
	const nameProblem = fileNameProblem(fileName);
	if (nameProblem !== undefined) fieldError(this, `File Name must be ${nameProblem} (got ${JSON.stringify(fileName)})`, i);
	const naming = nameFile(fileName as string, output, listName);
	const sheetName = options.sheetName ?? 'Sheet';
	const problem = typeof sheetName === 'string' ? sheetNameProblem(sheetName) : 'a text';
	if (output === 'xlsxFile' && problem !== undefined) fieldError(this, `Sheet Name must be ${problem} (got ${JSON.stringify(sheetName)})`, i);
	const delimiter = readDelimiter.call(this, options.delimiter ?? ',', i);
	const separator = checkOneOf.call(this, options.decimalSeparator ?? 'auto', DECIMAL_SEPARATORS, i, 'Decimal Separator');
	const dates =
		output === 'xlsxFile'
			? checkOneOf.call(this, options.excelDates ?? 'dateCells', EXCEL_DATES, i, 'Dates') === 'dateCells'
			: output === 'csvFile' && checkOneOf.call(this, options.csvDates ?? 'isoText', CSV_DATES, i, 'Dates') === 'workflowZoneText';
	return {
		property,
		...naming,
		given: fileName as string,
		bom: checkBoolean.call(this, options.bom ?? false, i, 'Add Byte Order Mark (BOM)'),
		neutralizeFormulas: checkBoolean.call(this, options.neutralizeFormulas ?? true, i, 'Neutralize Formulas'),
		delimiter,
		decimalComma: separator === 'comma' || (separator === 'auto' && delimiter === ';'),
		headerRow: checkBoolean.call(this, options.headerRow ?? true, i, 'Header Row'),
		sheetName: String(sheetName),
		// Only operations whose records may hold amounts have the field (n8n drops hidden parameters).
		decimalAmounts: this.getNodeParameter('decimalAmounts', i, false) === true,
		dates: dates ? new DateCells(workflowTimeZone(this, i)) : undefined,
		columns: output === 'jsonLinesFile' ? undefined : readColumns(this, options.columns, i, output === 'xlsxFile' ? XLSX_MAX_COLUMNS : Infinity),
		order: checkOneOf.call(this, options.order ?? 'asListed', FILE_ORDERS, i, 'Order') as FileSettings['order'],
	};
}

/**
 * File Options › Columns, checked: each a field (a dot path, trimmed), named once, with its header
 * name; undefined when none is chosen. Two fields that differ only in case or surrounding spaces
 * (`id`, ` id`, `ID`) are refused: one of them is surely a slip, and the file would hold both.
 */
function readColumns(ctx: IExecuteFunctions, value: unknown, i: number, most: number): ChosenColumn[] | undefined {
	const list = isPlainObject(value) ? value.column : undefined;
	if (list === undefined || (Array.isArray(list) && list.length === 0)) return undefined;
	if (!Array.isArray(list)) fieldError(ctx, `Columns must be a list of columns (got ${JSON.stringify(list)})`, i);
	if (list.length > most) fieldError(ctx, `Columns: an Excel sheet holds at most ${most.toLocaleString('en-US')} columns (got ${list.length.toLocaleString('en-US')})`, i);
	/** Each field as given, by its name trimmed and in lower case. */
	const seen = new Map<string, string>();
	return list.map((entry: unknown, n) => {
		const column = isPlainObject(entry) ? entry : {};
		// A resource locator's value ({ mode, value }), or a text set by an expression.
		const given = isPlainObject(column.field) ? column.field.value : column.field;
		const header = column.header ?? '';
		if (typeof given !== 'string' || given.trim() === '') fieldError(ctx, `Columns › Field of column ${n + 1} must name a field, e.g. createdAt or customer.email (got ${JSON.stringify(given ?? '')})`, i);
		const field = given.trim();
		const before = seen.get(field.toLowerCase());
		if (before === given) fieldError(ctx, `Columns › Field ${JSON.stringify(given)} is chosen twice: give each field one column`, i);
		if (before !== undefined) {
			fieldError(ctx, `Columns › Fields ${JSON.stringify(before)} and ${JSON.stringify(given)} differ only in case or surrounding spaces: choose the field once, spelled as the records spell it`, i);
		}
		if (typeof header !== 'string') fieldError(ctx, `Columns › Header Name of column ${n + 1} must be a text (got ${JSON.stringify(header)})`, i);
		seen.set(field.toLowerCase(), given);
		return { field, header: header === '' ? field : header };
	});
}

/** The workflow's time zone (Workflow Settings › Timezone, else n8n's default), when this runtime knows it. */
function workflowTimeZone(ctx: IExecuteFunctions, i: number): string {
	const zone = ctx.getTimezone();
	if (!isTimeZone(zone)) {
		throw new NodeOperationError(ctx.getNode(), `The workflow's time zone ${JSON.stringify(zone)} is not one this n8n knows, so dates cannot be written in it`, {
			description: "Choose a time zone in Workflow Settings › Timezone, or set File Options › Dates to ISO Text.",
			itemIndex: i,
		});
	}
	return zone;
}

function readDelimiter(this: IExecuteFunctions, value: unknown, i: number): Delimiter {
	if (!(DELIMITERS as readonly unknown[]).includes(value)) fieldError(this, `Delimiter must be a comma (,), a semicolon (;) or a tab (got ${JSON.stringify(value)})`, i);
	return value as Delimiter;
}

/**
 * What is wrong with a file name, if anything: a plain name, no folder, not `.` or `..`; no control
 * character, and no invisible format character (a right-to-left override U+202E, a zero-width
 * space, a byte order mark...: Unicode's Cf, and the line and paragraph separators), which would make
 * the name display otherwise than it is (`report\u202Excsl.exe` shows as `reportexe.lscx`).
 */
function fileNameProblem(name: unknown): string | undefined {
	if (typeof name !== 'string' || name.length > 200 || name.trim() !== name || name === '' || /^\.+$/.test(name) || /[/\\]/.test(name)) {
		return 'a file name of at most 200 characters, without / or \\';
	}
	const hidden = /[\p{Cc}\p{Cf}\u2028\u2029]/u.exec(name);
	if (hidden === null) return undefined;
	const code = `U+${hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
	return `a file name without control or invisible format characters, which make a name display otherwise than it is (${code} at character ${hidden.index + 1})`;
}

function plural(resource: string): string {
	return resource.endsWith('s') ? `${resource}es` : `${resource}s`;
}
