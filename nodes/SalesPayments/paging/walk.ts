import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ApiContext } from '../transport/transport';
import { gateFor } from '../transport/transport';
import { MAX_CONCURRENCY } from '../transport/concurrency';
import { isPlainObject } from '../transport/records';
import type { ListRequest, Page } from './pages';
import { cappedSize, DEFAULT_PAGE_SIZE, fetchFirst, fetchPage, learn, learned, contradictionOf, listError, MAX_PAGE_SIZE, REPEATS, saysMore } from './pages';

/**
 * `walk()`: every list of the package (Get Many, the dropdowns, both triggers' look-ups) is read
 * here, a page at a time or with the window's pages in flight. A list ends only where the platform
 * says so (a short page is a cap to keep reading at, not an end, when anything says more); each
 * record is output once; a list that changes while read is read again, at most MAX_PASSES times.
 * The rules and why: docs/pagination.md.
 */

/** Pages one walk may request unless the user raises Pagination › Max Pages. */
export const DEFAULT_MAX_PAGES = 10_000;
export const MAX_MAX_PAGES = 10_000_000;
/** Readings of one list when its total keeps dropping while it is read. */
export const MAX_PASSES = 3;
/** Pages a starved automatic walk asks for ahead, per request its window lets be in flight: the requests beyond wait for a slot, so the window sees the demand. */
export const LOOKAHEAD = 2;

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
		// has() then add(): a third less CPU than add() and two reads of `size` (100,000 records a Return All).
		if (typeof id === 'string' || typeof id === 'number') {
			if (this.ids.has(id)) return false;
			this.ids.add(id);
			return true;
		}
		const key = stable(record);
		if (this.others.has(key)) return false;
		this.others.add(key);
		return true;
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
	const fixed = req.concurrency ? Math.min(req.concurrency, MAX_CONCURRENCY) : undefined;
	// The credential's window, shared with every other run of it (transport/gate.ts): auto pages ahead follow it.
	const gate = await gateFor.call(this, req);
	// Pages ahead: the window's worth, twice that while the walk waits for the pages it needs (the
	// requests beyond wait for a slot: the window sees the demand). A walk whose pages are already
	// there when it reads them gains nothing from more in flight but answers held in memory.
	let starved = true;
	const budget = () => fixed ?? Math.min(req.autoMax ?? Infinity, (starved ? LOOKAHEAD : 1) * gate.window);
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
			({ page, size } = await fetchFirst(this, req, from, size));
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
				const contradiction = contradictionOf(page, pageNo, op);
				if (contradiction && req.quietEnd) return;
				if (contradiction) throw listError(this, req, ...contradiction);
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
					// Nothing new: the end of a platform that sends its whole list for every page, a contradiction if it says more.
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
				const fill = () => {
					while (inFlight.size < budget() && next - pageNo <= maxPages - read && (next === pageNo + 1 || next <= ahead)) {
						const request = fetchPage(this, req, next, size);
						// Awaited in order below; a page left behind (the list ended) must not reject unhandled.
						request.catch(() => undefined);
						inFlight.set(next++, request);
					}
				};
				// A consumer that reads the whole list: the platform works on the next page while it handles
				// this one (a turn of the event loop lets the requests just made go out before it does).
				if (!end && req.readAhead) {
					fill();
					await sleep(0);
				}
				yield { pageNo, size, records, summary: page.summary, pass, met, last, more };
				if (last) return;
				if (end) break;
				if (read >= maxPages) {
					throw new NodeOperationError(this.getNode(), `Return All stopped after ${maxPages} pages of ${op}: the platform says more follow`, {
						description: `Raise Pagination › Max Pages (now ${maxPages}) to read further, or narrow the list with filters. No records are output from an incomplete list.`,
						itemIndex: req.itemIndex,
					});
				}
				fill();
				const pending = inFlight.get(pageNo + 1) as Promise<Page>;
				inFlight.delete(pageNo + 1);
				const asked = Date.now();
				page = await pending;
				starved = Date.now() > asked;
			}
		}
	} finally {
		await Promise.allSettled(inFlight.values());
	}
}

/**
 * Records one Return All holds for its output items unless the user raises Pagination › Max
 * Records. 100,000 movements take ~70 MB of heap (bench/results.md); n8n needs about as much again
 * to save the execution, so 250,000 leave room in the smallest default heap (~1 GB, 2 GB RAM).
 */
export const DEFAULT_MAX_RECORDS = 250_000;
export const MAX_MAX_RECORDS = 10_000_000;

export interface ListResult {
	items: IDataObject[];
	/** The answer of the last page of the reading that finished, without its records (counts, sums). */
	summary: IDataObject;
}

/**
 * Every record of a list (or `limit` of them) as one array. Holding them is bounded: a list with
 * more than `maxRecords` records fails before they are held, saying what to do instead.
 */
export async function paginate(this: ApiContext, req: ListRequest & { maxRecords?: number }): Promise<ListResult> {
	const maxRecords = req.maxRecords ?? DEFAULT_MAX_RECORDS;
	const items: IDataObject[] = [];
	let summary: IDataObject = {};
	let pass = 1;
	for await (const page of walk.call(this, req)) {
		// The list changed and is read again: the items are those of the reading that finishes.
		if (page.pass !== pass) [items.length, pass] = [0, page.pass];
		summary = page.summary;
		if (items.length + page.records.length > maxRecords) {
			throw new NodeOperationError(
				this.getNode(),
				`${req.method} ${req.path} has more than ${maxRecords.toLocaleString('en-US')} records, the most one run holds in memory (Pagination › Max Records)`,
				{
					description:
						'Read fewer at a time with Limit or filters (for example a date range), write the list to a file with Output › CSV File or JSON Lines File, or raise Max Records if your n8n has the memory. No records are output.',
					itemIndex: req.itemIndex,
				},
			);
		}
		for (const record of page.records) items.push(record);
	}
	return { items, summary };
}
