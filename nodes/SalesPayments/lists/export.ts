import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Delimiter } from './csv';
import { CsvWriter, DELIMITERS, Utf8Builder } from './csv';
import { fieldError } from '../transport/errors';
import { HashedRecordSet } from './hashedRecords';
import type { ListRequest } from './pagination';
import { walk } from './pagination';
import { withDecimalAmounts } from '../fields/simplify';
import { FileItem } from '../fields/types';
import { checkBoolean } from '../fields/validation';
import { sheetNameProblem, XlsxWriter } from './xlsx';
import { ZIP_MAX_BYTES } from './zip';

/**
 * Output › CSV File / Excel File / JSON Lines File of a list operation: the list is walked exactly as for
 * items (walk(): caps, repeats, guards, Max Pages, errors) and each page is written to the file
 * as it arrives; the node outputs one item, the file with a summary. Only the pages in flight
 * are held, plus 8-16 bytes a record to know the records already written (hashedRecords.ts), when
 * n8n keeps files on disk (its filesystem binary data mode, the default in n8n 2.x). In n8n's
 * in-memory (the default in 1.x), database, S3 and Azure modes n8n reads the whole file into
 * memory before storing it, whatever a node does.
 * A failed walk outputs no file: the item fails (or is an error item with Continue On Fail).
 */

export const FILE_OUTPUTS = ['csvFile', 'jsonLinesFile', 'xlsxFile'] as const;
export type FileOutput = (typeof FILE_OUTPUTS)[number];

