import type { IDataObject, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { asNodeError } from '../SalesPayments/shared/errors';
import { paginate } from '../SalesPayments/shared/lists';
import type { ListRequest, Page } from '../SalesPayments/shared/pagination';
import { DEFAULT_PAGE_SIZE, FALLBACK_PAGE_SIZES, readPage } from '../SalesPayments/shared/pagination';
import { apiRequest } from '../SalesPayments/shared/transport';

/**
 * Reading a range of dates while the platform changes the list, without losing a record.
 *
 * Walking pages 1, 2, 3 ... of one query is not safe: a record deleted from page 1 while page 2 is
 * read shifts the list, and the first record of the old page 2 is never read (an insertion shifts
 * it the other way: a record read twice, which the callers' de-duplication absorbs). Totals that
 * change catch a deletion alone, not a deletion and an insertion together.
 *
 * So the range is read in date windows, each answered by ONE page that holds the whole window
 * (the page says nothing follows). One answer is the platform's state at one moment, and the
 * windows cover the range: a record that exists during the whole read, and whose date (the one
 * the endpoint filters by) does not change meanwhile, is in the answer of its window whatever is
 * deleted or inserted elsewhere. A window whose page is full is split at the median date of that
 * page (in the middle when the dates do not help), so the walk adapts to whatever order the
 * platform answers in. Windows are read oldest first: a caller may stop once it has enough, as
 * every record not read is dated after every record read.
 *
 * Window ends are inclusive (the spec's end dates mean "at or before"): a record dated exactly on
 * a boundary comes twice. A short page that says nothing about further pages is confirmed by an
 * empty page 2 (a capped page would otherwise look complete). Two cases fall back to reading
 * pages: more records than a page within one millisecond (that millisecond is paged), and a
 * platform that ignores the end date (the rest of the range is paged, and n8n's log says so).
 */

export interface Walk {
	/** The list request for one window (ISO dates; no `since`: from the beginning, no `until`: open). */
	request(window: { since?: string; until?: string }): ListRequest;
	/** Epoch ms of the date the endpoint filters by, for a record. */
	dateOf(record: IDataObject): number | undefined;
	/** Start of the range, epoch ms (undefined: from the beginning). */
	since?: number;
	/** The poll's own clock: where an open window is closed when it must be split. */
	now: number;
	/** Stop before the next window once the records read so far are enough. */
	enough?(records: IDataObject[]): boolean;
}

interface Window {
	from: number;
	to?: number;
}

/** Window answers one read may ask for before it gives up. */
export const MAX_WINDOW_READS = 5_000;

/** A 400 whose message names `limit`: the page size was refused (the same rule as pagination.ts). */
function refusesSize(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '400' && /\blimit\b/i.test(String(error.message));
}

function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/**
 * Two windows covering `window`, split at the median date of its full page (or the middle);
 * undefined when it cannot be split (one millisecond).
 */
function split(window: Window, dates: number[], now: number): [Window, Window] | undefined {
	const { from, to } = window;
	const inside = dates.filter((d) => d >= from && (to === undefined || d <= to)).sort((a, b) => a - b);
	const median = inside[Math.floor(inside.length / 2)];
	if (to === undefined) {
		// Open window: close it at the median, or past the newest date seen and the poll's clock.
		const top = Math.max(now, inside[inside.length - 1] ?? from, from) + 1;
		const at = median !== undefined && median > from ? median : top;
		return [{ from, to: at }, { from: at }];
	}
	const at = median !== undefined && median > from && median < to ? median : from + Math.floor((to - from) / 2);
	return at > from && at < to ? [{ from, to: at }, { from: at, to }] : undefined;
}

type WindowAnswer = 'complete' | 'full' | 'capped';

async function fetchPage(ctx: IPollFunctions, request: ListRequest, pageNo: number, size: number): Promise<Page> {
	const body = await apiRequest.call(ctx, {
		...request,
		qs: { ...request.qs, page: String(pageNo), limit: String(size) },
		// A list read changes nothing: it may be repeated, and a filter sent as POST is still a read.
		idempotent: true,
		kind: 'read',
		raw: true,
	});
	try {
		return readPage(body, request.itemsKey, pageNo);
	} catch (error) {
		const message = `The platform's answer to ${request.method} ${request.path} is not a list of records: ${(error as Error).message}`;
		throw new NodeApiError(ctx.getNode(), { message } as JsonObject, { message, description: 'The poll stopped and its cursor did not move.' });
	}
}

/** Reads page 1 of one window: its records, and whether it holds the whole window. */
async function readWindow(ctx: IPollFunctions, walk: Walk, window: Window, size: number): Promise<{ records: IDataObject[]; answer: WindowAnswer }> {
	const request = walk.request({
		since: window.from > 0 ? iso(window.from) : undefined,
		until: window.to === undefined ? undefined : iso(window.to),
	});
	const page = await fetchPage(ctx, request, 1, size);
	const n = page.records.length;
	// Anything that says more counts (a short page is not the end while something says more).
	const saysMore =
		page.hasNext === true ||
		(typeof page.nextPage === 'number' && page.nextPage > 1) ||
		(page.totalPages !== undefined && page.totalPages > 1) ||
		(page.totalDocs !== undefined && page.totalDocs > n);
	const toldNothing = page.hasNext === undefined && page.nextPage === undefined && page.totalPages === undefined && page.totalDocs === undefined;
	const records = page.records;
	if (n === 0) return { records, answer: 'complete' };
	if (toldNothing && n < size) {
		// A short page that says nothing may be a capped one: an empty page 2 shows it is not.
		const second = await fetchPage(ctx, request, 2, size);
		return { records, answer: second.records.length === 0 ? 'complete' : 'capped' };
	}
	if (!saysMore && !(toldNothing && n >= size)) return { records, answer: 'complete' };
	// A page that says it used a smaller size, or holds fewer records than asked while saying more: a capped page.
	return { records, answer: n >= size && !(page.limit !== undefined && page.limit < size) ? 'full' : 'capped' };
}

/** Every record of the range (records on a window boundary twice), oldest windows first. */
export async function walkWindows(ctx: IPollFunctions, walk: Walk): Promise<IDataObject[]> {
	const queue: Window[] = [{ from: walk.since ?? 0 }];
	const out: IDataObject[] = [];
	let size = DEFAULT_PAGE_SIZE;
	for (let reads = 0; queue.length > 0; reads++) {
		if (reads >= MAX_WINDOW_READS) {
			const message = `Reading ${walk.request({}).path} took more than ${MAX_WINDOW_READS} requests`;
			throw new NodeApiError(ctx.getNode(), { message } as JsonObject, {
				message,
				description: 'The poll stopped and its cursor did not move: narrow the event with its filters or check the platform.',
			});
		}
		const window = queue[0];
		let batch: { records: IDataObject[]; answer: WindowAnswer };
		try {
			batch = await readWindow(ctx, walk, window, size);
		} catch (error) {
			const smaller = FALLBACK_PAGE_SIZES.find((s) => s < size);
			if (!refusesSize(error) || smaller === undefined) throw asNodeError(ctx, error);
			size = smaller;
			continue;
		}
		const dates = batch.records.map((r) => walk.dateOf(r)).filter((d): d is number => d !== undefined);
		if (window.to !== undefined && dates.some((d) => d > (window.to as number))) {
			// The platform ignored the end date: windows cannot be read, the rest is paged.
			ctx.logger.warn(`Sales & Payments Polling Trigger: the platform ignored the end date of ${walk.request({}).path}; the rest of the range is read page by page`);
			const request = walk.request({ since: window.from > 0 ? iso(window.from) : undefined });
			out.push(...(await paginate.call(ctx, request)).items);
			return out;
		}
		if (batch.answer === 'complete') {
			queue.shift();
			out.push(...batch.records);
			if (walk.enough?.(out)) return out;
			continue;
		}
		if (batch.answer === 'capped') {
			// A shorter page than asked that says more: the platform caps its pages. Ask for that size.
			size = Math.max(1, batch.records.length);
			continue;
		}
		queue.shift();
		const halves = split(window, dates, walk.now);
		if (halves) {
			queue.unshift(...halves);
			continue;
		}
		// More than a page within one millisecond: that millisecond is paged.
		out.push(...(await paginate.call(ctx, walk.request({ since: iso(window.from), until: iso(window.to as number) }))).items);
		if (walk.enough?.(out)) return out;
	}
	return out;
}
