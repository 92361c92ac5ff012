import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { runCache, runCacheSet } from '../transport/cache';
import { asNodeError } from '../transport/errors';
import { MAX_CONCURRENCY, Pacer } from '../transport/pacer';
import type { ApiContext, ApiRequest } from '../transport/transport';
import { apiRequest } from '../transport/transport';
import { isPlainObject, kindOf } from '../transport/records';

/**
 * The paging module: every list of the package (Get Many, the "From list" dropdowns, the polling
 * trigger, the webhook trigger's own lookups) is read by `walk()`, one page after another or with
 * the Pacer's window of pages in flight.
 *
 * The spec shows no default or maximum `limit`, so a platform may answer fewer records than asked
 * (a cap). A page shorter than asked ends the list only when nothing says more: when the first
 * page is short and its `limit`, totals, `hasNext` or `nextPage` show more, or when it carries no
 * pagination fields at all, the walk goes on at the size the platform answered (asking page 2 of
 * that size, never mixing sizes) and later lists of the same endpoint in the same execution start
 * at it. Each record is output once (by `id`); a page number that does not advance, pages that
 * bring nothing new while more are announced, and answers that are not lists are errors, never a
 * short list. A total that drops while the list is read (deleted records shift later ones onto
 * pages already read), or records met twice with a total that rose (records added on pages
 * already read), make the walk read the list again from its start, at most MAX_PASSES times: the
 * reading that reaches the end with no drop is the one that counts (docs/pagination.md, "A list
 * that changes while it is read"). Repeats are judged within one reading, so a re-read never
 * looks like a platform that repeats its pages.
 */

/** Records per request when the user does not choose: n8n's helper costs ~1 ms a request. */
export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 1000;
/** Pages one walk may request unless the user raises Pagination › Max Pages. */
export const DEFAULT_MAX_PAGES = 10_000;
export const MAX_MAX_PAGES = 10_000_000;
export { AUTO_CONCURRENCY, AUTO_MAX_CONCURRENCY, MAX_CONCURRENCY, NETWORK_MAX_CONCURRENCY } from '../transport/pacer';
/** Page sizes tried, largest first, when the platform refuses a page size with a 400 naming `limit`. */
export const FALLBACK_PAGE_SIZES = [500, 250, 100, 50, 20, 10];
/** Readings of one list when its total keeps dropping while it is read. */
export const MAX_PASSES = 3;

/** One page as the platform returned it. */
export interface Page {
	records: IDataObject[];
	currentPage?: number;
	totalPages?: number;
	/** `totalDocs`, or `count`/`total` where a list names its total so. */
	totalDocs?: number;
	hasNext?: boolean;
	/** Null when the answer says there is no next page. */
	nextPage?: number | null;
	/** The page size the platform says it used. */
	limit?: number;
	/** The answer without its records (counts, sums). */
	summary: IDataObject;
}

export interface ListRequest extends Omit<ApiRequest, 'qs'> {
	qs?: IDataObject;
	/** Key of the records when it is not `docs`. */
	itemsKey?: string;
	/** Stop after this many records; undefined reads every page. */
	limit?: number;
	pageSize?: number;
	/**
	 * Pages in flight: 0 or undefined adapts (auto, up to `autoMax`; without one, AUTO_MAX_CONCURRENCY,
	 * or up to NETWORK_MAX_CONCURRENCY when pages are slow because of the network), N is fixed (1 = one after another).
	 */
	concurrency?: number;
	autoMax?: number;
	/** Most pages requested; reaching it while more are announced is an error. */
	maxPages?: number;
	/** The page to start from (dropdowns continue where the previous batch stopped). */
	fromPage?: number;
	/** A dropdown ends quietly where pages stop making sense, instead of failing. */
	quietEnd?: boolean;
	/**
	 * The consumer works on each page and reads the whole list (the file outputs): the next pages
	 * are requested before a page is handed over, so the platform answers while a page is written.
	 * Unset where it gains nothing (items: handing a page over takes no time) or where the consumer
	 * may stop after any page (the polling trigger, dropdowns: a request for nothing).
	 */
	readAhead?: boolean;
	/** An empty list is handed over as one empty page, for its totals (the file outputs reconcile with them). */
	reportEmpty?: boolean;
}