const FORMATS: Record<FileOutput, { extension: string; mimeType: string }> = {
	csvFile: { extension: 'csv', mimeType: 'text/csv' },
	jsonLinesFile: { extension: 'jsonl', mimeType: 'application/x-ndjson' },
	xlsxFile: { extension: 'xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
};

/** The outputs written as a table (columns, header row): CSV and Excel. */
const TABLE_OUTPUTS: FileOutput[] = ['csvFile', 'xlsxFile'];

/**
 * Most pages in flight of a file output when Max Concurrent Requests is automatic (items: 8).
 * Pages that arrive before the writer needs them wait in memory, outlive V8's young generation
 * and pile up in the old one, which n8n lets grow to several times its live size before a full
 * collection: 1,000,000 movements to CSV on loopback took 180-200 MB of extra RSS with up to 8
 * and 53-63 MB with up to 2, 3 or 4, in no more time (at 100 ms per answer, 4 matched the items
 * output's time). A number set in Max Concurrent Requests is used as is.
 */
export const FILE_AUTO_MAX_CONCURRENCY = 4;
/**
 * The same for the Excel file (2.6 times the CSV's bytes). Before its writer wrote rows byte by
 * byte and pages were asked ahead, 4 pages in flight took 130-165 MB of extra RSS on loopback and
 * 1 page 37-76 MB. Now 1,000,000 movements on loopback (load 3-5 on 2 cores): 1 page in flight
 * 11.5-13.4 s, 2 pages 9.9-12.8 s, 3 pages 8.4-13.8 s, all at 70-75 MB; 4 pages once 116 MB.
 */
export const XLSX_AUTO_MAX_CONCURRENCY = 3;

/** Fields of the pagination answer that describe the page, not the list: left out of `totals`. */
const PAGE_FIELDS = new Set(['page', 'currentPage', 'limit', 'offset', 'pagingCounter', 'totalPages', 'hasNext', 'hasNextPage', 'hasPrev', 'hasPrevPage', 'nextPage', 'prevPage']);


/**
 * Put Output File in Field and File Options, shown for the file outputs. Names and meanings follow
 * n8n's Convert to File where they mean the same (Delimiter, Header Row, Sheet Name, File Name).
 */
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
				placeholder: 'e.g. movements-2025-06.csv',
				description: 'Name of the file. Empty: the list\'s name, e.g. movements.csv, movements.xlsx or movements.jsonl.',
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
					"Whether to put a ' before texts that a spreadsheet would run as a formula (those starting with =, +, -, @, a tab, a carriage return or NUL, also after a , ; or tab inside the text). Numbers are never changed.",
				displayOptions: { show: { '/output': ['csvFile'] } },
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

interface FileSettings {
	property: string;
	fileName: string;
	bom: boolean;
	neutralizeFormulas: boolean;
	delimiter: Delimiter;
	headerRow: boolean;
	sheetName: string;
	decimalAmounts: boolean;
}

/** The file settings of item `i`, checked before any request. */
function readFileSettings(this: IExecuteFunctions, i: number, output: FileOutput): FileSettings {
	const property = this.getNodeParameter('binaryPropertyName', i, 'data');
	if (typeof property !== 'string' || property.trim() === '') {
		fieldError(this, `Put Output File in Field must name the binary field for the file, e.g. data (got ${JSON.stringify(property)})`, i);
	}
	const options = this.getNodeParameter('fileOptions', i, {}) as IDataObject;
	let fileName = options.fileName ?? '';
	if (fileName === '') fileName = `${plural(String(this.getNodeParameter('resource', i)))}.${FORMATS[output].extension}`;
	if (!isFileName(fileName)) {
		fieldError(this, `File Name must be a file name of at most 200 characters, without / or \\ (got ${JSON.stringify(fileName)})`, i);
	}
	const sheetName = options.sheetName ?? 'Sheet';
	const problem = typeof sheetName === 'string' ? sheetNameProblem(sheetName) : 'a text';
	if (output === 'xlsxFile' && problem !== undefined) fieldError(this, `Sheet Name must be ${problem} (got ${JSON.stringify(sheetName)})`, i);
	return {
		property,
		fileName,
		bom: checkBoolean.call(this, options.bom ?? false, i, 'Add Byte Order Mark (BOM)'),
		neutralizeFormulas: checkBoolean.call(this, options.neutralizeFormulas ?? true, i, 'Neutralize Formulas'),
		delimiter: readDelimiter.call(this, options.delimiter ?? ',', i),
		headerRow: checkBoolean.call(this, options.headerRow ?? true, i, 'Header Row'),
		sheetName: String(sheetName),
		// Only operations whose records may hold amounts have the field (n8n drops hidden parameters).
		decimalAmounts: this.getNodeParameter('decimalAmounts', i, false) === true,
	};
}

function readDelimiter(this: IExecuteFunctions, value: unknown, i: number): Delimiter {
	if (!(DELIMITERS as readonly unknown[]).includes(value)) fieldError(this, `Delimiter must be a comma (,), a semicolon (;) or a tab (got ${JSON.stringify(value)})`, i);
	return value as Delimiter;
}

/** A plain file name: no folder, no control character, not `.` or `..`. */
function isFileName(name: unknown): name is string {
	if (typeof name !== 'string' || name.length > 200 || name.trim() !== name || name === '' || /^\.+$/.test(name) || /[/\\]/.test(name)) return false;
	return ![...name].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127);
}

function plural(resource: string): string {
	return resource.endsWith('s') ? `${resource}es` : `${resource}s`;
}

function totalsOf(summary: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(summary).filter(([name]) => !PAGE_FIELDS.has(name)));
}

/**
 * Walks the list of `req` into one file of the chosen format. `shape` is what the operation does
 * to each record in items mode too (e.g. Simplify); Add Decimal Amounts follows it, as the node
 * applies it to items.
 */
