import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { ListRequest } from '../paging/pages';
import { MAX_MAX_PAGES, SeenRecords, walk } from '../paging/walk';
import { strictInteger } from '../transport/numbers';

/** Records per page requested for a dropdown. */
const PAGE_SIZE = 100;
/** A filtered batch stops once it has this many matches... */
const WANTED_MATCHES = 50;
/** ...or after this many pages: the next batch comes when the user scrolls. */
const PAGES_PER_BATCH = 5;

/**
 * Where a batch starts: the paginationToken this function handed out, `<page>` or, when the
 * platform capped its pages below PAGE_SIZE, `<page>x<size>`; anything else starts at page 1.
 */
function startOf(token: string | undefined): { fromPage: number; pageSize: number } {
	const [page, size] = (token ?? '').split('x');
	const fromPage = strictInteger(page, 1);
	const pageSize = size === undefined ? PAGE_SIZE : strictInteger(size, 1);
	return fromPage === undefined || pageSize === undefined || pageSize > PAGE_SIZE ? { fromPage: 1, pageSize: PAGE_SIZE } : { fromPage, pageSize };
}

interface PageBatch {
	records: IDataObject[];
	/** Where the next batch starts; undefined when the list ended. */
	next?: { page: number; size: number };
}

/**
 * One batch: pages from `req.fromPage` until `wanted` records pass `keep` or `maxPages` pages
 * were read, one request at a time. Pages that stop making sense end the batch quietly.
 */
async function readPageBatch(
	this: ILoadOptionsFunctions,
	req: ListRequest,
	options: { maxPages: number; wanted: number; keep: (record: IDataObject) => boolean },
): Promise<PageBatch> {
	const records: IDataObject[] = [];
	let read = 0;
	for await (const page of walk.call(this, { ...req, concurrency: 1, maxPages: MAX_MAX_PAGES, quietEnd: true }, new SeenRecords())) {
		for (const record of page.records) if (options.keep(record)) records.push(record);
		if (page.last) break;
		if (++read >= options.maxPages || records.length >= options.wanted) return { records, next: { page: page.pageNo + 1, size: page.size } };
	}
	return { records };
}

function tokenOf(next: PageBatch['next'], prefix = ''): string | undefined {
	if (next === undefined) return undefined;
	return `${prefix}${next.page}${next.size === PAGE_SIZE ? '' : `x${next.size}`}`;
}

/**
 * Fills a resource locator's list from a paginated endpoint, a batch of pages at a time (n8n asks
 * for the next batch with paginationToken when the user scrolls). The user's text narrows the
 * records by name or id; `filterRequest` may hand it to the platform instead (for example a full
 * email address), and when the platform finds nothing that way the pages are searched as usual.
 */
export async function searchList(
	this: ILoadOptionsFunctions,
	filter: string | undefined,
	paginationToken: string | undefined,
	options: {
		request: ListRequest;
		label: (record: IDataObject) => string;
		value?: (record: IDataObject) => string;
		url?: (record: IDataObject) => string | undefined;
		filterRequest?: (text: string) => ListRequest | undefined;
	},
): Promise<INodeListSearchResult> {
	const needle = (filter ?? '').trim().toLowerCase();
	const entry = (record: IDataObject) => ({
		name: options.label(record),
		value: options.value ? options.value(record) : String(record.id),
		url: options.url?.(record),
	});

	// The token of a platform-filtered search starts with "f": its pages are those of the filtered list.
	const onPlatform = needle ? options.filterRequest?.(needle) : undefined;
	if (onPlatform && (paginationToken === undefined || paginationToken === '' || paginationToken.startsWith('f'))) {
		const tokenPage = paginationToken?.slice(1);
		const found = await readPageBatch.call(
			this,
			{ ...onPlatform, ...startOf(tokenPage) },
			{
				maxPages: 1,
				wanted: PAGE_SIZE,
				keep: () => true,
			},
		);
		if (found.records.length > 0 || tokenPage) {
			return {
				results: found.records.map(entry),
				paginationToken: tokenOf(found.next, 'f'),
			};
		}
	}

	const matches = (record: IDataObject) => {
		if (!needle) return true;
		const { name, value } = entry(record);
		return name.toLowerCase().includes(needle) || value.toLowerCase().includes(needle);
	};
	const found = await readPageBatch.call(
		this,
		{ ...options.request, ...startOf(paginationToken) },
		{
			maxPages: needle ? PAGES_PER_BATCH : 1,
			wanted: needle ? WANTED_MATCHES : PAGE_SIZE,
			keep: matches,
		},
	);
	return {
		results: found.records.map(entry),
		paginationToken: tokenOf(found.next),
	};
}

/** A whole email address, which a platform's email filter matches whatever its rule for parts. */
export function isWholeEmail(text: string): boolean {
	return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);
}
