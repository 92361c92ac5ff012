import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { runCache, runCacheSet } from '../transport/cache';
import { asNodeError } from '../transport/errors';
import type { DateFilter } from '../transport/endpoints';
import type { ApiContext, ApiRequest } from '../transport/transport';
import { apiRequest } from '../transport/transport';
import { isPlainObject, describeValue, setOwn } from '../transport/records';
import { readCount, readNumber as num } from './totals';

/**
 * One page of a list, read as the walk (walk.ts) asks for it: the request (page size refused or
 * capped by the platform, learned for the rest of the run), the answer read in whichever shape the
 * spec allows, and what makes a page contradict itself (another page number, a next page behind it).
 */

/** Records per request when the user does not choose: n8n's helper costs ~1 ms a request. */
export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 1000;
/** Page sizes tried, largest first, when the platform refuses a page size with a 400 naming `limit`. */
export const FALLBACK_PAGE_SIZES = [500, 250, 100, 50, 20, 10];

/** One page as the platform returned it. */
export interface Page {
	records: IDataObject[];
	currentPage?: number;
	totalPages?: number;
	/** The list's count: `totalDocs`, or `count`/`total` where a list names it so (totals.ts reads it). */
	totalDocs?: number;
	hasNext?: boolean;
	/** Null when the answer says there is no next page. */
	nextPage?: number | null;
	/** The page size the platform says it used. */
	limit?: number;
	/** The answer without its records (counts, sums; those of a page object holding the records first). */
	summary: IDataObject;
}

export interface ListRequest extends Omit<ApiRequest, 'qs'> {
	qs?: IDataObject;
	/** Key of the records when it is not `docs`. */
	itemsKey?: string;
	/** The list's creation-date filter (transport/endpoints.ts), where it has one. */
	dates?: DateFilter;
	/** Stop after this many records; undefined reads every page. */
	limit?: number;
	pageSize?: number;
	/**
	 * Pages in flight: 0 or undefined follows the credential's automatic window (transport/gate.ts)
	 * and reads up to twice as many pages ahead, at most `autoMax` (the file outputs' memory bound);
	 * N is fixed (1 = one after another).
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


class WrongShape extends Error {}

/**
 * Reads a list answer (the body with its envelope). Records are under `docs` or `itemsKey`
 * (`movements`, `paymentLinks`), which may hold an array or a page object with its own `docs` or
 * `items` and pagination fields; a bare array is a page without pagination fields.
 */
export function readPage(body: unknown, itemsKey?: string, pageNo = 1): Page {
	const data = isPlainObject(body) && 'data' in body && 'statusCode' in body ? body.data : body;
	if (Array.isArray(data)) return { records: checkRecords(data, 'data', pageNo), summary: {} };
	if (!isPlainObject(data)) throw new WrongShape(`\`data\` is ${describeValue(data)}, not a page of records`);
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
		throw new WrongShape(list === undefined ? `the answer has no \`${where}\` list of records` : `\`${where}\` is ${describeValue(list)}, not a list of records`);
	}
	// One view of the page's fields, those of the object holding the records first: the walk and the reconciliation read the same.
	const summary: IDataObject = {};
	for (const name of Object.keys(data)) if (name !== key && name !== 'docs') setOwn(summary, name, data[name]);
	if (holder) for (const name of Object.keys(holder)) if (name !== 'docs' && name !== 'items' && (holder[name] ?? null) !== null) setOwn(summary, name, holder[name]);
	const field = (name: string): unknown => summary[name];
	const [nextPage, hasNext] = [field('nextPage'), field('hasNext')];
	return {
		records: checkRecords(list, where, pageNo),
		currentPage: num(field('currentPage') ?? field('page')),
		totalPages: num(field('totalPages')),
		totalDocs: readCount(summary),
		hasNext: typeof hasNext === 'boolean' ? hasNext : undefined,
		nextPage: nextPage === null ? null : num(nextPage),
		limit: num(field('limit')),
		summary,
	};
}

function checkRecords(list: unknown[], where: string, pageNo: number): IDataObject[] {
	list.forEach((record, n) => {
		if (!isPlainObject(record)) throw new WrongShape(`record ${n + 1} of \`${where}\` on page ${pageNo} is ${describeValue(record)}, not an object`);
	});
	return list as IDataObject[];
}

