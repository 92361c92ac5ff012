import { DEFAULT_PAGE_SIZE } from '../../nodes/SalesPayments/paging/pages';
import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf, listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 250 });

beforeEach(() => sim().clearRequests());

async function run(resource: string, parameters: Record<string, unknown>) {
	return await runNode(
		{ parameters: { resource, operation: 'getMany', ...parameters } as never },
		{ credentials: dataCredentials(sim()) },
	);
}

const ids = (items: Array<{ json: { id?: unknown } }>) => items.map((i) => i.json.id);

describe('Withdraw Request: Get Many', () => {
	const all = () => listed(sim(), 'withdrawRequests');

	it('with Limit posts to /withdraw-requests/filter with KEYS+BIZ and page/limit', async () => {
		const { items, error } = await run('withdrawRequest', { limit: 5 });
		expect(error).toBeUndefined();
		const reqs = sim().apiRequests;
		expect(reqs).toHaveLength(1);
		expect(reqs[0].method).toBe('POST');
		expect(reqs[0].path).toBe('/withdraw-requests/filter');
		expect(reqs[0].query).toEqual({ page: '1', limit: '5' });
		expect(reqs[0].body).toBeUndefined();
		expectAuth(sim(), reqs[0], 'keys+biz');
		expect(jsonOf(items)).toEqual(all().slice(0, 5));
	});

	it('with Return All returns each of the 250+ withdraw requests exactly once', async () => {
		expect(all().length).toBeGreaterThanOrEqual(250);
		const { items } = await run('withdrawRequest', { returnAll: true });
		expect(items).toHaveLength(all().length);
		expect(new Set(ids(items)).size).toBe(all().length);
		expect(jsonOf(items)).toEqual(all());
	});

	it('the Status filter returns only withdraw requests in that status, fewer than unfiltered', async () => {
		const { items } = await run('withdrawRequest', { returnAll: true, filters: { status: 'pending' } });
		expect(sim().apiRequests[0].body).toEqual({ status: 'pending' });
		const expected = all().filter((r) => r.status === 'pending');
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(all().length);
		expect(ids(items)).toEqual(expected.map((r) => r.id));
	});

	it('dates, the value range (cents) and Sort By go into the body and shape the result', async () => {
		const { items, error } = await run('withdrawRequest', {
			returnAll: true,
			filters: {
				initialDate: '2024-03-01T00:00:00Z',
				endDate: '2025-03-01T00:00:00Z',
				initialValue: 50000,
				endValue: 250000,
			},
			options: { orderByField: 'valueInCents', orderDirection: 'ASC' },
		});
		expect(error).toBeUndefined();
		expect(sim().apiRequests[0].body).toEqual({
			initialDate: '2024-03-01T00:00:00.000Z',
			endDate: '2025-03-01T00:00:00.000Z',
			initialValue: 50000,
			endValue: 250000,
			orderBy: { orderByField: 'valueInCents', orderDirection: 'ASC' },
		});
		const inside = (r: JsonObject) =>
			Number(r.valueInCents) >= 50000 &&
			Number(r.valueInCents) <= 250000 &&
			Date.parse(String(r.createdAt)) >= Date.parse('2024-03-01T00:00:00Z') &&
			Date.parse(String(r.createdAt)) <= Date.parse('2025-03-01T00:00:00Z');
		const expected = listed(sim(), 'withdrawRequests', 'valueInCents', 'ASC').filter(inside);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(all().length);
		expect(ids(items)).toEqual(expected.map((r) => r.id));
	});

	it('a sort field the platform does not know surfaces its 400', async () => {
		const { error } = await run('withdrawRequest', { options: { orderByField: 'colour' } });
		expect(error?.message).toBe('Invalid param: [orderBy.orderByField]');
		expect(error?.httpCode).toBe('400');
		expect(sim().apiRequests).toHaveLength(1);
		expect(sim().apiRequests[0].body).toEqual({ orderBy: { orderByField: 'colour' } });
	});
});

