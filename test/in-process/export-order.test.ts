/**
 * File Options › Order › Oldest First (issue 53), through real executions by n8n-core against the
 * simulator: the rows in creation order whatever the platform's order, every record once, the
 * counts reconciled, with a list that changes while it is read (seeded generative runs: records
 * added as the newest, records removed, bursts of records within one millisecond, page sizes);
 * lists that cannot keep those guarantees refused before any request.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { readBinary, useBinaryMode } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { csvRecords } from '../support/helpers/csv';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { addRecord, removeRecord } from '../support/simulator/routes/records';
import { rng as random } from '../support/simulator/state';

const sim = useSimulator();

const iso = (ms: number) => new Date(ms).toISOString();

async function exportOf(parameters: INodeParameters) {
	const { items, error } = await runNode({ parameters }, { credentials: dataCredentials(sim()) });
	return { items, error, item: items[0] as INodeExecutionData | undefined };
}

/** The records of a JSON Lines file, in file order. */
async function linesOf(item: INodeExecutionData | undefined): Promise<Array<Record<string, unknown>>> {
	if (!item?.binary) return [];
	const text = (await readBinary(item.binary.data)).toString('utf8').trim();
	return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

function ascending(dates: string[]): boolean {
	return dates.every((d, k) => k === 0 || Date.parse(d) >= Date.parse(dates[k - 1]));
}

beforeEach(() => {
	sim().paging.clear();
	sim().clearRequests();
	sim().onRequest = undefined;
});

afterAll(async () => {
	await useBinaryMode('default');
});

describe('Oldest First: a month of movements', () => {
	const MONTH = { from: Date.parse('2031-03-01T03:00:00.000Z'), to: Date.parse('2031-04-01T02:59:59.999Z') };
	const movements = () =>
		sim()
			.state.col('movements')
			.filter((m) => m._businessId === sim().credentials.businessId && Date.parse(String(m.createdAt)) >= MONTH.from && Date.parse(String(m.createdAt)) <= MONTH.to);

	beforeAll(() => {
		const next = random(7);
		for (let n = 0; n < 240; n++) {
			const value = Math.round((next() - 0.3) * 100_000);
			addRecord(sim(), 'movements', { createdAt: iso(MONTH.from + Math.floor(next() * (MONTH.to - MONTH.from))), valueInCents: value, subject: `m${n}` });
		}
	});

	const month = (extra: INodeParameters): INodeParameters => ({
		resource: 'movement',
		operation: 'getMany',
		returnAll: true,
		filters: { initialDate: iso(MONTH.from), endDate: iso(MONTH.to) },
		pagination: { pageSize: 50 },
		...extra,
	});

	it('to CSV: every movement of the month once, oldest first, adding up (the platform lists them newest first)', async () => {
		await useBinaryMode('filesystem');
		const expected = movements();
		const { item, error } = await exportOf(month({ output: 'csvFile', fileOptions: { order: 'oldestFirst' } }));
		expect(error).toBeUndefined();
		const rows = csvRecords((await readBinary(item!.binary!.data)).toString('utf8')).records;
		expect(rows.map((r) => r.id).sort()).toEqual(expected.map((m) => String(m.id)).sort());
		expect(ascending(rows.map((r) => r.createdAt))).toBe(true);
		expect(rows[0].createdAt < rows[rows.length - 1].createdAt).toBe(true);
		expect(item!.json).toMatchObject({ records: expected.length, recordsRemovedWhileRead: 0, repeatedRecordsSkipped: 0, reconciled: true, totals: { count: expected.length } });
		// About twice the requests of As Listed (5 pages of 50), one of them for the month's figures.
		const requests = sim().requestsTo('POST', '/movement/filter').length;
		expect(item!.json.pages).toBe(requests);
		expect(requests).toBeLessThanOrEqual(2 * Math.ceil(expected.length / 50) + 3);
		// Every request within the month; the platform's order was newest first.
		for (const r of sim().requestsTo('POST', '/movement/filter')) {
			const body = r.body as { initialDate?: string; endDate?: string };
			expect(Date.parse(body.initialDate!)).toBeGreaterThanOrEqual(MONTH.from);
			expect(Date.parse(body.endDate!)).toBeLessThanOrEqual(MONTH.to);
		}
		const asListed = await exportOf(month({ output: 'csvFile' }));
		const listed = csvRecords((await readBinary(asListed.item!.binary!.data)).toString('utf8')).records.map((r) => r.createdAt);
		expect(listed[0] > listed[listed.length - 1]).toBe(true);
	});

	it('with Limit: the oldest records', async () => {
		const oldest = movements()
			.sort((a, b) => Date.parse(String(a.createdAt)) - Date.parse(String(b.createdAt)))
			.slice(0, 30);
		const { item } = await exportOf(month({ output: 'jsonLinesFile', returnAll: false, limit: 30, fileOptions: { order: 'oldestFirst' } }));
		const rows = await linesOf(item);
		expect(rows.map((r) => r.createdAt)).toEqual(oldest.map((m) => m.createdAt));
	});

	it('movements added while the month is read (each the newest): all in the file, in their place at the end, adding up', async () => {
		const before = movements().length;
		let asked = 0;
		const added: string[] = [];
		sim().onRequest = (request) => {
			if (request.path !== '/movement/filter' || ++asked > 4) return;
			const newest = Math.max(...movements().map((m) => Date.parse(String(m.createdAt))));
			added.push(String(addRecord(sim(), 'movements', { createdAt: iso(Math.min(MONTH.to, newest + 1000)), valueInCents: 1234, subject: `added ${asked}` }).id));
		};
		const { item, error } = await exportOf(month({ output: 'jsonLinesFile', fileOptions: { order: 'oldestFirst' } }));
		expect(error).toBeUndefined();
		const rows = await linesOf(item);
		expect(rows).toHaveLength(before + 4);
		expect(ascending(rows.map((r) => String(r.createdAt)))).toBe(true);
		expect(rows.slice(-4).map((r) => r.id)).toEqual(added);
		expect(item!.json).toMatchObject({ reconciled: true, records: before + 4 });
	});
});

describe('Oldest First: refused before any request where it cannot keep its guarantees', () => {
	it.each([
		['pixel', {}],
		['paymentLink', {}],
		['business', {}],
	])('%s Get Many: a list without a date filter', async (resource, extra) => {
		const { error } = await exportOf({ resource, operation: 'getMany', returnAll: true, output: 'jsonLinesFile', fileOptions: { order: 'oldestFirst' }, ...extra });
		expect(error?.message).toMatch(/^File Options › Order: Oldest First needs a list the platform filters by creation date, and GET \/[\w/-]+ has no such filter: choose As Listed$/);
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('refund requests sorted by the platform (Options › Sort) as well', async () => {
		const { error } = await exportOf({
			resource: 'refund',
			operation: 'getMany',
			returnAll: true,
			output: 'csvFile',
			options: { orderDirection: 'DESC' },
			fileOptions: { order: 'oldestFirst' },
		});
		expect(error?.message).toBe('File Options › Order: Oldest First orders the rows by date, and Options › Sort asks the platform for another order: remove one of them');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('an Order that is none of the two', async () => {
		const { error } = await exportOf({ resource: 'customer', operation: 'getMany', returnAll: true, output: 'csvFile', fileOptions: { order: 'newestFirst' } });
		expect(error?.message).toBe('Order must be one of asListed, oldestFirst (got "newestFirst")');
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Oldest First: a platform that ignores the date filter', () => {
	it('fails saying so, with no file (the rows could not be put in date order)', async () => {
		sim().paging.add({ mode: 'ignoreDateFilter', path: '/customers/list' });
		const { error, items } = await exportOf({
			resource: 'customer',
			operation: 'getMany',
			returnAll: true,
			output: 'jsonLinesFile',
			filters: { createdAfter: '2031-01-01T00:00:00Z', createdBefore: '2031-12-31T00:00:00Z' },
			pagination: { pageSize: 20 },
			fileOptions: { order: 'oldestFirst' },
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/^The platform answered GET \/customers\/list with a record dated .*, outside the dates asked .*, so Oldest First cannot read it in date order$/);
	});
});

/**
 * Seeded generative runs on customers (a list read by createdAt[startsAt]/[endsAt], newest first):
 * records at random dates of a year, some in bursts within one millisecond, a random page size,
 * and while the list is read random changes (up to 6, on any request for records): a customer
 * added as the newest, or a random customer removed (before or after it was written).
 */
describe('Oldest First: a list that changes while it is read (seeded generative runs)', () => {
	const YEAR = { from: Date.parse('2032-01-01T00:00:00.000Z'), to: Date.parse('2032-12-31T23:59:59.999Z') };
	const inYear = () =>
		sim()
			.state.col('customers')
			.filter((c) => c._businessId === sim().credentials.businessId && Date.parse(String(c.createdAt)) >= YEAR.from && Date.parse(String(c.createdAt)) <= YEAR.to);

	it.each(Array.from({ length: 24 }, (_, k) => k + 1))('seed %i: ascending, every record once, reconciled exactly when no written record was removed', async (seed) => {
		const next = random(seed);
		for (const c of inYear()) removeRecord(sim(), 'customers', String(c.id));
		const count = 20 + Math.floor(next() * 80);
		const pageSize = 3 + Math.floor(next() * 12);
		for (let n = 0; n < count; n++) {
			const burst = next() < 0.1 ? pageSize + 2 : 1;
			const at = YEAR.from + Math.floor(next() * (YEAR.to - YEAR.from - 86_400_000));
			for (let b = 0; b < burst; b++) addRecord(sim(), 'customers', { createdAt: iso(at), email: `s${seed}-${n}-${b}@example.com` });
		}
		const start = new Set(inYear().map((c) => String(c.id)));
		const removed = new Set<string>();
		const added = new Set<string>();
		// Up to 6 changes, each on a request for records (not on the one asking only for the count).
		let changes = 0;
		const chance = 0.1 + next() * 0.3;
		sim().onRequest = (request) => {
			if (request.path !== '/customers/list' || request.query.limit === '1' || changes >= 6 || next() > chance) return;
			const asked = ++changes;
			const present = inYear();
			if (next() < 0.5 && present.length > 0) {
				const victim = present[Math.floor(next() * present.length)];
				removeRecord(sim(), 'customers', String(victim.id));
				removed.add(String(victim.id));
			} else {
				const newest = Math.max(...present.map((c) => Date.parse(String(c.createdAt))));
				added.add(String(addRecord(sim(), 'customers', { createdAt: iso(newest + 1 + Math.floor(next() * 1000)), email: `s${seed}-added-${asked}@example.com` }).id));
			}
		};
		const { item, error } = await exportOf({
			resource: 'customer',
			operation: 'getMany',
			returnAll: true,
			output: 'jsonLinesFile',
			filters: { createdAfter: iso(YEAR.from), createdBefore: iso(YEAR.to) },
			pagination: { pageSize },
			fileOptions: { order: 'oldestFirst' },
		});
		sim().onRequest = undefined;
		expect(error).toBeUndefined();
		const rows = await linesOf(item);
		const ids = rows.map((r) => String(r.id));
		const end = new Set(inYear().map((c) => String(c.id)));
		// In date order, each once, only records the list held at some moment.
		expect(ascending(rows.map((r) => String(r.createdAt)))).toBe(true);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.filter((id) => !start.has(id) && !added.has(id))).toEqual([]);
		// Every record the list held from start to end, and every one added (as the newest) while it was read.
		expect([...end].filter((id) => !ids.includes(id))).toEqual([]);
		// The file adds up exactly when it is the list as it ended: no record written was removed afterwards.
		const writtenThenRemoved = ids.filter((id) => removed.has(id));
		expect({ reconciled: item!.json.reconciled, writtenThenRemoved: writtenThenRemoved.length > 0 }).toEqual({
			reconciled: writtenThenRemoved.length === 0,
			writtenThenRemoved: writtenThenRemoved.length > 0,
		});
		if (writtenThenRemoved.length > 0) {
			expect((item!.json.reconciliation as { reasons: string[] }).reasons).toEqual([expect.stringMatching(/the list changed while it was read in date windows/)]);
		}
		expect(item!.json.records).toBe(rows.length);
	});
});
