import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Page, WrongShape } from './page-reader';
import { readPage, SeenRecords } from './page-reader';
import { Pacer } from './pacer';
import type { ApiContext, ApiRequest, AttemptEvent } from './transport';
import { apiRequest } from './transport';
import { strictInteger } from './validation';

export type { Page } from './page-reader';
export { readPage } from './page-reader';

/**
 * Records per request when the user does not choose. Measured in `npm run bench` (bench/results.md):
 * n8n's request helper costs about a millisecond per request, so larger pages narrow the gap to
 * a plain keep-alive loop. A platform that refuses 1000 gets smaller pages (FALLBACK_PAGE_SIZES).
 */
export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 1000;
/** Pages one Return All may request unless the user raises Pagination › Max Pages. */
export const DEFAULT_MAX_PAGES = 10_000;
export const MAX_MAX_PAGES = 10_000_000;
/** Max Concurrent Requests 0: the window adapts (pacer.ts), up to AUTO_MAX_CONCURRENCY. */
export const AUTO_CONCURRENCY = 0;
export const AUTO_MAX_CONCURRENCY = 8;
/** Most concurrent page requests a list may be given. */
export const MAX_CONCURRENCY = 16;
/** Page sizes tried, largest first, when the platform refuses a page size (its maximum is not documented). */
export const FALLBACK_PAGE_SIZES = [500, 250, 100, 50, 20, 10];

export interface ListRequest extends Omit<ApiRequest, 'qs'> {
	qs?: IDataObject;
	/** Key of the records when it is not `docs`. */
	itemsKey?: string;
	/** Stop after this many records; undefined walks every page. */
	limit?: number;
	pageSize?: number;
	/**
	 * Page requests in flight once the first page tells the total: 0 or undefined adapts the
	 * number (auto), N is a fixed number (1 = one after another).
	 */
	concurrency?: number;
	/** Most pages requested (DEFAULT_MAX_PAGES when undefined); reaching it with more to come is an error. */
	maxPages?: number;
}

export interface ListResult {
	items: IDataObject[];
	/** Everything of the first page except its records (counts, sums). */
	summary: IDataObject;
}

/** "POST /movement/filter", for messages. */
function operationOf(req: ListRequest): string {
	return `${req.method} ${req.path}`;
}

/** The platform's answer can't be a list, or its pages lie: a NodeApiError naming the operation. */
function listError(ctx: ApiContext, req: ListRequest, message: string, description: string): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, {
		message,
		description,
		itemIndex: req.itemIndex,
	});
}

async function fetchPage(ctx: ApiContext, req: ListRequest, pageNo: number, size: number, pacer: Pacer): Promise<Page> {
	const observe = req.observe;
	const body = await apiRequest.call(ctx, {
		...req,
		// Reading a list never changes anything, so it may be retried.
		idempotent: req.idempotent ?? true,
		qs: { ...req.qs, page: String(pageNo), limit: String(size) },
		// The body as sent: a missing or null `data` must not look like an empty list.
		raw: true,
		// A filter sent as POST still only reads: never the warnings of a write.
		kind: 'read',
		observe: observe
			? (event: AttemptEvent) => {
					pacer.observe(event);
					observe(event);
				}
			: (event: AttemptEvent) => pacer.observe(event),
	});
	try {
		return readPage(body, req.itemsKey, pageNo);
	} catch (error) {
		// readPage throws WrongShape only.
		throw listError(
			ctx,
			req,
			`The platform's answer to ${operationOf(req)} (page ${pageNo}) is not a list of records: ${(error as WrongShape).message}`,
			'The list was not read: no records are output from a malformed answer. Check the platform or the Base URL.',
		);
	}
}

/** A 400 whose message names `limit`: the page size was refused. */
export function isPageSizeRefusal(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	return String(error.httpCode) === '400' && /\blimit\b/i.test(String(error.message));
}

/** The smallest page size refused so far, per execution context and path, so later items start below it. */
const refusedSizes = new WeakMap<object, Map<string, number>>();

function refusedSize(ctx: ApiContext, path: string): number {
	return refusedSizes.get(ctx)?.get(path) ?? Infinity;
}

function rememberRefusal(ctx: ApiContext, path: string, size: number): void {
	let perContext = refusedSizes.get(ctx);
	if (!perContext) {
		perContext = new Map();
		refusedSizes.set(ctx, perContext);
	}
	perContext.set(path, Math.min(size, perContext.get(path) ?? Infinity));
}

/**
 * Requests the first page. When the platform refuses the page size (a 400 naming `limit`), it
 * tries the next smaller size of FALLBACK_PAGE_SIZES, and later lists of the same execution
 * start below the refused size. Returns the page and the size that was accepted.
 */
