import type { IDataObject, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ListRequest } from '../paging/pages';
import { readCount } from '../paging/totals';
import { walk as pagesOf } from '../paging/walk';
import type { DateWindow } from '../paging/windows';
import { iso, splitWindow } from '../paging/windows';
import { recordId } from './recordFields';

/**
 * A date range read without losing a record while the list changes: pages 1, 2, 3 are not safe (a
 * deletion on page 1 shifts a record past page 2 unseen), so the range is read in date windows that
 * each fit ONE page, split when full (paging/windows.ts), oldest first. Ends are inclusive (callers
 * de-duplicate). Paged instead: more than a page within one millisecond, or a platform ignoring the
 * date filter.
 */

/** The requests one poll may make, counted where every request of the poll goes through (`counted`). */
export class Budget {
	used = 0;
	constructor(readonly max: number) {}
	get left(): number {
		return this.max - this.used;
	}
}

/** What a poll's requests share: the counting context, the budget, and the page size learned (stored between polls). */
export interface PollIO {
	ctx: IPollFunctions;
	budget: Budget;
	pageSize?: number;
}

function budgetError(io: PollIO, what: string): NodeApiError {
	const message = `Max Requests per Poll (${io.budget.max}) reached while reading ${what}`;
	return new NodeApiError(io.ctx.getNode(), { message } as JsonObject, {
		message,
		description:
			'The poll stopped before the platform\'s answers were complete and its cursor did not move. Raise Options › Max Requests per Poll, or narrow the event with its filters.',
	});
}

/**
 * A poll context whose every request counts against `budget` (Max Requests per Poll): no platform
 * can make a poll endless. The last accepted page size is noted, so the next poll asks it at once.
 */
export function counted(ctx: IPollFunctions, budget: Budget): PollIO {
	const send = ctx.helpers.httpRequestWithAuthentication;
	const helpers = Object.create(ctx.helpers) as IPollFunctions['helpers'];
	const io: PollIO = { ctx, budget };
	helpers.httpRequestWithAuthentication = async function (this: unknown, ...args: Parameters<typeof send>) {
		if (budget.used >= budget.max) throw budgetError(io, 'the platform\'s lists');
		budget.used++;
		const response = (await send.apply(this as never, args)) as { statusCode?: number } | undefined;
		const limit = Number((args[1]?.qs as IDataObject | undefined)?.limit);
		const status = response?.statusCode ?? 0;
		if (status >= 200 && status < 300 && Number.isInteger(limit) && limit > 0) io.pageSize = limit;
		return response;
	} as typeof send;
	io.ctx = Object.create(ctx, { helpers: { value: helpers } }) as IPollFunctions;
	return io;
}

export interface WindowedRead {
	/** The list request for one window (ISO dates; no `since`: from the beginning, no `until`: open). */
	request(window: { since?: string; until?: string }): ListRequest;
	/** Epoch ms of the date the endpoint filters by, for a record. */
	dateOf(record: IDataObject): number | undefined;
	/** Start of the range, epoch ms (undefined: from the beginning). */
	since?: number;
	/** Where the range is cut in two, [since, split] then (split, open): the caller knows the records up to it. */
	split?: number;
	/** The poll's own clock: where an open window is closed when it must be split. */
	now: number;
	/** Stop before the next window once the records read so far are enough. */
	enough?(records: IDataObject[]): boolean;
	/** A snapshot: the whole range or an error, never the records up to where the budget ran out. */
	whole?: boolean;
	/** Whether the caller already knows every record of a window whose first page is `records` and total `total`. */
	known?(window: DateWindow, total: number, records: IDataObject[]): boolean;
}

/** The list's count (paging/totals.ts), when it is a whole number. */
function totalOf(summary: IDataObject): number | undefined {
	const n = readCount(summary);
	return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
}

function windowRequest(read: WindowedRead, window: DateWindow): ListRequest {
	return read.request({
		since: window.from > 0 ? iso(window.from) : undefined,
		until: window.to === undefined ? undefined : iso(window.to),
	});
}

/** One window: its records, whether one page held it all (a page silent about more is confirmed by page 2), the total. */
async function readWindow(io: PollIO, request: ListRequest): Promise<{ records: IDataObject[]; whole: boolean; total?: number }> {
	const records: IDataObject[] = [];
	let total: number | undefined;
	for await (const page of pagesOf.call(io.ctx, { ...request, pageSize: io.pageSize, concurrency: 1, maxPages: 2 })) {
		total ??= totalOf(page.summary);
		records.push(...page.records);
		if (page.last) return { records, whole: true, total };
		if (page.pageNo === 1 && page.more === undefined && io.budget.left > 0) continue;
		return { records, whole: false, total };
	}
	return { records, whole: true, total };
}