describe('Movement: Get Many', () => {
	const all = () => listed(sim(), 'movements');

	it('Records with Limit outputs one item per movement, from POST /movement/filter with KEYS+BIZ', async () => {
		const { items, error } = await run('movement', { limit: 5 });
		expect(error).toBeUndefined();
		const reqs = sim().apiRequests;
		expect(reqs).toHaveLength(1);
		expect(reqs[0].method).toBe('POST');
		expect(reqs[0].path).toBe('/movement/filter');
		expect(reqs[0].query).toEqual({ page: '1', limit: '5' });
		expect(reqs[0].body).toBeUndefined();
		expectAuth(sim(), reqs[0], 'keys+biz');
		expect(jsonOf(items)).toEqual(all().slice(0, 5));
	});

	it('Return All pages through `movements` until `count` is reached, each movement exactly once', async () => {
		const total = all().length;
		expect(total).toBeGreaterThanOrEqual(250);
		const { items } = await run('movement', { returnAll: true, pagination: { pageSize: 100 } });
		expect(items).toHaveLength(total);
		expect(new Set(ids(items)).size).toBe(total);
		expect(jsonOf(items)).toEqual(all());
		// No request beyond the last page: `count` says where the list ends.
		expect(sim().apiRequests.map((r) => r.query.page)).toEqual(
			Array.from({ length: Math.ceil(total / 100) }, (_, n) => String(n + 1)),
		);
	});

	it('Summary outputs one item with count and totalValue over every matching movement, from one request', async () => {
		const { items, error } = await run('movement', { output: 'summary', filters: { originType: 'fee' } });
		expect(error).toBeUndefined();
		const reqs = sim().apiRequests;
		expect(reqs).toHaveLength(1);
		expect(reqs[0].query).toEqual({ page: '1', limit: '1' });
		expect(reqs[0].body).toEqual({ originType: 'fee' });
		expectAuth(sim(), reqs[0], 'keys+biz');
		const fees = all().filter((m) => m.originType === 'fee');
		expect(fees.length).toBeGreaterThan(1);
		expect(jsonOf(items)).toEqual([{ count: fees.length, totalValue: fees.reduce((n, m) => n + Number(m.valueInCents), 0) }]);
		expect(Number(items[0].json.totalValue)).toBeLessThan(0);
	});

	it('Omit Debits keeps only credits, Omit Credits only debits', async () => {
		const credits = await run('movement', { returnAll: true, filters: { omitDebit: true } });
		const debits = await run('movement', { returnAll: true, filters: { omitCredit: true } });
		expect(sim().apiRequests[0].body).toEqual({ omitDebit: true });
		expect(sim().apiRequests.at(-1)!.body).toEqual({ omitCredit: true });
		expect(ids(credits.items)).toEqual(all().filter((m) => m.type === 'credit').map((m) => m.id));
		expect(ids(debits.items)).toEqual(all().filter((m) => m.type === 'debit').map((m) => m.id));
		expect(credits.items.length).toBeGreaterThan(0);
		expect(debits.items.length).toBeGreaterThan(0);
		expect(credits.items.length + debits.items.length).toBe(all().length);
	});

	it('text filters (subject, description, hash, reference, group) narrow the result', async () => {
		const sample = all().find((m) => m.originType === 'sale')!;
		const bySubject = await run('movement', { returnAll: true, filters: { subject: 'withdraw' } });
		const expectedSubject = all().filter((m) => String(m.subject).toLowerCase().includes('withdraw'));
		expect(expectedSubject.length).toBeGreaterThan(0);
		expect(ids(bySubject.items)).toEqual(expectedSubject.map((m) => m.id));

		const byDescription = await run('movement', { returnAll: true, filters: { description: 'Fee on the sale' } });
		expect(ids(byDescription.items)).toEqual(all().filter((m) => m.description === 'Fee on the sale').map((m) => m.id));

		const byHash = await run('movement', { returnAll: true, filters: { hash: sample.hash } });
		expect(ids(byHash.items)).toEqual([sample.id]);

		sim().clearRequests();
		const byGroup = await run('movement', {
			returnAll: true,
			filters: { groupId: sample.groupId, referenceId: sample.referenceId },
		});
		expect(sim().apiRequests[0].body).toEqual({ groupId: sample.groupId, referenceId: sample.referenceId });
		const group = all().filter((m) => m.groupId === sample.groupId);
		expect(group.length).toBe(2); // the sale and its fee
		expect(ids(byGroup.items)).toEqual(group.map((m) => m.id));
	});

	it('the value range applies to the amount in cents, for credits and debits alike', async () => {
		const { items } = await run('movement', {
			returnAll: true,
			filters: { initialValue: 1000, endValue: 20000, initialDate: '2024-01-01T00:00:00Z', endDate: '2025-01-01T00:00:00Z' },
		});
		expect(sim().apiRequests[0].body).toEqual({
			initialValue: 1000,
			endValue: 20000,
			initialDate: '2024-01-01T00:00:00.000Z',
			endDate: '2025-01-01T00:00:00.000Z',
		});
		const expected = all().filter(
			(m) =>
				Math.abs(Number(m.valueInCents)) >= 1000 &&
				Math.abs(Number(m.valueInCents)) <= 20000 &&
				String(m.createdAt) < '2025-01-01T00:00:00.000Z',
		);
		expect(expected.some((m) => m.type === 'debit')).toBe(true);
		expect(expected.some((m) => m.type === 'credit')).toBe(true);
		expect(ids(items)).toEqual(expected.map((m) => m.id));
	});

	it('Omit Debits with Omit Credits, or a bad amount, is refused before any request', async () => {
		const both = await run('movement', { filters: { omitDebit: true, omitCredit: true } });
		expect(both.error?.message).toContain('Omit Debits and Omit Credits cannot both be on');
		const bad = await run('movement', { output: 'summary', filters: { endValue: -1 } });
		expect(bad.error?.message).toContain('Value To (Cents) must be a whole, non-negative number of cents');
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Commission: Get Many', () => {
	const all = () => listed(sim(), 'commissions');

	it('with Limit sends GET /commissions/list with KEYS+BIZ and page/limit', async () => {
		const { items, error } = await run('commission', { limit: 3 });
		expect(error).toBeUndefined();
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect(req.method).toBe('GET');
		expect(req.path).toBe('/commissions/list');
		expect(req.query).toEqual({ page: '1', limit: '3' });
		expectAuth(sim(), req, 'keys+biz');
		expect(jsonOf(items)).toEqual(all().slice(0, 3));
	});

	it('with Return All returns each of the 250+ commissions exactly once', async () => {
		expect(all().length).toBeGreaterThanOrEqual(250);
		const { items } = await run('commission', { returnAll: true, pagination: { pageSize: 1000 } });
		expect(sim().apiRequests).toHaveLength(1);
		expect(items).toHaveLength(all().length);
		expect(new Set(ids(items)).size).toBe(all().length);
		expect(jsonOf(items)).toEqual(all());
	});

	it('status and dates go into the query and narrow the result', async () => {
		const { items } = await run('commission', {
			returnAll: true,
			filters: { status: 'released', initialDate: '2024-07-01T00:00:00Z', endDate: '2025-06-30T23:59:59Z' },
		});
		expect(sim().apiRequests[0].query).toEqual({
			status: 'released',
			initialDate: '2024-07-01T00:00:00.000Z',
			endDate: '2025-06-30T23:59:59.000Z',
			page: '1',
			limit: String(DEFAULT_PAGE_SIZE),
		});
		const expected = all().filter(
			(c) =>
				c.status === 'released' &&
				String(c.createdAt) >= '2024-07-01T00:00:00.000Z' &&
				String(c.createdAt) <= '2025-06-30T23:59:59.000Z',
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(all().filter((c) => c.status === 'released').length);
		expect(ids(items)).toEqual(expected.map((c) => c.id));
		expect(items.every((i) => i.json.status === 'released')).toBe(true);
	});
});