async function fetchFirstPage(
	ctx: ApiContext,
	req: ListRequest,
	wantedSize: number,
	pacer: Pacer,
): Promise<{ page: Page; size: number }> {
	let size = wantedSize;
	const refused = refusedSize(ctx, req.path);
	if (size >= refused) size = FALLBACK_PAGE_SIZES.find((s) => s < refused) ?? size;
	for (;;) {
		try {
			return { page: await fetchPage(ctx, req, 1, size, pacer), size };
		} catch (error) {
			const smaller = FALLBACK_PAGE_SIZES.find((s) => s < size);
			if (!isPageSizeRefusal(error) || smaller === undefined) {
				// Both constructors hand back an error of their own class unchanged.
				if (error instanceof NodeApiError) throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
				throw new NodeOperationError(ctx.getNode(), error as Error);
			}
			rememberRefusal(ctx, req.path, size);
			size = smaller;
		}
	}
}

/**
 * How many pages the list has, when the first page tells: `totalPages`, or a total count with a
 * full first page (the platform honoured the page size, so the count of pages follows). Only a
 * hint for requesting pages ahead: pages decide where the list ends.
 */
export function knownPageCount(first: Page, size: number): number | undefined {
	if (first.totalPages !== undefined) return first.totalPages;
	if (first.totalDocs !== undefined && first.records.length === size) return Math.ceil(first.totalDocs / size);
	return undefined;
}

/**
 * Whether the platform says that pages follow `page` (page number `pageNo`, `collected`
 * different records so far): `hasNext`, else `nextPage`, else the totals, which a short page
 * overrides (the list ends where pages end, whatever a total says). Undefined when nothing tells.
 */
function saysMore(page: Page, pageNo: number, size: number, collected: number): boolean | undefined {
	if (page.hasNext !== undefined) return page.hasNext;
	if (page.nextPage !== undefined) return page.nextPage !== null;
	const short = page.records.length < size;
	if (page.totalPages !== undefined) return !short && pageNo < page.totalPages;
	if (page.totalDocs !== undefined) return !short && collected < page.totalDocs;
	return undefined;
}

/** Whether a page, on arrival, already shows that no later page is needed. */
function endsList(page: Page, pageNo: number, size: number): boolean {
	if (page.records.length === 0) return true;
	if (page.currentPage !== undefined && page.currentPage !== pageNo) return true;
	if (page.hasNext !== undefined) return !page.hasNext;
	if (page.nextPage !== undefined) return page.nextPage === null || page.nextPage <= pageNo;
	return page.records.length < size && (page.totalPages !== undefined || page.totalDocs !== undefined);
}

interface PageFailure {
	pageNo: number;
	error: unknown;
}

/**
 * Walks a paginated list: every page (Return All) or until `limit` records, and outputs each
 * record once, in the platform's order.
 *
 * The list ends at an empty page, `hasNext: false`, `nextPage: null`, a short page when only a
 * total says more, or when the limit is met. It fails with a NodeApiError naming the operation
 * when an answer is not a list of records, when a page answers another page number than the
 * one asked for, or when a page brings no record not already output while the platform says
 * more follow (a platform that ignores `page` and says nothing about pages ends cleanly there).
 * It fails naming Pagination › Max Pages when that many pages were read and more are announced.
 *
 * When the first page tells the total, later pages are requested ahead with the Pacer's window
 * (auto or fixed), never more than the window beyond the last page read in order, and never
 * beyond a page that ends the list; a total alone never makes it request further.
 */
