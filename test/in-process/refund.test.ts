import { DEFAULT_PAGE_SIZE } from '../../nodes/SalesPayments/paging/pages';
import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf, listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';

const sim = useSimulator({ size: 250 });

beforeEach(() => sim().clearRequests());

const SIMPLE_KEYS = [
	'id',
	'orderId',
	'status',
	'valueInCents',
	'buyerEmail',
	'productName',
	'motive',
	'paidAt',
	'requestAt',
	'createdAt',
	'updatedAt',
];

async function getMany(parameters: Record<string, unknown>) {
	return await runNode(
		{ parameters: { resource: 'refund', operation: 'getMany', ...parameters } as never },
		{ credentials: dataCredentials(sim()) },
	);
}

describe('Refund: Get Many', () => {
	it('with Limit sends KEYS+BIZ and page/limit only, and returns the simplified refund requests', async () => {
		const { items, error } = await getMany({ limit: 10 });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(10);
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect(req.method).toBe('GET');
		expect(req.path).toBe('/order-revert-requests/list');
		expect(req.query).toEqual({ page: '1', limit: '10' });
		expect(req.body).toBeUndefined();
		expectAuth(sim(), req, 'keys+biz');
		const expected = listed(sim(), 'refunds')
			.slice(0, 10)
			.map((r) => Object.fromEntries(SIMPLE_KEYS.map((k) => [k, r[k]])));
		expect(jsonOf(items)).toEqual(expected);
		for (const item of items) expect(Object.keys(item.json)).toEqual(SIMPLE_KEYS);
		expect(items.map((i) => i.pairedItem)).toEqual(items.map(() => ({ item: 0 })));
	});

	it('with Return All and Simplify off returns each of the 250+ raw refund requests exactly once', async () => {
		const all = listed(sim(), 'refunds');
		expect(all.length).toBeGreaterThanOrEqual(250);
		const { items, error } = await getMany({ returnAll: true, simplify: false, pagination: { pageSize: 100 } });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(all.length);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(all.length);
		expect(jsonOf(items)).toEqual(all);
		expect(items[0].json.statusHistory).toEqual(all[0].statusHistory);
		const reqs = sim().apiRequests;
		expect(reqs.map((r) => r.query)).toEqual(
			Array.from({ length: Math.ceil(all.length / 100) }, (_, n) => ({ page: String(n + 1), limit: '100' })),
		);
		for (const r of reqs) expectAuth(sim(), r, 'keys+biz');
	});

	it('Limit 120 over pages of 50 returns exactly 120 from three requests', async () => {
		const { items } = await getMany({ limit: 120, pagination: { pageSize: 50 } });
		expect(items).toHaveLength(120);
		expect(sim().apiRequests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
		expect(sim().apiRequests.map((r) => r.query.limit)).toEqual(['50', '50', '50']);
	});

	it('date filters go out under the literal bracket keys (UTC, milliseconds) and narrow the list', async () => {
		const { items, error } = await getMany({
			returnAll: true,
			filters: {
				createdAfter: '2024-06-01T00:00:00Z',
				createdBefore: '2025-03-01T02:00:00+02:00',
				updatedAfter: '2024-06-10T00:00:00.000Z',
				updatedBefore: '2025-06-30T23:59:59.999Z',
			},
			options: { orderByField: 'createdAt', orderDirection: 'ASC' },
		});
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect(req.query).toEqual({
			'createdAt[startsAt]': '2024-06-01T00:00:00.000Z',
			'createdAt[endsAt]': '2025-03-01T00:00:00.000Z',
			'updatedAt[startsAt]': '2024-06-10T00:00:00.000Z',
			'updatedAt[endsAt]': '2025-06-30T23:59:59.999Z',
			orderByField: 'createdAt',
			orderDirection: 'ASC',
			page: '1',
			limit: String(DEFAULT_PAGE_SIZE),
		});
		const inRange = (v: unknown, from: string, to: string) =>
			Date.parse(String(v)) >= Date.parse(from) && Date.parse(String(v)) <= Date.parse(to);
		const expected = listed(sim(), 'refunds', 'createdAt', 'ASC').filter(
			(r) =>
				inRange(r.createdAt, '2024-06-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z') &&
				inRange(r.updatedAt, '2024-06-10T00:00:00.000Z', '2025-06-30T23:59:59.999Z'),
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(listed(sim(), 'refunds').length);
		expect(items.map((i) => i.json.id)).toEqual(expected.map((r) => r.id));
		const times = items.map((i) => Date.parse(String(i.json.createdAt)));
		expect(times).toEqual([...times].sort((a, b) => a - b));
	});

	it('Sort Direction Descending puts the newest first; Ascending the oldest', async () => {
		const desc = await getMany({ limit: 1, options: { orderDirection: 'DESC' } });
		const asc = await getMany({ limit: 1, options: { orderDirection: 'ASC' } });
		const all = listed(sim(), 'refunds');
		expect(desc.items[0].json.id).toBe(all[0].id);
		expect(asc.items[0].json.id).toBe(all[all.length - 1].id);
		expect(sim().apiRequests.map((r) => r.query.orderDirection)).toEqual(['DESC', 'ASC']);
	});

	it('refunds of other businesses never appear', async () => {
		const { items } = await getMany({ returnAll: true, simplify: false });
		const others = sim()
			.state.col('refunds')
			.filter((r) => r._businessId !== sim().credentials.businessId)
			.map((r) => r.id);
		expect(others.length).toBeGreaterThan(0);
		const ids = new Set(items.map((i) => i.json.id));
		for (const id of others) expect(ids.has(id as string)).toBe(false);
	});

	it('a value that is not a date is refused, naming the field, before any request', async () => {
		const { error, items } = await getMany({ filters: { createdAfter: 'last tuesday' } });
		expect(items).toHaveLength(0);
		expect(error?.message).toContain('Created After');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('a range that ends before it starts is refused before any request', async () => {
		const { error } = await getMany({
			filters: { updatedAfter: '2025-02-01T00:00:00Z', updatedBefore: '2025-01-01T00:00:00Z' },
		});
		expect(error?.message).toContain('Updated After must not be after Updated Before');
		expect(sim().apiRequests).toHaveLength(0);
	});
});
