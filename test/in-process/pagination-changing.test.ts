/**
 * Lists that change while Return All reads them (issue 32.1), through real executions by n8n-core:
 * records deleted or added while the first, a middle or the last page is read, on the first, a
 * middle or the last page, on a list whose pages carry `totalDocs`/`totalPages`/`hasNext`/`nextPage`
 * (customers) and on one that carries only its `count` (movements), to items and to a CSV file.
 *
 * Items hold every record of the list as it is at the end, once, in its order. A file holds each of
 * them once too; a record deleted after it was written stays in the file (a file is written as it
 * is read), and the summary counts those apart (`recordsRemovedWhileRead`) and gives the totals of
 * the reading that finished. Also: the re-read stays bounded (a platform that repeats its pages,
 * a list that keeps changing), goes on at a capped page size, and a list with only `hasNext` and
 * `nextPage` (no total: a deletion on pages read can't be seen) outputs what it can, without error.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { MAX_PASSES } from '../../nodes/SalesPayments/paging/walk';
import { readBinary, useBinaryMode } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { csvRecords } from '../support/helpers/csv';
import { growCollection } from '../support/helpers/grow';
import { listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 60 });
/** Five pages of PAGE_SIZE: the records changed are CHANGED of one page. */
const PAGES = 5;
const PAGE_SIZE = 12;
const CHANGED = 7;

interface List {
	label: string;
	resource: string;
	method: string;
	path: string;
	collection: string;
	total: string;
}

const LISTS: List[] = [
	{ label: 'customers (totalDocs, totalPages, hasNext, nextPage)', resource: 'customer', method: 'GET', path: '/customers/list', collection: 'customers', total: 'totalDocs' },
	{ label: 'movements (count only)', resource: 'movement', method: 'POST', path: '/movement/filter', collection: 'movements', total: 'count' },
];

const POSITIONS = [
	['first', 1],
	['middle', 3],
	['last', PAGES],
] as const;

const OUTPUTS = ['items', 'csvFile'] as const;

let saved = new Map<string, JsonObject[]>();

beforeAll(async () => {
	await useBinaryMode('filesystem');
	for (const list of LISTS) {
		// Exactly five pages: the primary business's records, grown or trimmed to 5 x PAGE_SIZE.
		growCollection(sim(), list.collection, PAGES * PAGE_SIZE);
		const all = sim().state.col(list.collection);
		for (const extra of listed(sim(), list.collection).slice(PAGES * PAGE_SIZE)) all.splice(all.findIndex((r) => r.id === extra.id), 1);
		expect(listed(sim(), list.collection)).toHaveLength(PAGES * PAGE_SIZE);
	}
	saved = new Map(LISTS.map((l) => [l.collection, [...sim().state.col(l.collection)]]));
});

beforeEach(() => {
	sim().clearRequests();
	sim().paging.clear();
	sim().onRequest = undefined;
	// Every test starts from the same lists.
	for (const [name, records] of saved) sim().state.col(name).splice(0, Infinity, ...records);
});

afterAll(async () => {
	sim().onRequest = undefined;
	await useBinaryMode('default');
});

let unique = 0;

/**
 * Adds a record of another business at the end of the collection: the simulator keeps movement
 * answers by the collection's length and last id, which a change of the same size would keep.
 */
function touch(list: List): void {
	sim().state.col(list.collection).push({ id: `elsewhere-${unique++}`, _businessId: 'another-business', createdAt: new Date(0).toISOString() });
}

/** Runs `change` once, when page `page` of the list is first requested. */
function onPage(list: List, page: number, change: () => void): void {
	let done = false;
	sim().onRequest = (request) => {
		if (done || request.path !== list.path || request.method !== list.method || request.query.page !== String(page)) return;
		done = true;
		change();
	};
}

/** Deletes CHANGED records of page `page` (as the list is when the change happens); their ids. */
function deleteFrom(list: List, page: number): string[] {
	const victims = listed(sim(), list.collection).slice((page - 1) * PAGE_SIZE + 2, (page - 1) * PAGE_SIZE + 2 + CHANGED);
	const all = sim().state.col(list.collection);
	for (const victim of victims) all.splice(all.findIndex((r) => r.id === victim.id), 1);
	touch(list);
	return victims.map((v) => String(v.id));
}

/** Adds CHANGED records that the platform lists on page `page` (the first page: at its head; the last: at the end). */
function addTo(list: List, page: number): string[] {
	const shown = listed(sim(), list.collection);
	const all = sim().state.col(list.collection);
	const model = all.find((r) => r.id === shown[0].id)!;
	const ids: string[] = [];
	for (let n = 0; n < CHANGED; n++) {
		// createdAt decides the place (newest first); equal dates keep the order of the collection.
		const createdAt =
			page === 1 ? new Date(Date.UTC(2030, 0, 1, 0, 0, CHANGED - n)).toISOString() : page === PAGES ? new Date(Date.UTC(2000, 0, 1, 0, 0, -n)).toISOString() : String(shown[(page - 1) * PAGE_SIZE + 2].createdAt);
		const id = `added-${list.collection}-${unique++}`;
		all.push({ ...(JSON.parse(JSON.stringify(model)) as JsonObject), id, createdAt });
		ids.push(id);
	}
	touch(list);
	return ids;
}

