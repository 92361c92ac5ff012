import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiContext, ApiRequest } from './transport';
import { apiRequest } from './transport';

/** Records per request when the user does not choose; measured in `npm run bench`. */
export const DEFAULT_PAGE_SIZE = 100;
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

/**
 * Walks a paginated list: every page (Return All) or until `limit` records. It stops on
 * `hasNext: false`, `nextPage: null`, the last page, an empty page or a total reached, and
 * never requests more than HARD_PAGE_CAP pages or a page it has already requested.
 */
export async function paginate(this: ApiContext, req: ListRequest): Promise<ListResult> {
	const pageSize = Math.min(Math.max(1, req.pageSize ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
	const wanted = req.limit ?? Infinity;
	const size = Number.isFinite(wanted) ? Math.min(pageSize, wanted) : pageSize;
	const items: IDataObject[] = [];
	const first = await fetchPage(this, req, 1, size);
	const summary = first.summary;
	items.push(...first.items);
	let page = first;
	let pageNo = 1;
	const concurrency = Math.max(1, Math.min(req.concurrency ?? 1, 16));
	if (
		concurrency > 1 &&
		first.totalPages !== undefined &&
		hasMorePages(first, 1, items.length) &&
		items.length < wanted
	) {
		// The page count is known: request the remaining pages in bounded parallel batches,
		// keeping their order.
		const lastPage = Math.min(first.totalPages, HARD_PAGE_CAP, Math.ceil(wanted / size));
		for (let start = 2; start <= lastPage && items.length < wanted; start += concurrency) {
			const numbers: number[] = [];
			for (let n = start; n < start + concurrency && n <= lastPage; n++) numbers.push(n);
			const pages = await Promise.all(numbers.map(async (n) => await fetchPage(this, req, n, size)));
			let ended = false;
			for (const p of pages) {
				items.push(...p.items);
				if (p.items.length === 0) {
					ended = true;
					break;
				}
			}
			if (ended) break;
		}
		return { items: items.slice(0, wanted), summary };
	}
	const seen = new Set<number>([1]);
	while (items.length < wanted && hasMorePages(page, pageNo, items.length)) {
		const next = page.nextPage ?? (page.currentPage ?? pageNo) + 1;
		if (seen.has(next) || seen.size >= HARD_PAGE_CAP) break;
		seen.add(next);
		pageNo = next;
		page = await fetchPage(this, req, pageNo, size);
		items.push(...page.items);
	}
	return { items: Number.isFinite(wanted) ? items.slice(0, wanted) : items, summary };
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
	if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
		throw new NodeOperationError(this.getNode(), 'Max Concurrent Requests must be a whole number from 1 to 16', {
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
			description: 'Records requested per page (the platform does not document its maximum)',
		},
		{
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 16 },
			default: 1,
			description:
				'With Return All, how many pages to request at once once the total page count is known. Output order is kept.',
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