export async function exportList(
	this: IExecuteFunctions,
	i: number,
	req: ListRequest,
	output: FileOutput,
	shape?: (record: IDataObject) => IDataObject,
): Promise<FileItem> {
	const settings = readFileSettings.call(this, i, output);
	const job: ExportJob = {
		req: { ...req, readAhead: true, autoMax: output === 'xlsxFile' ? XLSX_AUTO_MAX_CONCURRENCY : FILE_AUTO_MAX_CONCURRENCY },
		settings,
		shape,
		csv:
			output === 'csvFile'
				? new CsvWriter({ neutralizeFormulas: settings.neutralizeFormulas, delimiter: settings.delimiter, headerRow: settings.headerRow })
				: undefined,
		seen: new HashedRecordSet(),
		records: 0,
		met: 0,
		pages: 0,
		totals: {},
	};
	if (output === 'xlsxFile') {
		const { sheetName, headerRow, decimalAmounts } = settings;
		job.xlsx = new XlsxWriter({ sheetName, headerRow, decimalAmounts, tooLarge: () => tooLarge(this, job) });
	}
	const source = new ByteSource((reuse) => fileChunks(this, job, reuse));
	let binary;
	try {
		binary = await this.helpers.prepareBinaryData(source as unknown as Buffer, settings.fileName, FORMATS[output].mimeType);
	} catch (error) {
		// The walk's own error (a NodeApiError naming the page...), as Return All to items gives it.
		throw source.failure ?? error;
	}
	const json: IDataObject = {
		fileName: settings.fileName,
		records: job.records,
		pages: job.pages,
		...(job.csv ? job.csv.summary() : {}),
		...(job.xlsx ? job.xlsx.summary() : {}),
		repeatedRecordsSkipped: job.seen.repeats,
		recordsRemovedWhileRead: job.records - job.met,
		totals: job.totals,
	};
	return new FileItem(json, { [settings.property]: binary });
}

interface ExportJob {
	req: ListRequest;
	settings: FileSettings;
	shape?: (record: IDataObject) => IDataObject;
	csv?: CsvWriter;
	xlsx?: XlsxWriter;
	seen: HashedRecordSet;
	records: number;
	/** Records the latest reading of the list brought (all written, by it or by an earlier reading). */
	met: number;
	pages: number;
	/** The latest the list tells of itself: of the last page of the reading that finished. */
	totals: IDataObject;
}

/**
 * The file's bytes, a page at a time, as the walk reads the list. With `reuse`, each chunk is
 * written into the same buffer: the consumer is done with a chunk when it asks for the next.
 */
async function* fileChunks(ctx: IExecuteFunctions, job: ExportJob, reuse: boolean): AsyncGenerator<Buffer> {
	const { csv, xlsx, settings, shape } = job;
	const out = new Utf8Builder();
	if (csv && settings.bom) out.append('\uFEFF');
	for await (const page of walk.call(ctx, job.req, job.seen)) {
		job.pages++;
		job.totals = totalsOf(page.summary);
		job.met = page.met;
		let records = shape ? page.records.map(shape) : page.records;
		if (settings.decimalAmounts) records = records.map(withDecimalAmounts);
		job.records += records.length;
		if (csv) csv.page(records, out);
		else if (xlsx) xlsx.page(records, out);
		else for (const record of records) out.append(`${JSON.stringify(record)}\n`);
		yield out.take(reuse);
	}
	xlsx?.finish(out);
	// An empty list: only the byte order mark, if asked for.
	if (out.size > 0) yield out.take(reuse);
}

/** The .xlsx's ZIP past 4 GiB: the export fails, saying what to do, before the bytes past it are written. */
function tooLarge(ctx: IExecuteFunctions, job: ExportJob): never {
	throw new NodeOperationError(
		ctx.getNode(),
		`The Excel file would be larger than ${(ZIP_MAX_BYTES / 1024 ** 3).toFixed(1)} GiB, the most a ZIP file without ZIP64 holds (${job.records.toLocaleString('en-US')} records read so far)`,
		{
			description:
				'Write the list to Output › CSV File or JSON Lines File, which have no such bound, or export fewer records at a time (filters, e.g. a date range, or Limit).',
			itemIndex: job.req.itemIndex,
		},
	);
}

type Listener = (arg?: unknown) => void;