async function run(list: List, output: string, maxConcurrency: number) {
	const parameters: INodeParameters = { resource: list.resource, operation: 'getMany', returnAll: true, output, pagination: { pageSize: PAGE_SIZE, maxConcurrency } };
	return await runNode({ parameters }, { credentials: dataCredentials(sim()) });
}

async function fileIds(item: INodeExecutionData): Promise<string[]> {
	const text = (await readBinary(item.binary!.data)).toString('utf8');
	return csvRecords(text).records.map((r) => r.id);
}

const firstPages = (list: List) => sim().requestsTo(list.method, list.path).filter((r) => r.query.page === '1').length;

/**
 * The output against the list as it is at the end: items are that list, in its order; a file
 * holds each of its records once, plus the deleted records it had written before they went
 * (counted by `recordsRemovedWhileRead`), and the totals of the reading that finished.
 */
async function expectEnd(list: List, output: string, result: Awaited<ReturnType<typeof run>>, deleted: string[]): Promise<void> {
	const end = listed(sim(), list.collection).map((r) => String(r.id));
	expect(result.error).toBeUndefined();
	if (output === 'items') {
		expect(result.items.map((i) => String(i.json.id))).toEqual(end);
		return;
	}
	expect(result.items).toHaveLength(1);
	const ids = await fileIds(result.items[0]);
	expect(new Set(ids).size).toBe(ids.length);
	const stale = ids.filter((id) => !end.includes(id));
	expect(stale.every((id) => deleted.includes(id))).toBe(true);
	expect(ids.filter((id) => end.includes(id)).sort()).toEqual([...end].sort());
	const json = result.items[0].json;
	expect(json).toMatchObject({ records: ids.length, recordsRemovedWhileRead: stale.length });
	expect((json.totals as Record<string, unknown>)[list.total]).toBe(end.length);
}

describe.each(LISTS)('%s', (list) => {
	describe.each([
		['one page at a time', 1],
		['automatic concurrency', 0],
	])('%s', (_label, maxConcurrency) => {
		const CASES = OUTPUTS.flatMap((output) => POSITIONS.flatMap(([when, whenPage]) => POSITIONS.map(([where, wherePage]) => [output, when, whenPage, where, wherePage] as const)));

		it.each(CASES)(`to %s: ${CHANGED} records deleted while the %s page is read (page %i), from the %s page (page %i)`, async (output, _when, whenPage, _where, wherePage) => {
			let deleted: string[] = [];
			onPage(list, whenPage, () => (deleted = deleteFrom(list, wherePage)));
			const result = await run(list, output, maxConcurrency);
			expect(deleted).toHaveLength(CHANGED);
			await expectEnd(list, output, result, deleted);
			// Deleted before page 1 was answered: one reading; later, the drop of the total makes a second.
			expect(firstPages(list)).toBe(whenPage === 1 ? 1 : 2);
		});

		it.each(CASES)(`to %s: ${CHANGED} records added while the %s page is read (page %i), on the %s page (page %i)`, async (output, _when, whenPage, _where, wherePage) => {
			let added: string[] = [];
			onPage(list, whenPage, () => (added = addTo(list, wherePage)));
			const result = await run(list, output, maxConcurrency);
			expect(added).toHaveLength(CHANGED);
			await expectEnd(list, output, result, []);
			// Added where pages were already read: read again; elsewhere, once.
			if (maxConcurrency === 1) expect(firstPages(list)).toBe(wherePage < whenPage ? 2 : 1);
		});
	});

	it('the issue 32 case: the summary of a CSV file after a re-read counts the records of the end and says which rows went meanwhile', async () => {
		let deleted: string[] = [];
		onPage(list, 3, () => (deleted = deleteFrom(list, 1)));
		const result = await run(list, 'csvFile', 1);
		expect(result.error).toBeUndefined();
		const json = result.items[0].json;
		// Pages 1 and 2 were written before page 1 lost 7 records: those 7 rows stay, and are counted apart.
		expect(json.records).toBe(PAGES * PAGE_SIZE);
		expect(json.recordsRemovedWhileRead).toBe(CHANGED);
		expect((json.totals as Record<string, unknown>)[list.total]).toBe(PAGES * PAGE_SIZE - CHANGED);
		expect((await fileIds(result.items[0])).filter((id) => deleted.includes(id))).toEqual(deleted);
	});
});