/** Passes over a list whose pages do not add up to its total, each at half the page size of the one before. */
export const ORDER_PASSES = 3;

/** One pass over every page of `request` (see readPages). */
async function readPass(io: PollIO, request: ListRequest, what: string, pageSize: number | undefined, limit?: number, most = Infinity) {
	const records: IDataObject[] = [];
	let total: number | undefined;
	let pages = 0;
	let size = pageSize;
	for await (const page of pagesOf.call(io.ctx, { ...request, limit, pageSize, concurrency: 1, maxPages: io.budget.left + 1 })) {
		pages++;
		size = page.size;
		total ??= totalOf(page.summary);
		// The page reader hands out each record once (by id): these are the different records read.
		records.push(...page.records);
		if (page.last) break;
		if (io.budget.left < 1 || pages >= most) {
			if (limit !== undefined) break;
			throw budgetError(io, `${what} of ${request.method} ${request.path}`);
		}
	}
	return { records, total, pages, size };
}

/**
 * Every page of `request`, within the budget (with `limit`: that many records in at most `most`
 * pages). Pages short of the platform's total (its order shifts between pages) are read again at
 * half the page size and joined by identity; after ORDER_PASSES passes still short, it fails.
 */
export async function readPages(io: PollIO, request: ListRequest, what: string, limit?: number, most = Infinity): Promise<IDataObject[]> {
	const found = new Map<string, IDataObject>();
	const learned = io.pageSize;
	let size = io.pageSize;
	let pages = 0;
	let total: number | undefined;
	try {
		for (let pass = 1; ; pass++) {
			const read = await readPass(io, request, what, size, limit, most);
			if (limit !== undefined) return read.records;
			pages += read.pages;
			total ??= read.total;
			for (const record of read.records) found.set(recordId(record), record);
			if (total === undefined || found.size >= total) return [...found.values()];
			if (pass >= ORDER_PASSES || (read.size ?? 1) <= 1) break;
			size = Math.max(1, Math.floor((read.size ?? 2) / 2));
		}
	} finally {
		// The smaller pages of a later pass are not the platform's page size.
		io.pageSize = learned ?? io.pageSize;
	}
	const message = `The platform's order of ${request.method} ${request.path} changes from page to page: ${found.size} different records in ${pages} pages, for a total of ${total}`;
	throw new NodeApiError(io.ctx.getNode(), { message } as JsonObject, {
		message,
		description: `Reading ${what} ${ORDER_PASSES} times at smaller page sizes, pages overlapped and some records were on no page. The poll stopped rather than miss records silently, and its cursor did not move.`,
	});
}

/** Every record of the range (records on a window boundary twice), oldest windows first. */
export async function readWindows(io: PollIO, read: WindowedRead): Promise<IDataObject[]> {
	const from = read.since ?? 0;
	const queue: DateWindow[] = read.split === undefined || read.split < from ? [{ from }] : [{ from, to: read.split }, { from: read.split + 1 }];
	const path = read.request({}).path;
	const out: IDataObject[] = [];
	while (queue.length > 0) {
		if (io.budget.left < 1) {
			// What was read is a prefix of the range in date order: the caller goes on from it next poll.
			if (out.length > 0 && !read.whole) return out;
			throw budgetError(io, path);
		}
		const window = queue[0];
		const batch = await readWindow(io, windowRequest(read, window));
		const dates = batch.records.map((r) => read.dateOf(r)).filter((d): d is number => d !== undefined);
		if (dates.some((d) => d < window.from || (window.to !== undefined && d > window.to))) {
			// The platform ignored the date filter: windows cannot be read. The whole list is paged once.
			io.ctx.logger.warn(`Sales & Payments Polling Trigger: the platform ignored the date filter of ${path} (records outside the dates asked); the whole list is read page by page`);
			const all = await readPages(io, read.request({}), 'the whole list (the platform ignores its date filter)');
			return all.filter((r) => (read.dateOf(r) ?? Infinity) >= from);
		}
		queue.shift();
		if (batch.whole) {
			out.push(...batch.records);
			if (read.enough?.(out)) return out;
			continue;
		}
		if (batch.total !== undefined && read.known?.(window, batch.total, batch.records)) continue;
		// Records without a date are in every answer, whatever the window: splitting cannot make such a page whole.
		const parts = dates.length < batch.records.length ? undefined : splitWindow(window, dates, read.now);
		if (parts) {
			queue.unshift(...parts);
			continue;
		}
		// More than a page within one millisecond (or with the records without a date): that window is paged.
		const what = window.from === window.to ? `the records dated ${iso(window.from)}` : `the records from ${iso(window.from)} (some without a date)`;
		out.push(...(await readPages(io, windowRequest(read, window), what)));
		if (read.enough?.(out)) return out;
	}
	return out;
}