/**
 * What `walk()` yields: the records of page `pageNo` not output before, in the platform's order.
 * Without a `kept` set, each reading outputs its records in full (a consumer that holds them drops
 * those of earlier readings when `pass` changes); with one, no record is output twice.
 */
export interface WalkPage {
	pageNo: number;
	size: number;
	records: IDataObject[];
	/** This page's answer without its records (counts, sums): the latest a reading that finishes tells of the list. */
	summary: IDataObject;
	/** The reading this page belongs to: 1, or more when the list changed and is read again from its start. */
	pass: number;
	/** Records this reading has brought so far, each once (a re-reading's included, though not output again). */
	met: number;
	/** This page ends the list (or the limit is met). */
	last: boolean;
	/** Whether the page says more pages follow (hasNext, nextPage, totals); undefined when it says nothing. */
	more: boolean | undefined;
}

/** What a walk remembers of the records it output: `add` is false for one already there. */
export interface RecordSet {
	add(record: IDataObject): boolean;
	/** An empty set of the same kind (for the records of one reading). */
	fresh(): RecordSet;
}

/** Records already output, by identity: the `id` (1 and "1" differ), else the whole record. */
export class SeenRecords implements RecordSet {
	private readonly ids = new Set<string | number>();
	private readonly others = new Set<string>();
	/** False when the record was already there. */
	add(record: IDataObject): boolean {
		const id = record.id;
		const set: Set<string | number> = typeof id === 'string' || typeof id === 'number' ? this.ids : this.others;
		const before = set.size;
		set.add(set === this.ids ? (id as string | number) : stable(record));
		return set.size > before;
	}

	fresh(): SeenRecords {
		return new SeenRecords();
	}
}

/** A serialisation with sorted keys: equal records give equal texts. */
export function stable(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
	if (!isPlainObject(value)) return JSON.stringify(value) ?? 'null';
	return `{${Object.keys(value)
		.sort()
		.map((k) => `${JSON.stringify(k)}:${stable(value[k])}`)
		.join(',')}}`;
}

class WrongShape extends Error {}