/** Whether pages follow page `pageNo` of `size` records: `hasNext`, else `nextPage`, else the totals (undefined: nothing said). */
export function saysMore(page: Page, pageNo: number, size: number): boolean | undefined {
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
export function cappedSize(first: Page, size: number): number | undefined {
	const got = first.records.length;
	if (got === 0 || got >= size) return undefined;
	if (first.limit !== undefined && first.limit >= 1 && first.limit < size) return Math.floor(first.limit);
	const silent = saysMore(first, 1, got) === undefined && first.limit === undefined;
	return silent || saysMore(first, 1, got) ? got : undefined;
}

/** The page size learned for an endpoint (a cap, or a refused size), kept for the rest of the run. */
export function learned(ctx: ApiContext, req: ListRequest): number {
	return runCache(ctx, `pageSize:${req.method} ${req.path}`, () => Infinity);
}

export function learn(ctx: ApiContext, req: ListRequest, size: number): void {
	runCacheSet(ctx, `pageSize:${req.method} ${req.path}`, Math.min(size, learned(ctx, req)));
}

/** A 400 whose message names `limit`: the page size was refused. */
function isPageSizeRefusal(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '400' && /\blimit\b/i.test(String(error.message));
}

/** The platform's answer can't be a list, or its pages contradict themselves: a NodeApiError naming the request. */
export function listError(ctx: ApiContext, req: ListRequest, message: string, description: string): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, { message, description, itemIndex: req.itemIndex });
}

export const NOT_ADVANCING = 'The page number does not advance: the list was not read to its end, and nothing of it is output.';
export const REPEATS = 'The platform repeats its pages: the list was not read to its end, and nothing of it is output.';

/** What makes page `pageNo` contradict itself (another page number, a next page behind it), or undefined. */
export function contradictionOf(page: Page, pageNo: number, op: string): [string, string] | undefined {
	if (page.currentPage !== undefined && page.currentPage !== pageNo) {
		return [`The platform answered page ${page.currentPage} when asked for page ${pageNo} of ${op}`, NOT_ADVANCING];
	}
	if (typeof page.nextPage === 'number' && page.nextPage <= pageNo) {
		return [`The platform gave page ${page.nextPage} as the next page after page ${pageNo} of ${op}`, NOT_ADVANCING];
	}
	return undefined;
}

export async function fetchPage(ctx: ApiContext, req: ListRequest, pageNo: number, size: number): Promise<Page> {
	const body = await apiRequest.call(ctx, {
		...req,
		// Reading a list never changes anything (a filter sent as POST included): it may be retried.
		idempotent: true,
		kind: 'read',
		qs: { ...req.qs, page: String(pageNo), limit: String(size) },
		// The body as sent: a missing or null `data` must not look like an empty list.
		raw: true,
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

/**
 * The first page at `size`, or at smaller sizes while the platform refuses the size (a 400 naming
 * `limit`). Items of one run read side by side: the other walks of the endpoint wait for the first
 * one's first page, so that they start at the size it learned.
 */
export async function fetchFirst(ctx: ApiContext, req: ListRequest, pageNo: number, size: number): Promise<{ page: Page; size: number }> {
	let mine: Promise<{ page: Page; size: number }> | undefined;
	const sizing = runCache(ctx, `sizing:${req.method} ${req.path}`, () => (mine = firstAtSize(ctx, req, pageNo, size)));
	if (mine) return await mine;
	await sizing.catch(() => undefined);
	return await firstAtSize(ctx, req, pageNo, Math.min(size, learned(ctx, req)));
}

async function firstAtSize(ctx: ApiContext, req: ListRequest, pageNo: number, size: number): Promise<{ page: Page; size: number }> {
	for (;;) {
		try {
			const page = await fetchPage(ctx, req, pageNo, size);
			// A capped first page: the other walks waiting for this one start at the platform's size.
			const cap = pageNo === 1 ? cappedSize(page, size) : undefined;
			if (cap !== undefined) learn(ctx, req, cap);
			return { page, size };
		} catch (error) {
			const smaller = FALLBACK_PAGE_SIZES.find((s) => s < size);
			if (!isPageSizeRefusal(error) || smaller === undefined) throw asNodeError(ctx, error, req.itemIndex);
			learn(ctx, req, smaller);
			size = smaller;
		}
	}
}