export async function paginate(this: ApiContext, req: ListRequest): Promise<ListResult> {
	const pageSize = Math.min(Math.max(1, req.pageSize ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
	const wanted = req.limit ?? Infinity;
	const maxPages = Math.max(1, req.maxPages ?? DEFAULT_MAX_PAGES);
	const fixed = req.concurrency === undefined || req.concurrency === AUTO_CONCURRENCY ? undefined : req.concurrency;
	const pacer = new Pacer(fixed === undefined ? undefined : Math.min(Math.max(1, fixed), MAX_CONCURRENCY), AUTO_MAX_CONCURRENCY);

	const { page: first, size } = await fetchFirstPage(this, req, Number.isFinite(wanted) ? Math.min(pageSize, wanted) : pageSize, pacer);
	const items: IDataObject[] = [];
	const seen = new SeenRecords();

	/** Outputs the page's new records; returns whether the next page is wanted. */
	const commit = (pageNo: number, page: Page): boolean => {
		if (page.currentPage !== undefined && page.currentPage !== pageNo) {
			throw listError(
				this,
				req,
				`The platform answered page ${page.currentPage} when asked for page ${pageNo} of ${operationOf(req)}`,
				'The page number does not advance: Return All stopped instead of reading the same records again. The records read so far are not output.',
			);
		}
		if (page.nextPage !== undefined && page.nextPage !== null && page.nextPage <= pageNo) {
			throw listError(
				this,
				req,
				`The platform gave page ${page.nextPage} as the next page after page ${pageNo} of ${operationOf(req)}`,
				'The page number does not advance: Return All stopped instead of reading the same records again. The records read so far are not output.',
			);
		}
		const records = page.records;
		if (records.length === 0) return false;
		let added = 0;
		for (let n = 0; n < records.length && items.length < wanted; n++) {
			const record = records[n];
			if (seen.add(record)) {
				items.push(record);
				added++;
			}
		}
		const more = saysMore(page, pageNo, size, items.length);
		if (added === 0 && items.length < wanted) {
			if (more === true) {
				throw listError(
					this,
					req,
					`Page ${pageNo} of ${operationOf(req)} brought no record that earlier pages had not already brought, though the platform says more follow`,
					'The platform repeats its pages: Return All stopped instead of requesting them forever. The records read so far are not output.',
				);
			}
			// Nothing says that pages follow: a platform that sends its whole list for every page.
			return false;
		}
		if (items.length >= wanted || more === false) return false;
		if (pageNo >= maxPages) {
			throw new NodeOperationError(
				this.getNode(),
				`Return All stopped after ${maxPages} pages of ${operationOf(req)}: the platform says more follow`,
				{
					description: `Raise Pagination › Max Pages (now ${maxPages}) to read further, or narrow the list with filters. No records are output from an incomplete list.`,
					itemIndex: req.itemIndex,
				},
			);
		}
		return true;
	};

	if (!commit(1, first)) return { items, summary: first.summary ?? {} };

	// Pages requested ahead when the first page tells the total; one after another otherwise.
	const count = knownPageCount(first, size);
	const ahead = count === undefined ? 1 : Math.min(count, Math.ceil(wanted / size), maxPages);
	let committed = 1;
	let wantNext = true;
	let next = 2;
	let end = Infinity;
	let failure: PageFailure | undefined;
	let commitError: unknown;
	const arrived = new Map<number, Page>();
	const inFlight = new Set<Promise<void>>();

	const startable = (pageNo: number): boolean =>
		failure === undefined &&
		commitError === undefined &&
		wantNext &&
		pageNo <= end &&
		pageNo <= maxPages &&
		pageNo <= committed + pacer.window &&
		(pageNo <= ahead || pageNo === committed + 1);

	const commitInOrder = () => {
		while (wantNext && commitError === undefined && arrived.has(committed + 1)) {
			const pageNo = committed + 1;
			const page = arrived.get(pageNo) as Page;
			arrived.delete(pageNo);
			committed = pageNo;
			try {
				wantNext = commit(pageNo, page);
			} catch (error) {
				commitError = error;
			}
		}
	};

	const start = (pageNo: number) => {
		const request: Promise<void> = fetchPage(this, req, pageNo, size, pacer).then(
			(page) => {
				if (endsList(page, pageNo, size) && pageNo < end) end = pageNo;
				arrived.set(pageNo, page);
				commitInOrder();
			},
			(error: unknown) => {
				// Keep the failure of the earliest page; later pages are not requested.
				if (failure === undefined || pageNo < failure.pageNo) failure = { pageNo, error };
			},
		);
		inFlight.add(request);
		void request.finally(() => inFlight.delete(request));
	};

	for (;;) {
		while (inFlight.size < pacer.window && startable(next)) {
			await pacer.ready();
			if (inFlight.size >= pacer.window || !startable(next)) break;
			pacer.started();
			start(next++);
		}
		if (inFlight.size === 0) break;
		await Promise.race(inFlight);
	}
	if (commitError !== undefined) throw commitError;
	// A failed page matters only when the list had not ended before it.
	if (failure !== undefined && wantNext && failure.pageNo > committed) throw failure.error;
	return { items, summary: first.summary ?? {} };
}

/** Return All / Limit fields every list operation shows. */
export const listFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export interface ListSettings {
	limit?: number;
	pageSize: number;
	concurrency: number;
	maxPages: number;
}

function wholeNumber(value: unknown, fallback: number): number {
	if (value === undefined || value === null || value === '') return fallback;
	// Digits only (an expression may give a string): "1e3", "0x10", 2.5 or -1 read as NaN, refused below.
	return strictInteger(value, 0) ?? NaN;
}

/** Reads Return All / Limit / Pagination options of item `i` and validates them, before any request. */
export function readListSettings(this: IExecuteFunctions, i: number): ListSettings {
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	const paging = this.getNodeParameter('pagination', i, {}) as IDataObject;
	const check = (value: number, ok: boolean, message: string) => {
		if (!Number.isInteger(value) || !ok) throw new NodeOperationError(this.getNode(), message, { itemIndex: i });
		return value;
	};
	const pageSize = wholeNumber(paging.pageSize, DEFAULT_PAGE_SIZE);
	check(pageSize, pageSize >= 1 && pageSize <= MAX_PAGE_SIZE, `Page Size must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
	const concurrency = wholeNumber(paging.maxConcurrency, AUTO_CONCURRENCY);
	check(
		concurrency,
		concurrency >= 0 && concurrency <= MAX_CONCURRENCY,
		`Max Concurrent Requests must be a whole number from 0 (auto) to ${MAX_CONCURRENCY}`,
	);
	const maxPages = wholeNumber(paging.maxPages, DEFAULT_MAX_PAGES);
	check(maxPages, maxPages >= 1 && maxPages <= MAX_MAX_PAGES, `Max Pages must be a whole number from 1 to ${MAX_MAX_PAGES}`);
	if (returnAll) return { pageSize, concurrency, maxPages };
	const limit = wholeNumber(this.getNodeParameter('limit', i, 50), NaN);
	if (!Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(this.getNode(), 'Limit must be a whole number of at least 1', { itemIndex: i });
	}
	return { limit, pageSize, concurrency, maxPages };
}

/** Page size, concurrency and the page bound, under a "Pagination" collection. */
export const paginationOptionsField: INodeProperties = {
	displayName: 'Pagination',
	name: 'pagination',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrency',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_CONCURRENCY },
			default: AUTO_CONCURRENCY,
			description: `How many pages to request at the same time once the first page tells how many there are. 0 (auto) starts with one and adds more while pages come back quickly, up to ${AUTO_MAX_CONCURRENCY}, and slows down when the platform asks to (429). A number from 1 to ${MAX_CONCURRENCY} is used as is (1 = one after another). Records keep their order.`,
		},
		{
			displayName: 'Max Pages',
			name: 'maxPages',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_MAX_PAGES },
			default: DEFAULT_MAX_PAGES,
			description:
				'Most pages one run requests for this list. When the platform still announces more after this many, the node fails with an error instead of requesting pages forever: raise it for longer lists.',
		},
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
			default: DEFAULT_PAGE_SIZE,
			description:
				'Records requested per page. The platform does not document its maximum: if it refuses this size, smaller pages are requested.',
		},
	],
};

/** The list fields plus the pagination options: spread into a list operation's properties. */
export const listProperties: INodeProperties[] = [...listFields, paginationOptionsField];

/** Runs a list operation with the item's Return All / Limit / Pagination settings. */
export async function listAll(this: IExecuteFunctions, i: number, req: ListRequest): Promise<ListResult> {
	const settings = readListSettings.call(this, i);
	return await paginate.call(this, { ...req, itemIndex: i, ...settings });
}

export interface PageBatch {
	records: IDataObject[];
	/** The page to read next; undefined when the list ended (or stopped making sense). */
	nextPage?: number;
}

/**
 * Reads pages one after another from `fromPage` until `wanted` records pass `keep`, the list
 * ends, or `maxPages` pages were read: one batch of a "From list" dropdown, which asks for the
 * next batch (paginationToken) when the user scrolls. A page that answers another page number,
 * a next page that does not advance, or a page with nothing new ends the batch without a next
 * page, so a platform that lies can't make the dropdown request forever.
 */
export async function readPageBatch(
	this: ApiContext,
	req: ListRequest,
	fromPage: number,
	options: { pageSize: number; maxPages: number; wanted: number; keep: (record: IDataObject) => boolean },
): Promise<PageBatch> {
	const pacer = new Pacer(1, 1);
	const seen = new SeenRecords();
	const records: IDataObject[] = [];
	for (let pageNo = fromPage, read = 0; read < options.maxPages; pageNo++, read++) {
		const page = await fetchPage(this, req, pageNo, options.pageSize, pacer);
		if (page.currentPage !== undefined && page.currentPage !== pageNo) return { records };
		let added = 0;
		for (const record of page.records) {
			if (!seen.add(record)) continue;
			added++;
			if (options.keep(record)) records.push(record);
		}
		// Records up to this page, as far as a total can be compared with: full pages before it.
		const upTo = (pageNo - 1) * options.pageSize + page.records.length;
		const more = saysMore(page, pageNo, options.pageSize, upTo) ?? page.records.length === options.pageSize;
		const advances = page.nextPage === undefined || page.nextPage === null || page.nextPage > pageNo;
		if (added === 0 || !more || !advances) return { records };
		if (records.length >= options.wanted) return { records, nextPage: pageNo + 1 };
	}
	return { records, nextPage: fromPage + options.maxPages };
}