function num(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/**
 * Reads a list answer (the body with its envelope). Records are under `docs` or `itemsKey`
 * (`movements`, `paymentLinks`), which may hold an array or a page object with its own `docs` or
 * `items` and pagination fields; a bare array is a page without pagination fields.
 */
export function readPage(body: unknown, itemsKey?: string, pageNo = 1): Page {
	const data = isPlainObject(body) && 'data' in body && 'statusCode' in body ? body.data : body;
	if (Array.isArray(data)) return { records: checkRecords(data, 'data', pageNo), summary: {} };
	if (!isPlainObject(data)) throw new WrongShape(`\`data\` is ${kindOf(data)}, not a page of records`);
	const key = itemsKey ?? 'docs';
	let holder: IDataObject | undefined;
	let list: unknown = data[key];
	let where = key;
	if (list === undefined && itemsKey !== undefined && Array.isArray(data.docs)) [list, where] = [data.docs, 'docs'];
	else if (isPlainObject(list) && itemsKey !== undefined) {
		holder = list;
		list = holder.docs ?? holder.items;
		where = `${key}.${holder.docs !== undefined || holder.items === undefined ? 'docs' : 'items'}`;
		if (list === undefined) throw new WrongShape(`\`${key}\` is an object without a \`docs\` list of records`);
	}
	if (!Array.isArray(list)) {
		throw new WrongShape(list === undefined ? `the answer has no \`${where}\` list of records` : `\`${where}\` is ${kindOf(list)}, not a list of records`);
	}
	const field = (name: string): unknown => holder?.[name] ?? data[name];
	const summary: IDataObject = {};
	for (const name of Object.keys(data)) if (name !== key && name !== 'docs') summary[name] = data[name];
	const [nextPage, hasNext] = [field('nextPage'), field('hasNext')];
	return {
		records: checkRecords(list, where, pageNo),
		currentPage: num(field('currentPage') ?? field('page')),
		totalPages: num(field('totalPages')),
		totalDocs: num(field('totalDocs') ?? field('count') ?? field('total')),
		hasNext: typeof hasNext === 'boolean' ? hasNext : undefined,
		nextPage: nextPage === null ? null : num(nextPage),
		limit: num(field('limit')),
		summary,
	};
}

function checkRecords(list: unknown[], where: string, pageNo: number): IDataObject[] {
	list.forEach((record, n) => {
		if (!isPlainObject(record)) throw new WrongShape(`record ${n + 1} of \`${where}\` on page ${pageNo} is ${kindOf(record)}, not an object`);
	});
	return list as IDataObject[];
}

/** Whether pages follow page `pageNo` of `size` records: `hasNext`, else `nextPage`, else the totals (undefined: nothing said). */
function saysMore(page: Page, pageNo: number, size: number): boolean | undefined {
	if (page.hasNext !== undefined) return page.hasNext;
	if (page.nextPage !== undefined) return page.nextPage !== null;
	if (page.totalPages !== undefined) return pageNo < page.totalPages;
	if (page.totalDocs !== undefined) return pageNo * size < page.totalDocs;
	return undefined;
}

/**
 * The size the platform used for a short first page, or undefined when the short page is the
 * whole list: its `limit` when below the size asked, else the records it sent when anything says
 * more or nothing is said at all (a bare list is then confirmed by one request for page 2).
 */
function cappedSize(first: Page, size: number): number | undefined {
	const got = first.records.length;
	if (got === 0 || got >= size) return undefined;
	if (first.limit !== undefined && first.limit >= 1 && first.limit < size) return Math.floor(first.limit);
	const silent = saysMore(first, 1, got) === undefined && first.limit === undefined;
	return silent || saysMore(first, 1, got) ? got : undefined;
}

/** The page size learned for an endpoint (a cap, or a refused size), kept for the rest of the run. */
function learned(ctx: ApiContext, req: ListRequest): number {
	return runCache(ctx, `pageSize:${req.method} ${req.path}`, () => Infinity);
}

function learn(ctx: ApiContext, req: ListRequest, size: number): void {
	runCacheSet(ctx, `pageSize:${req.method} ${req.path}`, Math.min(size, learned(ctx, req)));
}

/** A 400 whose message names `limit`: the page size was refused. */
function isPageSizeRefusal(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '400' && /\blimit\b/i.test(String(error.message));
}

/** The platform's answer can't be a list, or its pages lie: a NodeApiError naming the request. */
function listError(ctx: ApiContext, req: ListRequest, message: string, description: string): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, { message, description, itemIndex: req.itemIndex });
}

const NOT_ADVANCING = 'The page number does not advance: the list was not read to its end, and nothing of it is output.';
const REPEATS = 'The platform repeats its pages: the list was not read to its end, and nothing of it is output.';

/** What makes page `pageNo` a lie (another page number, a next page behind it), or undefined. */
function lieOf(page: Page, pageNo: number, op: string): [string, string] | undefined {
	if (page.currentPage !== undefined && page.currentPage !== pageNo) {
		return [`The platform answered page ${page.currentPage} when asked for page ${pageNo} of ${op}`, NOT_ADVANCING];
	}
	if (typeof page.nextPage === 'number' && page.nextPage <= pageNo) {
		return [`The platform gave page ${page.nextPage} as the next page after page ${pageNo} of ${op}`, NOT_ADVANCING];
	}
	return undefined;
}

