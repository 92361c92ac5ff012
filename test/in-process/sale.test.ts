import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf, listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 250 });

beforeEach(() => sim().clearRequests());

async function getMany(parameters: Record<string, unknown>) {
	return await runNode(
		{ parameters: { resource: 'sale', operation: 'getMany', ...parameters } as never },
		{ credentials: dataCredentials(sim()) },
	);
}

const emailOf = (r: JsonObject) => String((r.customer as JsonObject).email);
const productOf = (r: JsonObject) => String((r.product as JsonObject).id);

describe('Sale: Get Many', () => {
	it('with Limit posts no filter with KEYS+BIZ and page/limit in the query', async () => {
		const { items, error } = await getMany({ limit: 5 });
		expect(error).toBeUndefined();
		const reqs = sim().apiRequests;
		expect(reqs).toHaveLength(1);
		expect(reqs[0].method).toBe('POST');
		expect(reqs[0].path).toBe('/sales/filter');
		expect(reqs[0].query).toEqual({ page: '1', limit: '5' });
		// n8n's HTTP helper sends no body for an empty object; the platform reads that as no filter.
		expect(reqs[0].body).toBeUndefined();
		expectAuth(sim(), reqs[0], 'keys+biz');
		expect(jsonOf(items)).toEqual(listed(sim(), 'sales').slice(0, 5));
	});

	it('with Return All returns each of the 250+ sales exactly once', async () => {
		const all = listed(sim(), 'sales');
		expect(all.length).toBeGreaterThanOrEqual(250);
		const { items } = await getMany({ returnAll: true, pagination: { pageSize: 60 } });
		expect(items).toHaveLength(all.length);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(all.length);
		expect(jsonOf(items)).toEqual(all);
		expect(sim().apiRequests.map((r) => r.query.page)).toEqual(['1', '2', '3', '4', '5']);
		for (const r of sim().apiRequests) expect(r.body).toBeUndefined();
	});

	it('the Status filter returns only sales in that status, fewer than unfiltered', async () => {
		const { items } = await getMany({ returnAll: true, filters: { status: 'refunded' } });
		expect(sim().apiRequests[0].body).toEqual({ status: 'refunded' });
		const expected = listed(sim(), 'sales').filter((r) => r.status === 'refunded');
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(listed(sim(), 'sales').length);
		expect(jsonOf(items)).toEqual(expected);
	});

	it('Email, Product IDs and the date range go into the body and narrow the result', async () => {
		const all = listed(sim(), 'sales');
		const email = emailOf(all[3]);
		const products = [...new Set(all.filter((r) => emailOf(r) === email).map(productOf))];
		const { items } = await getMany({
			returnAll: true,
			filters: {
				email: ` ${email} `,
				productIds: products.join(' , '),
				initialDate: '2024-01-01T00:00:00Z',
				endDate: '2026-01-01T00:00:00.000Z',
			},
		});
		expect(sim().apiRequests[0].body).toEqual({
			email,
			productIds: products,
			initialDate: '2024-01-01T00:00:00.000Z',
			endDate: '2026-01-01T00:00:00.000Z',
		});
		const expected = all.filter((r) => emailOf(r) === email && products.includes(productOf(r)));
		expect(expected.length).toBeGreaterThan(0);
		expect(jsonOf(items)).toEqual(expected);

		sim().clearRequests();
		const narrow = await getMany({
			returnAll: true,
			filters: { initialDate: '2025-01-01T00:00:00Z', endDate: '2025-01-31T23:59:59.999Z' },
		});
		const inJanuary = all.filter((r) => String(r.createdAt).startsWith('2025-01'));
		expect(inJanuary.length).toBeGreaterThan(0);
		expect(narrow.items.map((i) => i.json.id)).toEqual(inJanuary.map((r) => r.id));
	});

	it('Extra Fields (JSON) are merged into the body unchanged; the named filters take precedence', async () => {
		const { items, error } = await getMany({
			returnAll: true,
			filters: { status: 'paid', extraFields: '{"paymentMethod": "pix", "status": "canceled"}' },
		});
		expect(error).toBeUndefined();
		expect(sim().apiRequests[0].body).toEqual({ paymentMethod: 'pix', status: 'paid' });
		const expected = listed(sim(), 'sales').filter((r) => r.status === 'paid' && r.paymentMethod === 'pix');
		expect(expected.length).toBeGreaterThan(0);
		expect(jsonOf(items)).toEqual(expected);
	});

	it('the platform refusing an unknown status surfaces its message', async () => {
		const { error } = await getMany({ filters: { status: 'lost' } });
		expect(error?.message).toBe('Invalid param: [status]');
		expect(error?.httpCode).toBe('400');
	});

	it('invalid input is refused, naming the field, before any request', async () => {
		const badJson = await getMany({ filters: { extraFields: '{"paymentMethod": ' } });
		expect(badJson.error?.message).toContain('Extra Fields (JSON) is not valid JSON');
		const badEmail = await getMany({ filters: { email: 'not-an-email' } });
		expect(badEmail.error?.message).toContain('Email must be a valid email address');
		const badIds = await getMany({ filters: { productIds: 'abc, d/e' } });
		expect(badIds.error?.message).toContain('Product IDs contains "d/e"');
		expect(sim().apiRequests).toHaveLength(0);
	});
});