/**
 * The file's bytes as n8n's binary data service reads a Node Readable, without node:stream
 * (shipped code may import only n8n-workflow and node:crypto). `prepareBinaryData` hands its
 * argument to BinaryDataService.store; read in n8n-core 1.122.48 (n8n 1.123.81), 2.8.1 (n8n 2.8.4)
 * and 2.41.1 (n8n 2.41.1):
 * - filesystem mode: `fs.promises.writeFile(path, source)`, which iterates any AsyncIterable
 *   (`Symbol.asyncIterator`), writing each chunk before it asks for the next: one page at a
 *   time. 2.41 writes to a temporary file renamed at the end and removed on failure; 1.x and
 *   2.8 leave the part written on failure, in the execution's binary data folder (n8n deletes it
 *   with the execution), and output no item that points to it.
 * - in-memory (`default`), database, S3 and Azure modes: `streamToBuffer(source)`, which listens
 *   to 'data', 'end' and once to 'error' (2.41 also to 'close', removes its listeners with off()
 *   and calls destroy() when no data comes for N8N_HTTP_RESPONSE_BODY_READ_TIMEOUT, 300 s by
 *   default), and buffers the whole file. The first 'data' listener starts the pages.
 * The in-process tests and the e2e test run both paths through n8n-core (test/in-process/export*.test.ts).
 */
export class ByteSource {
	/** The walk's error, when it failed. */
	failure: unknown;
	private readonly listeners = new Map<string, Array<{ fn: Listener; once: boolean }>>();
	private chunks?: AsyncGenerator<Buffer>;
	private destroyed = false;

	/**
	 * `make(reuse)` makes the chunks once the consumer is known: an iterating consumer is done
	 * with a chunk when it asks for the next (its memory may be reused); listeners keep them all.
	 */
	constructor(private readonly make: (reuse: boolean) => AsyncGenerator<Buffer>) {}

	[Symbol.asyncIterator](): AsyncIterator<Buffer> {
		const chunks = this.start(true);
		return { next: async () => await this.pull(), return: async () => await chunks.return(undefined) };
	}

	on(event: string, fn: Listener): this {
		this.listen(event, fn, false);
		if (event === 'data' && !this.chunks) {
			this.start(false);
			void this.pump();
		}
		return this;
	}

	once(event: string, fn: Listener): this {
		this.listen(event, fn, true);
		return this;
	}

	off(event: string, fn: Listener): this {
		this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l.fn !== fn));
		return this;
	}

	removeListener(event: string, fn: Listener): this {
		return this.off(event, fn);
	}

	destroy(): this {
		this.destroyed = true;
		// Ends the walk (its pages in flight are settled); a failure here changes nothing.
		this.chunks?.return(undefined).catch(() => undefined);
		return this;
	}

	/** n8n reads the source one way only, once. */
	private start(reuse: boolean): AsyncGenerator<Buffer> {
		this.chunks ??= this.make(reuse);
		return this.chunks;
	}

	private listen(event: string, fn: Listener, once: boolean): void {
		this.listeners.set(event, [...(this.listeners.get(event) ?? []), { fn, once }]);
	}

	private emit(event: string, arg?: unknown): void {
		const all = this.listeners.get(event) ?? [];
		this.listeners.set(event, all.filter((l) => !l.once));
		for (const { fn } of all) fn(arg);
	}

	/** The next chunk; the walk's error is kept, to be thrown as the node's own. */
	private async pull(): Promise<IteratorResult<Buffer>> {
		const next = (this.chunks as AsyncGenerator<Buffer>).next();
		next.catch((error: unknown) => {
			this.failure = error;
		});
		return await next;
	}

	private async pump(): Promise<void> {
		try {
			for (;;) {
				const { done, value } = await this.pull();
				if (this.destroyed) return;
				if (done) break;
				this.emit('data', value);
			}
			this.emit('end');
		} catch (error) {
			if (this.destroyed) return;
			try {
				this.emit('error', error);
			} catch {
				// A consumer's error listener that throws must not become an unhandled rejection
				// (pump runs unawaited); the walk's error stays in `failure` for exportList.
			}
		}
	}
}