async function fetchPage(ctx: ApiContext, req: ListRequest, pageNo: number, size: number, pacer: Pacer): Promise<Page> {
	const body = await apiRequest.call(ctx, {
		...req,
		// Reading a list never changes anything (a filter sent as POST included): it may be retried.
		idempotent: true,
		kind: 'read',
		qs: { ...req.qs, page: String(pageNo), limit: String(size) },
		// The body as sent: a missing or null `data` must not look like an empty list.
		raw: true,
		observe: (event) => {
			pacer.observe(event);
			req.observe?.(event);
		},
	});
	try {
		return readPage(body, req.itemsKey, pageNo);
	} catch (error) {
		// readPage throws WrongShape only.
		const what = (error as WrongShape).message;
		throw listError(
			ctx,
			req,
			`The platform's answer to ${req.method} ${req.path} (page ${pageNo}) is not a list of records: ${what}`,
			'The list was not read: no records are output from a malformed answer. Check the platform or the Base URL.',
		);
	}
}

/** The first page at `size`, or at smaller sizes while the platform refuses the size (a 400 naming `limit`). */
async function fetchFirst(ctx: ApiContext, req: ListRequest, pageNo: number, size: number, pacer: Pacer): Promise<{ page: Page; size: number }> {
	for (;;) {
		try {
			return { page: await fetchPage(ctx, req, pageNo, size, pacer), size };
		} catch (error) {
			const smaller = FALLBACK_PAGE_SIZES.find((s) => s < size);
			if (!isPageSizeRefusal(error) || smaller === undefined) throw asNodeError(ctx, error, req.itemIndex);
			learn(ctx, req, smaller);
			size = smaller;
		}
	}
}

type Totals = Pick<Page, 'totalDocs' | 'totalPages'>;

/** The total that fell below the highest one a reading has seen (records were deleted), as [was, now]. */
function drop(top: Totals, page: Page): [number, number] | undefined {
	for (const key of ['totalDocs', 'totalPages'] as const) {
		const [was, now] = [top[key], page[key]];
		if (was !== undefined && now !== undefined && now < was) return [was, now];
	}
	return undefined;
}

/** Whether a total of `top` is above the one of `first` (records were added). */
function rose(first: Totals, top: Totals): boolean {
	return (['totalDocs', 'totalPages'] as const).some((key) => (top[key] ?? -Infinity) > (first[key] ?? Infinity));
}

/** The highest totals seen so far. */
function highest(top: Totals, page: Page): Totals {
	const max = (a?: number, b?: number) => (a === undefined ? b : b === undefined ? a : Math.max(a, b));
	return { totalDocs: max(top.totalDocs, page.totalDocs), totalPages: max(top.totalPages, page.totalPages) };
}

/**
 * Reads a list page by page and yields each page's new records, in order. The consumer may stop
 * early (break); pages still in flight are settled before the walk returns. `kept`: the records
 * already output, never output again, even by a re-reading (a file, a dropdown's batches).
 */
