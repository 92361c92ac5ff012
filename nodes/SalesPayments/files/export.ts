import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ByteSource } from './byteSource';
import { CsvWriter } from './csv';
import type { FileOutput } from './fileNames';
import type { FileSettings } from './fileOptions';
import { readFileSettings } from './fileOptions';
import { HashedRecordSet } from './hashedRecords';
import type { WindowsRead } from './oldestFirst';
import { checkOldestFirst, oldestFirst } from './oldestFirst';
import type { ListRequest } from '../paging/pages';
import { readCount } from '../paging/totals';
import { walk } from '../paging/walk';
import { Reconciliation, totalsWithMoney } from './reconcile';
import { Utf8Builder } from './utf8';
import { XlsxWriter } from './xlsx';
import type { TooLargePart } from './zip';
import { ZIP_MAX_BYTES } from './zip';
import { withDecimalAmounts } from '../fields/simplify';
import type { DateFilter } from '../transport/endpoints';
import { FileItem } from '../fields/types';

/**
 * Output › CSV / Excel / JSON Lines File: the list is read exactly as for items, each page written
 * as it arrives; one item out, the file with a summary (reconcile.ts). Memory: the pages in flight
 * plus 8-16 bytes a record (hashedRecords.ts) when n8n stores files on disk (filesystem mode, 2.x's
 * default); its other modes buffer the whole file whatever a node does. A failed read outputs no file.
 * Order › Oldest First reads the list in date windows instead (oldestFirst.ts).
 */

/**
 * Most pages in flight of a file output when Max Concurrent Requests is automatic (items: 8).
 * Pages waiting for the writer pile up in V8's old generation: 1,000,000 movements to CSV on
 * loopback took 180-200 MB of extra RSS with 8 and 53-63 MB with 2-4, in no more time.
 */
export const FILE_AUTO_MAX_CONCURRENCY = 4;
/**
 * The same for the Excel file (2.6 times the CSV's bytes): 1,000,000 movements on loopback took
 * 11.5-13.4 s with 1 page in flight, 8.4-13.8 s with 3, all at 70-75 MB; 4 pages once 116 MB.
 */
export const XLSX_AUTO_MAX_CONCURRENCY = 3;

/** Fields of the pagination answer that describe the page, not the list: left out of `totals`. */
const PAGE_FIELDS = new Set(['page', 'currentPage', 'limit', 'offset', 'pagingCounter', 'totalPages', 'hasNext', 'hasNextPage', 'hasPrev', 'hasPrevPage', 'nextPage', 'prevPage']);

function totalsOf(summary: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(summary).filter(([name]) => !PAGE_FIELDS.has(name)));
}