describe('the re-read stays bounded', () => {
	const customers = LISTS[0];

	it('a platform that repeats its pages is still stopped during a re-read', async () => {
		onPage(customers, 3, () => deleteFrom(customers, 1));
		sim().paging.add({ mode: 'hasNextForeverSame', path: customers.path });
		const result = await run(customers, 'items', 1);
		const end = Math.ceil((PAGES * PAGE_SIZE - CHANGED) / PAGE_SIZE);
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toBe(
			`Page ${end + 1} of GET ${customers.path} brought no record that earlier pages had not already brought, though the platform says more follow`,
		);
		// Pages 1-3, then the second reading to the first repeated page.
		expect(sim().requestsTo('GET', customers.path).map((r) => Number(r.query.page))).toEqual([1, 2, 3, ...Array.from({ length: end + 1 }, (_, n) => n + 1)]);
	});

	it(`a list that keeps shrinking fails after ${MAX_PASSES} readings, to items and to a file alike`, async () => {
		for (const output of OUTPUTS) {
			sim().clearRequests();
			sim().onRequest = (request) => {
				if (request.path === customers.path && request.query.page === '2') deleteFrom(customers, 1);
			};
			const result = await run(customers, output, 1);
			expect(result.items).toHaveLength(0);
			expect(result.error?.message).toMatch(/^The list GET \/customers\/list kept changing while it was read: its total dropped from \d+ to \d+$/);
			expect(firstPages(customers)).toBe(MAX_PASSES);
		}
	});

	it(`a list that keeps growing where it was read is read ${MAX_PASSES} times, then output as the last reading found it`, async () => {
		let round = 0;
		sim().onRequest = (request) => {
			if (request.path !== customers.path || request.query.page !== '3') return;
			const all = sim().state.col('customers');
			const model = all.find((r) => r.id === listed(sim(), 'customers')[0].id)!;
			all.push({ ...(JSON.parse(JSON.stringify(model)) as JsonObject), id: `growing-${round}`, createdAt: new Date(Date.UTC(2031, 0, 1, 0, 0, round++)).toISOString() });
		};
		const result = await run(customers, 'items', 1);
		expect(result.error).toBeUndefined();
		expect(firstPages(customers)).toBe(MAX_PASSES);
		// The last reading met every record but the one added while it read its page 3.
		const end = listed(sim(), 'customers').map((r) => String(r.id));
		expect(result.items.map((i) => String(i.json.id))).toEqual(end.filter((id) => id !== `growing-${MAX_PASSES - 1}`));
	});
});

describe('other shapes of a real platform', () => {
	const customers = LISTS[0];

	it('a platform that caps its page size (at 12, 1,000 asked): the re-read goes on at the size learned', async () => {
		sim().paging.add({ mode: 'cap', cap: PAGE_SIZE, path: customers.path });
		let deleted: string[] = [];
		onPage(customers, 3, () => (deleted = deleteFrom(customers, 1)));
		const result = await runNode(
			{ parameters: { resource: 'customer', operation: 'getMany', returnAll: true, pagination: { maxConcurrency: 1 } } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(deleted).toHaveLength(CHANGED);
		await expectEnd(customers, 'items', result, deleted);
		const asked = sim().requestsTo('GET', customers.path).map((r) => `${String(r.query.page)}x${String(r.query.limit)}`);
		expect(asked).toEqual(['1x1000', '2x12', '3x12', '1x12', '2x12', '3x12', '4x12', '5x12']);
	});

	// Without totals a deletion can't be seen (docs/pagination.md); pages that bring records again are no error.
	const withoutTotals = () => sim().paging.add({ mode: 'cap', cap: 1000, path: customers.path, omit: ['totalDocs', 'totalPages'] });
	const idsOf = async (output: string, result: Awaited<ReturnType<typeof run>>) =>
		output === 'items' ? result.items.map((i) => String(i.json.id)) : await fileIds(result.items[0]);

	it.each(OUTPUTS)('only hasNext and nextPage, to %s: records added on pages read and not yet read; each record that was there throughout once, no re-read', async (output) => {
		withoutTotals();
		let early: string[] = [];
		let late: string[] = [];
		onPage(customers, 3, () => {
			early = addTo(customers, 1);
			late = addTo(customers, PAGES);
		});
		const result = await run(customers, output, 1);
		expect(result.error).toBeUndefined();
		const ids = await idsOf(output, result);
		// The records added on page 1 came after it was read: the others, in the list's order.
		expect(ids).toEqual(listed(sim(), customers.collection).map((r) => String(r.id)).filter((id) => !early.includes(id)));
		expect(ids).toEqual(expect.arrayContaining(late));
		expect(firstPages(customers)).toBe(1);
	});

	it.each(OUTPUTS)('only hasNext and nextPage, to %s: records deleted from a page not yet read', async (output) => {
		withoutTotals();
		let deleted: string[] = [];
		onPage(customers, 3, () => (deleted = deleteFrom(customers, 4)));
		const result = await run(customers, output, 1);
		expect(deleted).toHaveLength(CHANGED);
		expect(result.error).toBeUndefined();
		expect(await idsOf(output, result)).toEqual(listed(sim(), customers.collection).map((r) => String(r.id)));
	});
});
