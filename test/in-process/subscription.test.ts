import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf, listed, runListSearch } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 250 });

beforeEach(() => sim().clearRequests());

async function run(operation: string, parameters: Record<string, unknown>) {
	return await runNode(
		{ parameters: { resource: 'subscription', operation, ...parameters } as never },
		{ credentials: dataCredentials(sim()) },
	);
}

const customerOf = (r: JsonObject) => r.customer as JsonObject;
const productOf = (r: JsonObject) => (r.orderItem as JsonObject).product as JsonObject;

/** What Simplify should output for a subscription of the list. */
function simple(r: JsonObject): JsonObject {
	return {
		id: r.id,
		name: r.name,
		status: r.status,
		subscriptionPaymentStatus: r.subscriptionPaymentStatus,
		customerEmail: customerOf(r).email,
		productId: productOf(r).id,
		productName: productOf(r).name,
		recurrenceValueInCents: r.recurrenceValueInCents,
		periodicity: r.periodicity,
		paymentMethod: r.paymentMethod,
		nextPayment: r.nextPayment,
		expiration: r.expiration,
		subscribedAt: r.subscribedAt,
		createdAt: r.createdAt,
	};
}

const all = () => listed(sim(), 'subscriptions');

describe('Subscription: Get Many', () => {
	it('with Limit sends KEYS+BIZ, page/limit and no filter, and returns simplified subscriptions', async () => {
		const { items, error } = await run('getMany', { limit: 5 });
		expect(error).toBeUndefined();
		const reqs = sim().apiRequests;
		expect(reqs).toHaveLength(1);
		expect(reqs[0].method).toBe('POST');
		expect(reqs[0].path).toBe('/subscriptions/filter');
		expect(reqs[0].query).toEqual({ page: '1', limit: '5' });
		expect(reqs[0].body).toBeUndefined();
		expectAuth(sim(), reqs[0], 'keys+biz');
		expect(jsonOf(items)).toEqual(all().slice(0, 5).map(simple));
	});

	it('with Return All and Simplify off returns each of the 250+ raw subscriptions exactly once', async () => {
		expect(all().length).toBeGreaterThanOrEqual(250);
		const { items } = await run('getMany', { returnAll: true, simplify: false, pagination: { pageSize: 100 } });
		expect(items).toHaveLength(all().length);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(all().length);
		expect(jsonOf(items)).toEqual(all());
		expect(sim().apiRequests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
	});

	it('sends every body filter as the spec names it (dates in UTC with milliseconds, amounts in cents)', async () => {
		const target = all()[17];
		const day = 86_400_000;
		const from = new Date(Date.parse(String(target.subscribedAt)) - day).toISOString();
		const to = new Date(Date.parse(String(target.subscribedAt)) + day).toISOString();
		const value = Number(target.recurrenceValueInCents);
		const { items, error } = await run('getMany', {
			returnAll: true,
			simplify: false,
			filters: {
				email: String(customerOf(target).email).toUpperCase(),
				name: String(target.name).slice(0, 8),
				initialDate: from,
				endDate: to,
				status: target.status,
				initialValue: value - 100,
				endValue: value + 100,
				type: target.paymentMethod,
				productIds: String(productOf(target).id),
				field: 'subscribedAt',
			},
			options: { orderByField: 'recurrenceValueInCents', orderDirection: 'ASC' },
		});
		expect(error).toBeUndefined();
		expect(sim().apiRequests[0].body).toEqual({
			email: String(customerOf(target).email).toUpperCase(),
			name: String(target.name).slice(0, 8),
			initialDate: from,
			endDate: to,
			status: target.status,
			initialValue: value - 100,
			endValue: value + 100,
			type: target.paymentMethod,
			productIds: [productOf(target).id],
			field: 'subscribedAt',
			orderBy: { orderByField: 'recurrenceValueInCents', orderDirection: 'ASC' },
		});
		expect(items.map((i) => i.json.id)).toContain(target.id);
		for (const { json } of items) {
			expect(customerOf(json as JsonObject).email).toBe(customerOf(target).email);
			expect(json.status).toBe(target.status);
			expect(json.paymentMethod).toBe(target.paymentMethod);
		}
	});

	it('the Status filter returns only subscriptions in that status, fewer than unfiltered', async () => {
		const { items } = await run('getMany', { returnAll: true, filters: { status: 'canceled' } });
		const expected = all().filter((r) => r.status === 'canceled');
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(all().length);
		expect(items.map((i) => i.json.id)).toEqual(expected.map((r) => r.id));
		expect(items.every((i) => i.json.status === 'canceled')).toBe(true);
	});

	it('the Payment Method (type) filter returns only subscriptions paid that way', async () => {
		const { items } = await run('getMany', { returnAll: true, filters: { type: 'pix' } });
		expect(sim().apiRequests[0].body).toEqual({ type: 'pix' });
		const expected = all().filter((r) => r.paymentMethod === 'pix');
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(all().length);
		expect(items.map((i) => i.json.id)).toEqual(expected.map((r) => r.id));
	});

	it('the value range (cents) keeps only recurrence values within it', async () => {
		const { items } = await run('getMany', { returnAll: true, filters: { initialValue: 20000, endValue: 50000 } });
		expect(sim().apiRequests[0].body).toEqual({ initialValue: 20000, endValue: 50000 });
		const expected = all().filter((r) => Number(r.recurrenceValueInCents) >= 20000 && Number(r.recurrenceValueInCents) <= 50000);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(all().length);
		expect(items.map((i) => i.json.id)).toEqual(expected.map((r) => r.id));
	});

	it('Product IDs keep only subscriptions of those products', async () => {
		const ids = [...new Set(all().slice(0, 3).map((r) => String(productOf(r).id)))];
		const { items } = await run('getMany', { returnAll: true, filters: { productIds: ids.join(',') } });
		expect(sim().apiRequests[0].body).toEqual({ productIds: ids });
		const expected = all().filter((r) => ids.includes(String(productOf(r).id)));
		expect(items.map((i) => i.json.id)).toEqual(expected.map((r) => r.id));
		expect(expected.length).toBeLessThan(all().length);
	});

	it('Field selects which date the date range applies to', async () => {
		const range = { initialDate: '2025-01-01T00:00:00Z', endDate: '2025-12-31T23:59:59Z' };
		const created = await run('getMany', { returnAll: true, filters: range });
		const expiring = await run('getMany', { returnAll: true, filters: { ...range, field: 'expiration' } });
		const inYear = (v: unknown) => String(v).startsWith('2025-');
		expect(created.items.map((i) => i.json.id)).toEqual(all().filter((r) => inYear(r.createdAt)).map((r) => r.id));
		expect(expiring.items.map((i) => i.json.id)).toEqual(all().filter((r) => inYear(r.expiration)).map((r) => r.id));
		expect(created.items.length).not.toBe(expiring.items.length);
	});

	it('Sort By orders the result, in the chosen direction', async () => {
		const byEmail = await run('getMany', { limit: 250, options: { orderByField: 'email', orderDirection: 'ASC' } });
		expect(sim().apiRequests[0].body).toEqual({ orderBy: { orderByField: 'email', orderDirection: 'ASC' } });
		const emails = byEmail.items.map((i) => String(i.json.customerEmail));
		expect(emails).toEqual([...emails].sort());
		const byValue = await run('getMany', { limit: 20, options: { orderByField: 'recurrenceValueInCents', orderDirection: 'DESC' } });
		const values = byValue.items.map((i) => Number(i.json.recurrenceValueInCents));
		const top = all()
			.map((r) => Number(r.recurrenceValueInCents))
			.sort((a, b) => b - a)
			.slice(0, 20);
		expect(values).toEqual(top);
	});

	it('bad amounts and ranges are refused, naming the field, before any request', async () => {
		const negative = await run('getMany', { filters: { initialValue: -5 } });
		expect(negative.error?.message).toContain('Recurrence Value From (Cents) must be a whole, non-negative number of cents');
		const fraction = await run('getMany', { filters: { endValue: 12.5 } });
		expect(fraction.error?.message).toContain('Recurrence Value To (Cents) must be a whole');
		const inverted = await run('getMany', { filters: { initialValue: 5000, endValue: 100 } });
		expect(inverted.error?.message).toContain('Recurrence Value From (Cents) must not be after Recurrence Value To (Cents)');
		const status = await run('getMany', { filters: { status: 'paused' } });
		expect(status.error?.message).toContain('Status must be one of');
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Subscription: Get', () => {
	const target = () => sim().state.col('subscriptions').find((r) => r._businessId === sim().credentials.businessId)!;

	it('By ID sends KEYS only to GET /subscriptions/{id} and returns the simplified subscription with its recurrences', async () => {
		const t = target();
		const { items, error } = await run('get', { subscriptionId: { __rl: true, mode: 'id', value: t.id } });
		expect(error).toBeUndefined();
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect(req.method).toBe('GET');
		expect(req.path).toBe(`/subscriptions/${String(t.id)}`);
		expect(req.query).toEqual({});
		expectAuth(sim(), req, 'keys');
		expect(items).toHaveLength(1);
		const { createdAt, nextPayment, ...detailFields } = simple(t);
		void createdAt;
		void nextPayment;
		expect(items[0].json).toEqual({ ...detailFields, recurrences: t._recurrences });
	});

	it('From list with Simplify off returns the record as the platform sends it', async () => {
		const t = target();
		const { items } = await run('get', { subscriptionId: { __rl: true, mode: 'list', value: t.id }, simplify: false });
		const json = items[0].json;
		expect(json.id).toBe(t.id);
		expect(json.customer).toEqual(t.customer);
		expect(json.creditCard).toEqual(t.creditCard);
		expect(json.recurrences).toEqual(t._recurrences);
		expect(Object.keys(json)).not.toContain('createdAt');
	});

	it('a subscription of another account is not found', async () => {
		const foreign = sim()
			.state.col('subscriptions')
			.find((r) => !sim().state.accounts[0].businessIds.includes(String(r._businessId)))!;
		const { error } = await run('get', { subscriptionId: { __rl: true, mode: 'id', value: foreign.id } });
		expect(error?.message).toBe('Subscription not found');
		expect(error?.httpCode).toBe('404');
	});

	it('an ID that is empty after expressions, or malformed, is refused before any request', async () => {
		const empty = await runNode(
			{
				parameters: {
					resource: 'subscription',
					operation: 'get',
					subscriptionId: { __rl: true, mode: 'id', value: '={{ $json.subscriptionId }}' },
				} as never,
			},
			{ credentials: dataCredentials(sim()), input: [{ json: { other: 1 } }] },
		);
		expect(empty.error?.message).toContain('Subscription is required');
		const slash = await run('get', { subscriptionId: { __rl: true, mode: 'id', value: '={{ "../filter" }}' } });
		expect(slash.error?.message).toBe('Subscription "../filter" is not a valid ID (letters, digits, "-" and "_" only, at most 128)');
		// Typed literally: the same named error (no locator regex, which would fail the workflow generically).
		const typed = await run('get', { subscriptionId: { __rl: true, mode: 'id', value: 'a/b' } });
		expect(typed.error?.message).toBe('Subscription "a/b" is not a valid ID (letters, digits, "-" and "_" only, at most 128)');
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Subscription: From list search', () => {
	it('lists the business subscriptions by name and customer email, and filters by the typed text', async () => {
		const { results } = await runListSearch(sim(), 'searchSubscriptions');
		const [req] = sim().apiRequests;
		expect(req.method).toBe('POST');
		expect(req.path).toBe('/subscriptions/filter');
		expectAuth(sim(), req, 'keys+biz');
		const first = all()[0];
		expect(results[0]).toEqual({
			name: `${String(first.name)} (${String(customerOf(first).email)})`,
			value: first.id,
			url: undefined,
		});
		// One page of 100 per scroll; n8n asks for the next with the token.
		expect(results.length).toBe(100);
		const { paginationToken } = await runListSearch(sim(), 'searchSubscriptions');
		expect(paginationToken).toBe('2');
		const needle = String(customerOf(first).email);
		const narrowed = await runListSearch(sim(), 'searchSubscriptions', needle.toUpperCase());
		expect(narrowed.results.length).toBeGreaterThan(0);
		expect(narrowed.results.length).toBeLessThan(results.length);
		for (const r of narrowed.results) expect(r.name).toContain(needle);
	});
});