/** The list of `req` as one file. `shape` is the operation's own (e.g. Simplify), then Add Decimal Amounts, as for items. */
export async function exportList(
	this: IExecuteFunctions,
	i: number,
	req: ListRequest,
	output: FileOutput,
	shape?: (record: IDataObject) => IDataObject,
): Promise<FileItem> {
	const settings = readFileSettings.call(this, i, output);
	const { neutralizeFormulas, delimiter, headerRow, decimalComma, dates, columns } = settings;
	const dateFilter = settings.order === 'oldestFirst' ? checkOldestFirst(this, req, i) : undefined;
	const job: ExportJob = {
		// The first page is handed over even when the list is empty: its totals are what the file reconciles with.
		req: { ...req, readAhead: true, reportEmpty: true, autoMax: output === 'xlsxFile' ? XLSX_AUTO_MAX_CONCURRENCY : FILE_AUTO_MAX_CONCURRENCY },
		settings,
		shape,
		csv: output === 'csvFile' ? new CsvWriter({ neutralizeFormulas, delimiter, headerRow, decimalComma, dates, columns }) : undefined,
		seen: new HashedRecordSet(),
		dateFilter,
		windows: dateFilter ? { requests: 0 } : undefined,
		sums: new Reconciliation(),
		records: 0,
		recordsInLastPass: 0,
		pages: 0,
		totals: {},
	};
	if (output === 'xlsxFile') {
		const { sheetName, decimalAmounts } = settings;
		job.xlsx = new XlsxWriter({ sheetName, headerRow, decimalAmounts, dates, columns, tooLarge: (part) => tooLarge(this, job, part) });
	}
	const source = new ByteSource((reuse) => fileChunks(this, job, reuse));
	let binary;
	try {
		binary = await this.helpers.prepareBinaryData(source as unknown as Buffer, settings.fileName, settings.mimeType);
	} catch (error) {
		// The list's own error (a NodeApiError naming the page...), as Return All to items gives it.
		throw source.failure ?? error;
	}
	const removed = job.records - job.recordsInLastPass;
	const money = settings.decimalAmounts;
	const { reconciled, reconciliation } = job.sums.result({ rows: job.records, removed, limit: job.req.limit, totals: job.totals, money, windows: job.windows !== undefined });
	if (!reconciled) {
		this.logger.warn(`Sales & Payments: the file ${settings.fileName} does not add up to the platform's totals: ${(reconciliation.reasons as string[]).join('; ')}`);
	}
	const json: IDataObject = {
		fileName: settings.fileName,
		...(settings.note === undefined ? {} : { fileNameGiven: settings.given, fileNameNote: settings.note }),
		records: job.records,
		pages: job.windows?.requests ?? job.pages,
		...(job.csv ? job.csv.summary() : {}),
		...(job.xlsx ? job.xlsx.summary() : {}),
		repeatedRecordsSkipped: job.seen.repeats,
		recordsRemovedWhileRead: removed,
		totals: money ? totalsWithMoney(job.totals) : job.totals,
		reconciled,
		reconciliation,
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
	/** Order › Oldest First: the list's date filter, and the requests its windows made. */
	dateFilter?: DateFilter;
	windows?: WindowsRead;
	/** The values written, added up. */
	sums: Reconciliation;
	records: number;
	/** Records the latest pass over the list found (all written, in it or in an earlier pass). */
	recordsInLastPass: number;
	pages: number;
	/** The list's own figures, from the last page of the pass that finished. */
	totals: IDataObject;
}

/** The records the list holds, as a page's figures say (its count, within Limit), if they do. */
function listSizeOf(job: ExportJob, summary: IDataObject): number | undefined {
	const count = readCount(summary);
	return count === undefined ? undefined : Math.min(count, job.req.limit ?? count);
}

/** The file's bytes, a page at a time. With `reuse`, every chunk shares one buffer: the consumer is done with one when it asks for the next. */
async function* fileChunks(ctx: IExecuteFunctions, job: ExportJob, reuse: boolean): AsyncGenerator<Buffer> {
	const { csv, xlsx, settings, shape } = job;
	const out = new Utf8Builder();
	if (csv && settings.bom) out.append('\uFEFF');
	let finished = false;
	const pages = job.dateFilter && job.windows ? oldestFirst.call(ctx, job.req, job.dateFilter, job.seen, job.windows) : walk.call(ctx, job.req, job.seen);
	try {
		for await (const page of pages) {
			job.pages++;
			job.totals = totalsOf(page.summary);
			job.recordsInLastPass = page.met;
			if (page.records.length === 0) continue;
			let records = shape ? page.records.map(shape) : page.records;
			if (settings.decimalAmounts) records = records.map(withDecimalAmounts);
			job.records += records.length;
			job.sums.add(records);
			if (csv) csv.page(records, out);
			// The list's size, as its pages say: a sheet that cannot be held streams from its start (zip.ts).
			else if (xlsx) await xlsx.page(records, out, listSizeOf(job, page.summary));
			else for (const record of records) out.append(`${JSON.stringify(record)}\n`);
			// The Excel file's compressor may have made nothing yet from a page.
			if (out.size > 0) yield out.take(reuse);
		}
		csv?.finish(out);
		await xlsx?.finish(out);
		finished = true;
	} finally {
		// A list that failed, or a consumer that stopped reading: the compressor is freed.
		if (!finished) xlsx?.abort();
	}
	// An empty list: only the byte order mark, if asked for.
	if (out.size > 0) yield out.take(reuse);
}

/** The .xlsx's ZIP, or one sheet before compression, past 4 GiB: the export fails, saying what to do, before the bytes past it are written. */
function tooLarge(ctx: IExecuteFunctions, job: ExportJob, part: TooLargePart): never {
	const what = part === 'archive' ? 'The Excel file' : 'A sheet of the Excel file (before compression)';
	throw new NodeOperationError(
		ctx.getNode(),
		`${what} would be larger than ${(ZIP_MAX_BYTES / 1024 ** 3).toFixed(1)} GiB, the most a ZIP file without ZIP64 holds (${job.records.toLocaleString('en-US')} records read so far)`,
		{
			description:
				'Write the list to Output › CSV File or JSON Lines File, which have no such bound, or export fewer records at a time (filters, e.g. a date range, or Limit).',
			itemIndex: job.req.itemIndex,
		},
	);
}
