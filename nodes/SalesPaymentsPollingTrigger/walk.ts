import type { IDataObject, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { paginate } from '../SalesPayments/shared/lists';
import type { ListRequest } from '../SalesPayments/shared/pagination';
import { walk as pagesOf } from '../SalesPayments/shared/pagination';

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

/**
 * Reads one window through the one paging walk (shared/pagination.ts: page-size caps, refused
 * sizes, wrong shapes): its records, and whether one page held the whole window. A page that says
 * nothing about more pages is confirmed by page 2 (empty: the window is whole).
 */
async function readWindow(ctx: IPollFunctions, walk: Walk, window: Window): Promise<{ records: IDataObject[]; whole: boolean }> {
	const request = walk.request({
		since: window.from > 0 ? iso(window.from) : undefined,
		until: window.to === undefined ? undefined : iso(window.to),
	});
	const records: IDataObject[] = [];
	for await (const page of pagesOf.call(ctx, { ...request, concurrency: 1, maxPages: 2 })) {
		records.push(...page.records);
		if (page.last) return { records, whole: true };
		if (page.pageNo === 1 && page.more === undefined) continue;
		return { records, whole: false };
	}
	return { records, whole: true };
}

/** Every record of the range (records on a window boundary twice), oldest windows first. */
export async function walkWindows(ctx: IPollFunctions, walk: Walk): Promise<IDataObject[]> {
	const queue: Window[] = [{ from: walk.since ?? 0 }];
	const out: IDataObject[] = [];
	for (let reads = 0; queue.length > 0; reads++) {
		if (reads >= MAX_WINDOW_READS) {
			const message = `Reading ${walk.request({}).path} took more than ${MAX_WINDOW_READS} requests`;
			throw new NodeApiError(ctx.getNode(), { message } as JsonObject, {
				message,
				description: 'The poll stopped and its cursor did not move: narrow the event with its filters or check the platform.',
			});
		}
		const window = queue[0];
		const batch = await readWindow(ctx, walk, window);
		const dates = batch.records.map((r) => walk.dateOf(r)).filter((d): d is number => d !== undefined);
		if (window.to !== undefined && dates.some((d) => d > (window.to as number))) {
			// The platform ignored the end date: windows cannot be read, the rest is paged.
			ctx.logger.warn(`Sales & Payments Polling Trigger: the platform ignored the end date of ${walk.request({}).path}; the rest of the range is read page by page`);
			const request = walk.request({ since: window.from > 0 ? iso(window.from) : undefined });
			out.push(...(await paginate.call(ctx, request)).items);
			return out;
		}
		if (batch.whole) {
			queue.shift();
			out.push(...batch.records);
			if (walk.enough?.(out)) return out;
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