export async function* walk(this: ApiContext, req: ListRequest, kept?: RecordSet): AsyncGenerator<WalkPage> {
	const wanted = req.limit ?? Infinity;
	const maxPages = Math.max(1, req.maxPages ?? DEFAULT_MAX_PAGES);
	const pacer = new Pacer(req.concurrency ? Math.min(req.concurrency, MAX_CONCURRENCY) : undefined, req.autoMax);
	const from = Math.max(1, req.fromPage ?? 1);
	const op = `${req.method} ${req.path}`;
	let size = Math.min(Math.max(1, req.pageSize ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE, wanted, learned(this, req));
	let read = 0;
	const inFlight = new Map<number, Promise<Page>>();
	try {
		for (let pass = 1; ; pass++) {
			await Promise.allSettled(inFlight.values());
			inFlight.clear();
			let page: Page;
			({ page, size } = await fetchFirst(this, req, from, size, pacer));
			const cap = from === 1 ? cappedSize(page, size) : undefined;
			if (cap !== undefined) learn(this, req, (size = cap));
			const total = page.totalDocs;
			const count = page.totalPages ?? (total === undefined ? undefined : Math.ceil(total / size));
			// Pages are requested ahead only up to the count the first page tells; else one at a time.
			const ahead = count === undefined ? 0 : Math.min(count, from - 1 + Math.ceil(wanted / size));
			// This reading's records: a re-reading meets again records output before, which are no repeat.
			const reading = kept && pass === 1 ? kept : (kept?.fresh() ?? new SeenRecords());
			let met = 0;
			// The highest totals of this reading: a lower one means records were deleted.
			let top: Totals = page;
			const first: Totals = { totalDocs: page.totalDocs, totalPages: page.totalPages };
			// Records added to pages already read push records read onto the next pages (met twice):
			// with a total that rose, the added ones were passed over, and the list is read again.
			let shifted = false;
			const again = () => shifted && pass < MAX_PASSES && rose(first, top);
			let next = from + 1;
			for (let pageNo = from; ; pageNo++) {
				read++;
				const lie = lieOf(page, pageNo, op);
				if (lie && req.quietEnd) return;
				if (lie) throw listError(this, req, ...lie);
				const fell = drop(top, page);
				if (fell) {
					if (pass < MAX_PASSES) break;
					const [was, now] = fell;
					throw listError(
						this,
						req,
						`The list ${op} kept changing while it was read: its total dropped from ${was} to ${now}`,
						`Records removed while a list is read move later records onto pages already read. It was read ${pass} times; nothing of it is output. Narrow it with filters, or run again when it changes less.`,
					);
				}
				top = highest(top, page);
				if (page.records.length === 0) {
					if (again()) break;
					// A re-reading that finds the list empty: its consumer learns that the earlier reading is void.
					if ((pass > 1 || req.reportEmpty) && pageNo === from) yield { pageNo, size, records: [], summary: page.summary, pass, met, last: true, more: false };
					return;
				}
				const records: IDataObject[] = [];
				const before = met;
				for (const record of page.records) {
					if (met >= wanted) break;
					if (!reading.add(record)) {
						shifted = true;
						continue;
					}
					met++;
					// A record an earlier reading output is not output again when the consumer keeps them.
					if (reading === kept || !kept || kept.add(record)) records.push(record);
				}
				const more = saysMore(page, pageNo, size);
				if (met === before && met < wanted) {
					// Nothing new: the end of a platform that sends its whole list for every page, a lie if it says more.
					if (more !== true && again()) break;
					if (more !== true || req.quietEnd) return;
					throw listError(
						this,
						req,
						`Page ${pageNo} of ${op} brought no record that earlier pages had not already brought, though the platform says more follow`,
						REPEATS,
					);
				}
				const end = met >= wanted || more === false || (more === undefined && page.records.length < size);
				const last = end && !again();
				// Keep the window of pages in flight full, within the page bound.
				const fill = async () => {
					while (inFlight.size < pacer.window && next - pageNo <= maxPages - read && (next === pageNo + 1 || next <= ahead)) {
						await pacer.ready();
						pacer.started();
						const request = fetchPage(this, req, next, size, pacer);
						// Awaited in order below; a page left behind (the list ended) must not reject unhandled.
						request.catch(() => undefined);
						inFlight.set(next++, request);
					}
				};
				// A consumer that reads the whole list: the platform works on the next page while it handles this one.
				if (!end && req.readAhead) await fill();
				yield { pageNo, size, records, summary: page.summary, pass, met, last, more };
				if (last) return;
				if (end) break;
				if (read >= maxPages) {
					throw new NodeOperationError(this.getNode(), `Return All stopped after ${maxPages} pages of ${op}: the platform says more follow`, {
						description: `Raise Pagination › Max Pages (now ${maxPages}) to read further, or narrow the list with filters. No records are output from an incomplete list.`,
						itemIndex: req.itemIndex,
					});
				}
				await fill();
				const pending = inFlight.get(pageNo + 1) as Promise<Page>;
				inFlight.delete(pageNo + 1);
				const asked = Date.now();
				page = await pending;
				pacer.waited(Date.now() - asked);
			}
		}
	} finally {
		await Promise.allSettled(inFlight.values());
	}
}
