import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { recordTime } from '../fields/dates';
import type { ListRequest } from '../paging/pages';
import { readCount } from '../paging/totals';
import type { WalkPage } from '../paging/walk';
import { MAX_PASSES, walk } from '../paging/walk';
import type { DateWindow } from '../paging/windows';
import { iso, splitWindow } from '../paging/windows';
import type { DateFilter } from '../transport/endpoints';
import { fieldError } from '../transport/errors';
import type { HashedRecordSet } from './hashedRecords';
import { isPlainObject } from '../transport/records';

/**
 * File Options › Order › Oldest First (docs/exports.md): the list read by its creation-date filter
 * in date windows that each fit one page, oldest window first, each window's records sorted by
 * date. A window is one answer, so a record deleted or added elsewhere while the list is read
 * cannot shift a record out of it (the way pages 1, 2, 3 can). A full window is split where its
 * dates suggest (paging/windows.ts); more than a page within one millisecond is paged (the order
 * inside a millisecond is none). At the end the whole range's figures are read once: records added
 * meanwhile are newer than every row written (creation dates), so the range from the newest row on
 * is read again for them, at most MAX_PASSES times; what is still missing after that (a record
 * added with an old date, or one removed) shows in the reconciliation. Memory: one window.
 */

/** What the windows cost, for the summary: requests made. */
export interface WindowsRead {
	requests: number;
}

/** The list's date filter, or a refusal naming File Options › Order before any request. */
export function checkOldestFirst(ctx: IExecuteFunctions, req: ListRequest, i: number): DateFilter {
	if (!req.dates) {
		fieldError(ctx, `File Options › Order: Oldest First needs a list the platform filters by creation date, and ${req.method} ${req.path} has no such filter: choose As Listed`, i);
	}
	const sorted = req.qs?.orderByField !== undefined || req.qs?.orderDirection !== undefined || (isPlainObject(req.body) && req.body.orderBy !== undefined);
	if (sorted) fieldError(ctx, 'File Options › Order: Oldest First orders the rows by date, and Options › Sort asks the platform for another order: remove one of them', i);
	return req.dates;
}

/** The value at `path` of a query or body. */
function valueAt(source: IDataObject | undefined, path: readonly string[]): unknown {
	let value: unknown = source;
	for (const key of path) value = isPlainObject(value) ? value[key] : undefined;
	return value;
}

/** A copy of `source` with `value` at `path` (removed when undefined). */
function withValue(source: IDataObject | undefined, path: readonly string[], value: string | undefined): IDataObject {
	const copy: IDataObject = { ...(source ?? {}) };
	const [key, ...rest] = path;
	if (rest.length > 0) {
		const inner = withValue(isPlainObject(copy[key]) ? (copy[key] as IDataObject) : undefined, rest, value);
		if (Object.keys(inner).length > 0) copy[key] = inner;
		else delete copy[key];
	} else if (value === undefined) delete copy[key];
	else copy[key] = value;
	return copy;
}

/** The list request for the records dated within `window`. */
function windowRequest(req: ListRequest, dates: DateFilter, window: DateWindow): ListRequest {
	const since = window.from > 0 ? iso(window.from) : undefined;
	const until = window.to === undefined ? undefined : iso(window.to);
	if (dates.in === 'qs') return { ...req, qs: withValue(withValue(req.qs, dates.from, since), dates.to, until) };
	const body = isPlainObject(req.body) ? (req.body as IDataObject) : undefined;
	return { ...req, body: withValue(withValue(body, dates.from, since), dates.to, until) };
}

/** The user's own range, epoch ms (no start: from the beginning; no end: open). */
function userRange(req: ListRequest, dates: DateFilter): DateWindow {
	const source = dates.in === 'qs' ? req.qs : isPlainObject(req.body) ? (req.body as IDataObject) : undefined;
	const at = (path: readonly string[]) => {
		const value = valueAt(source, path);
		const ms = typeof value === 'string' ? Date.parse(value) : NaN;
		return Number.isFinite(ms) ? ms : undefined;
	};
	return { from: at(dates.from) ?? 0, to: at(dates.to) };
}

/** One window's records (the reading of it that finished) and whether one answer held it all (a page silent about more is confirmed by page 2). */
async function readWindow(ctx: IExecuteFunctions, req: ListRequest, read: WindowsRead): Promise<{ records: IDataObject[]; whole: boolean }> {
	let records: IDataObject[] = [];
	let pass = 1;
	for await (const page of walk.call(ctx, { ...req, limit: undefined, concurrency: 1, maxPages: 2, readAhead: false, reportEmpty: true })) {
		read.requests++;
		if (page.pass !== pass) [records, pass] = [[], page.pass];
		records.push(...page.records);
		if (page.last) return { records, whole: true };
		if (page.pageNo === 1 && page.more === undefined) continue;
		return { records, whole: false };
	}
	return { records, whole: true };
}

