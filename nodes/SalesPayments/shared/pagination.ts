import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiContext, ApiRequest } from './transport';
import { apiRequest } from './transport';

/**
 * Records per request when the user does not choose. Measured in `npm run bench` (bench/results.md):
 * n8n's request helper costs a few milliseconds per request (a new connection, the credential's
 * expressions), so Return All of 100,000 records took ~1.7x a plain keep-alive loop at 100 per
 * page and ~1.2x at 1000 per page. A platform that refuses 1000 gets smaller pages
 * (FALLBACK_PAGE_SIZES).
 */
export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 1000;
/** No list is walked beyond this many pages, whatever the server says. */
export const HARD_PAGE_CAP = 100_000;

/** One page as the platform returns it, normalised. */
export interface Page {
	items: IDataObject[];
	currentPage?: number;
	totalPages?: number;
	totalDocs?: number;
	hasNext?: boolean;
	nextPage?: number | null;
	hasNextPresent: boolean;
	nextPagePresent: boolean;
	/** The page payload without the records (summaries such as `count`, `totalValue`). */
	summary: IDataObject;
}

function num(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/**
 * Reads the records and pagination fields of a list payload. Records are under `docs` (spec
 * part 1) or under another key (`movements`, `paymentLinks`); such a key may hold an array or
 * an object with its own `docs` and pagination fields, so both are accepted.
 */
export function readPage(data: IDataObject, itemsKey?: string): Page {
	let container: IDataObject = data;
	let items: unknown;
	const keyed = itemsKey ? data[itemsKey] : undefined;
	if (Array.isArray(keyed)) items = keyed;
	else if (keyed && typeof keyed === 'object') {
		container = { ...data, ...(keyed as IDataObject) };
		items = (keyed as IDataObject).docs ?? (keyed as IDataObject).items;
	} else if (Array.isArray(data.docs)) items = data.docs;
	else if (Array.isArray(data)) items = data;
	else if (!itemsKey) items = Object.values(data).find((v) => Array.isArray(v));
	const list = Array.isArray(items) ? (items as IDataObject[]) : [];
	const summary: IDataObject = {};
	for (const [key, value] of Object.entries(data)) {
		if (key !== (itemsKey ?? 'docs') && key !== 'docs') summary[key] = value;
	}
	return {
		items: list,
		currentPage: num(container.currentPage ?? container.page),
		totalPages: num(container.totalPages),
		totalDocs: num(container.totalDocs ?? container.count ?? container.total),
		hasNext: typeof container.hasNext === 'boolean' ? container.hasNext : undefined,
		nextPage: container.nextPage === null ? null : num(container.nextPage),
		hasNextPresent: typeof container.hasNext === 'boolean',
		nextPagePresent: 'nextPage' in container,
		summary,
	};
}

/** Decides whether another page exists after `page` (1-based) given what was collected. */
export function hasMorePages(page: Page, requested: number, collected: number): boolean {
	if (page.items.length === 0) return false;
	if (page.hasNextPresent) return page.hasNext === true;
	if (page.nextPagePresent) return page.nextPage !== null && page.nextPage !== undefined;
	if (page.totalPages !== undefined) return (page.currentPage ?? requested) < page.totalPages;
	if (page.totalDocs !== undefined) return collected < page.totalDocs;
	// Nothing tells where the list ends: keep going until an empty page.
	return true;
}

export interface ListRequest extends Omit<ApiRequest, 'qs'> {
	qs?: IDataObject;
	/** Key of the records when it is not `docs`. */
	itemsKey?: string;
	/** Stop after this many records; undefined walks every page. */
	limit?: number;
	pageSize?: number;
	/** Up to this many page requests at once once the total page count is known (1 = sequential). */
	concurrency?: number;
}

export interface ListResult {
	items: IDataObject[];
	/** Everything of the first page except its records (counts, sums). */
	summary: IDataObject;
}

async function fetchPage(ctx: ApiContext, req: ListRequest, pageNo: number, pageSize: number): Promise<Page> {
	const data = await apiRequest.call(ctx, {
		...req,
		// Reading a list never changes anything, so it may be retried.
		idempotent: req.idempotent ?? true,
		qs: { ...(req.qs ?? {}), page: String(pageNo), limit: String(pageSize) },
	});
	return readPage(data, req.itemsKey);
}

/** Page sizes tried, largest first, when the platform refuses a page size (its maximum is not documented). */
export const FALLBACK_PAGE_SIZES = [500, 250, 100, 50, 20, 10];

/** Most concurrent page requests a list may make. */
export const MAX_CONCURRENCY = 16;

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
async function fetchFirstPage(ctx: ApiContext, req: ListRequest, wantedSize: number): Promise<{ page: Page; size: number }> {
	let size = wantedSize;
	const refused = refusedSize(ctx, req.path);
	if (size >= refused) size = FALLBACK_PAGE_SIZES.find((s) => s < refused) ?? size;
	for (;;) {
		try {
			return { page: await fetchPage(ctx, req, 1, size), size };
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

/** Appends without spreading, so that a very large page cannot overflow the call stack. */
function append(target: IDataObject[], records: IDataObject[]): void {
	for (const record of records) target.push(record);
}

/**
 * How many pages the list has, when the first page tells: `totalPages`, or a total count with a
 * full first page (the platform honoured the page size, so the count of pages follows).
 */
export function knownPageCount(first: Page, size: number): number | undefined {
	if (first.totalPages !== undefined) return first.totalPages;
	if (first.totalDocs !== undefined && first.items.length === size) return Math.ceil(first.totalDocs / size);
	return undefined;
}

interface PageFailure {
	pageNo: number;
	error: unknown;
}

/**
 * Requests pages `from`..`to` with up to `concurrency` requests in flight (a new request starts
 * as soon as one ends) and returns their records in page order. Pages after an empty page are
 * not used; a failure stops new requests and is thrown once those in flight have ended, unless
 * it came from a page after the end of the list.
 */
async function fetchPagesConcurrently(
	ctx: ApiContext,
	req: ListRequest,
	size: number,
	from: number,
	to: number,
	concurrency: number,
): Promise<IDataObject[][]> {
	const pages: IDataObject[][] = [];
	const walk: { next: number; end: number; failure?: PageFailure } = { next: from, end: to };
	const worker = async (): Promise<void> => {
		while (walk.failure === undefined && walk.next <= walk.end) {
			const pageNo = walk.next++;
			try {
				const page = await fetchPage(ctx, req, pageNo, size);
				pages[pageNo - from] = page.items;
				if (page.items.length === 0 && pageNo < walk.end) walk.end = pageNo;
			} catch (error) {
				// Another worker may have failed meanwhile: keep the failure of the earliest page.
				const earlier = walk.failure as PageFailure | undefined;
				if (earlier === undefined || pageNo < earlier.pageNo) walk.failure = { pageNo, error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, to - from + 1) }, worker));
	const end = walk.end;
	// Read through a cast: the workers assign it, which the compiler's narrowing does not see.
	const failure = walk.failure as PageFailure | undefined;
	if (failure !== undefined && failure.pageNo <= end) throw failure.error;
	const ordered: IDataObject[][] = [];
	for (let n = from; n <= end; n++) {
		const records = pages[n - from] ?? [];
		if (records.length === 0) break;
		ordered.push(records);
	}
	return ordered;
}

/**
 * Walks a paginated list: every page (Return All) or until `limit` records. It stops on
 * `hasNext: false`, `nextPage: null`, the last page, an empty page or a total reached, and
 * never requests more than HARD_PAGE_CAP pages or a page it has already requested. With
 * `concurrency` > 1 and a known page count, the remaining pages are requested concurrently;
 * the records keep their order.
 */
export async function paginate(this: ApiContext, req: ListRequest): Promise<ListResult> {
	const pageSize = Math.min(Math.max(1, req.pageSize ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
	const wanted = req.limit ?? Infinity;
	const { page: first, size } = await fetchFirstPage(this, req, Number.isFinite(wanted) ? Math.min(pageSize, wanted) : pageSize);
	const summary = first.summary;
	const items: IDataObject[] = [];
	append(items, first.items);
	const concurrency = Math.max(1, Math.min(req.concurrency ?? 1, MAX_CONCURRENCY));
	const pageCount = concurrency > 1 ? knownPageCount(first, size) : undefined;
	if (pageCount !== undefined && items.length < wanted && hasMorePages(first, 1, items.length)) {
		const lastPage = Math.min(pageCount, HARD_PAGE_CAP, Math.ceil(wanted / size));
		if (lastPage >= 2) {
			for (const records of await fetchPagesConcurrently(this, req, size, 2, lastPage, concurrency)) append(items, records);
		}
	} else {
		let page = first;
		let pageNo = 1;
		const seen = new Set<number>([1]);
		while (items.length < wanted && hasMorePages(page, pageNo, items.length)) {
			const next = page.nextPage ?? (page.currentPage ?? pageNo) + 1;
			if (seen.has(next) || seen.size >= HARD_PAGE_CAP) break;
			seen.add(next);
			pageNo = next;
			page = await fetchPage(this, req, pageNo, size);
			append(items, page.items);
		}
	}
	if (items.length > wanted) items.length = wanted;
	return { items, summary };
}

/** Return All / Limit / page size / concurrency fields every list operation shows. */
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

/** Reads Return All / Limit / page size options of item `i` and validates them. */
export function readListSettings(
	this: IExecuteFunctions,
	i: number,
): { limit?: number; pageSize: number; concurrency: number } {
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	const paging = this.getNodeParameter('pagination', i, {}) as IDataObject;
	const pageSize = Number(paging.pageSize ?? DEFAULT_PAGE_SIZE);
	if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
		throw new NodeOperationError(this.getNode(), `Page Size must be a whole number from 1 to ${MAX_PAGE_SIZE}`, {
			itemIndex: i,
		});
	}
	const concurrency = Number(paging.maxConcurrency ?? 1);
	if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
		throw new NodeOperationError(this.getNode(), `Max Concurrent Requests must be a whole number from 1 to ${MAX_CONCURRENCY}`, {
			itemIndex: i,
		});
	}
	if (returnAll) return { pageSize, concurrency };
	const limit = Number(this.getNodeParameter('limit', i, 50));
	if (!Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(this.getNode(), 'Limit must be a whole number of at least 1', { itemIndex: i });
	}
	return { limit, pageSize, concurrency };
}

/** Page size and concurrency, under an "Pagination" collection shown with Return All. */
export const paginationOptionsField: INodeProperties = {
	displayName: 'Pagination',
	name: 'pagination',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
			default: DEFAULT_PAGE_SIZE,
			description:
				'Records requested per page. The platform does not document its maximum: if it refuses this size, smaller pages are requested.',
		},
		{
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
			default: 1,
			description:
				'How many pages to request at the same time once the number of pages is known (1 = one after another). Records keep their order.',
		},
	],
};

/** The list fields plus the pagination options: spread into a list operation's properties. */
export const listProperties: INodeProperties[] = [...listFields, paginationOptionsField];

/** Runs a list operation with the item's Return All / Limit settings. */
export async function listAll(this: IExecuteFunctions, i: number, req: ListRequest): Promise<ListResult> {
	const settings = readListSettings.call(this, i);
	return await paginate.call(this, { ...req, itemIndex: i, ...settings });
}