/**
 * The records of the list of `req`, oldest first, as pages of the page reader's shape: one per window
 * (its records sorted by date, none output twice: `kept`), then an empty one with the whole range's
 * figures (what the file reconciles with).
 */
export async function* oldestFirst(this: IExecuteFunctions, req: ListRequest, dates: DateFilter, kept: HashedRecordSet, read: WindowsRead): AsyncGenerator<WalkPage> {
	const op = `${req.method} ${req.path}`;
	const wanted = req.limit ?? Infinity;
	const range = userRange(req, dates);
	const now = Date.now();
	const fields = [...dates.fields];
	let written = 0;
	let newest = -Infinity;
	let pageNo = 0;
	const page = (records: IDataObject[], summary: IDataObject, last: boolean): WalkPage => {
		written += records.length;
		return { pageNo: ++pageNo, size: req.pageSize ?? records.length, records, summary, pass: 1, met: written, last, more: !last };
	};
	/**
	 * Records not output before, up to the limit. One met again at or before the newest date written
	 * is where two windows meet, or a re-reading: skipped without counting it as the platform's repeat.
	 */
	const fresh = (dated: Array<{ record: IDataObject; at: number }>) =>
		dated
			.filter(({ record, at }) => !(at <= newest && kept.has(record)) && kept.add(record))
			.map(({ record }) => record)
			.slice(0, wanted - written);
	const tooMany = () => read.requests >= (req.maxPages ?? Infinity);
	const dateOf = (record: IDataObject, window: DateWindow): number => {
		const at = recordTime(record, fields);
		if (at === undefined) {
			throw new NodeOperationError(this.getNode(), `A record of ${op} has no date in ${fields.join(', ')}, so Oldest First cannot place it (id ${JSON.stringify(record.id ?? null)})`, {
				description: 'Set File Options › Order to As Listed for this list.',
				itemIndex: req.itemIndex,
			});
		}
		if (at < window.from || (window.to !== undefined && at > window.to)) {
			throw new NodeOperationError(this.getNode(), `The platform answered ${op} with a record dated ${iso(at)}, outside the dates asked (${iso(window.from)} to ${window.to === undefined ? 'now' : iso(window.to)}), so Oldest First cannot read it in date order`, {
				description: 'The platform seems to ignore this list\'s date filter. Set File Options › Order to As Listed; no file was output.',
				itemIndex: req.itemIndex,
			});
		}
		return at;
	};
	let summary: IDataObject = {};
	for (let pass = 1; ; pass++) {
		const queue: DateWindow[] = [pass === 1 ? range : { from: Math.max(range.from, newest), to: range.to }];
		while (queue.length > 0 && written < wanted) {
			if (tooMany()) throw pagesError(this, req, op);
			const window = queue[0];
			const { records, whole } = await readWindow(this, windowRequest(req, dates, window), read);
			const dated = records.map((record) => ({ record, at: dateOf(record, window) }));
			queue.shift();
			if (whole) {
				dated.sort((a, b) => a.at - b.at);
				const out = fresh(dated);
				if (dated.length > 0) newest = Math.max(newest, dated[dated.length - 1].at);
				if (out.length > 0) yield page(out, {}, false);
				continue;
			}
			const parts = splitWindow(window, dated.map((d) => d.at), now);
			if (parts) {
				queue.unshift(...parts);
				continue;
			}
			// More than a page within one millisecond: paged as listed (one instant has no order).
			for await (const tied of walk.call(this, { ...windowRequest(req, dates, window), limit: undefined })) {
				read.requests++;
				const out = fresh(tied.records.map((record) => ({ record, at: dateOf(record, window) })));
				newest = Math.max(newest, window.from);
				if (out.length > 0) yield page(out, {}, false);
				if (written >= wanted) break;
				if (tooMany() && !tied.last) throw pagesError(this, req, op);
			}
		}
		// The whole range's figures now: what the file reconciles with, and whether records came meanwhile.
		for await (const first of walk.call(this, { ...windowRequest(req, dates, range), limit: 1, pageSize: 1, concurrency: 1, maxPages: 1, reportEmpty: true, readAhead: false })) {
			read.requests++;
			summary = first.summary;
			break;
		}
		const count = readCount(summary);
		if (written >= wanted || count === undefined || count <= written || pass >= MAX_PASSES || tooMany()) break;
	}
	yield page([], summary, true);
}

function pagesError(ctx: IExecuteFunctions, req: ListRequest, op: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Oldest First stopped after ${req.maxPages} requests of ${op}: the list is not read to its end`, {
		description: `Raise Pagination › Max Pages (now ${req.maxPages}) to read further, or narrow the list with filters. No file is output from an incomplete list.`,
		itemIndex: req.itemIndex,
	});
}
