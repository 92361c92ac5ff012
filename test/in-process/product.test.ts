import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf, listed, primaryRecords, runListSearch } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';
import { publicView, sortRecords } from '../support/simulator/filtering';

const sim = useSimulator({ size: 250 });

beforeEach(() => sim().clearRequests());

async function run(resource: string, parameters: Record<string, unknown>) {
	return await runNode(
		{ parameters: { resource, operation: 'getMany', ...parameters } as never },
		{ credentials: dataCredentials(sim()) },
	);
}

const ids = (items: Array<{ json: { id?: unknown } }>) => items.map((i) => i.json.id);
const all = () => listed(sim(), 'products');

describe('Product: Get Many', () => {
	it('with Limit posts to /products/filter with KEYS+BIZ and page/limit', async () => {
		const { items, error } = await run('product', { limit: 8 });
		expect(error).toBeUndefined();
		const reqs = sim().apiRequests;
		expect(reqs).toHaveLength(1);
		expect(reqs[0].method).toBe('POST');
		expect(reqs[0].path).toBe('/products/filter');
		expect(reqs[0].query).toEqual({ page: '1', limit: '8' });
		expect(reqs[0].body).toBeUndefined();
		expectAuth(sim(), reqs[0], 'keys+biz');
		expect(jsonOf(items)).toEqual(all().slice(0, 8));
	});

	it('with Return All returns each of the 250+ products exactly once', async () => {
		expect(all().length).toBeGreaterThanOrEqual(250);
		const { items } = await run('product', { returnAll: true, pagination: { pageSize: 50, maxConcurrency: 3 } });
		expect(items).toHaveLength(all().length);
		expect(new Set(ids(items)).size).toBe(all().length);
		expect(jsonOf(items)).toEqual(all());
		// Pages were requested three at a time once the page count was known; each page once.
		const pages = sim().apiRequests.map((r) => Number(r.query.page));
		expect(pages.sort((a, b) => a - b)).toEqual(Array.from({ length: Math.ceil(all().length / 50) }, (_, n) => n + 1));
	});

	it('the Status filter returns only products in that status, fewer than unfiltered', async () => {
		const { items } = await run('product', { returnAll: true, filters: { status: 'draft' } });
		expect(sim().apiRequests[0].body).toEqual({ status: 'draft' });
		const expected = all().filter((p) => p.status === 'draft');
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(all().length);
		expect(ids(items)).toEqual(expected.map((p) => p.id));
	});

	it('the Type filter sends the platform value (e.g. Face-to-face-Event) and keeps only that type', async () => {
		const { items } = await run('product', { returnAll: true, filters: { type: 'Face-to-face-Event' } });
		expect(sim().apiRequests[0].body).toEqual({ type: 'Face-to-face-Event' });
		const expected = all().filter((p) => p.type === 'Face-to-face-Event');
		expect(expected.length).toBeGreaterThan(0);
		expect(ids(items)).toEqual(expected.map((p) => p.id));
	});

	it('createdAt/updatedAt ranges go out as {startsAt, endsAt} objects, with only the bounds set', async () => {
		const { items } = await run('product', {
			returnAll: true,
			filters: {
				createdAfter: '2024-04-01T00:00:00Z',
				createdBefore: '2025-01-01T00:00:00Z',
				updatedBefore: '2025-02-01T00:00:00Z',
			},
		});
		expect(sim().apiRequests[0].body).toEqual({
			createdAt: { startsAt: '2024-04-01T00:00:00.000Z', endsAt: '2025-01-01T00:00:00.000Z' },
			updatedAt: { endsAt: '2025-02-01T00:00:00.000Z' },
		});
		const expected = all().filter(
			(p) =>
				String(p.createdAt) >= '2024-04-01T00:00:00.000Z' &&
				String(p.createdAt) <= '2025-01-01T00:00:00.000Z' &&
				String(p.updatedAt) <= '2025-02-01T00:00:00.000Z',
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(all().length);
		expect(ids(items)).toEqual(expected.map((p) => p.id));
	});

	it('Product IDs keep only those products; products of other businesses are never returned', async () => {
		const foreign = sim()
			.state.col('products')
			.find((p) => p._businessId !== sim().credentials.businessId)!;
		const mine = [all()[5].id, all()[42].id] as string[];
		const { items } = await run('product', { returnAll: true, filters: { productIds: [...mine, foreign.id].join(',') } });
		expect(sim().apiRequests[0].body).toEqual({ productIds: [...mine, foreign.id] });
		expect(ids(items)).toEqual(mine);
	});

	it('an unknown type or status given by expression is refused, naming the field, before any request', async () => {
		const { error } = await run('product', { filters: { type: '={{ "Webinar" }}' } });
		expect(error?.message).toContain('Type must be one of');
		expect(error?.message).toContain('Webinar');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('From list search lists the business products and filters them by name', async () => {
		const { results } = await runListSearch(sim(), 'searchProducts');
		const [req] = sim().apiRequests;
		expect(req.method).toBe('POST');
		expect(req.path).toBe('/products/filter');
		expectAuth(sim(), req, 'keys+biz');
		expect(results.slice(0, 3)).toEqual(all().slice(0, 3).map((p) => ({ name: p.name, value: p.id, url: undefined })));
		const word = String(all()[0].name).split(' ')[0];
		const narrowed = await runListSearch(sim(), 'searchProducts', word.toLowerCase());
		expect(narrowed.results.length).toBeGreaterThan(0);
		expect(narrowed.results.length).toBeLessThan(results.length);
		for (const r of narrowed.results) expect(r.name.toLowerCase()).toContain(word.toLowerCase());
	});
});

describe('Offer: Get Many', () => {
	/** The primary business's product with the long offer list. */
	const bigProduct = () => primaryRecords(sim(), 'products')[0];
	const offersOf = (productId: unknown): JsonObject[] =>
		sortRecords(
			sim()
				.state.col('offers')
				.filter((o) => o.productId === productId),
			'createdAt',
			'ASC',
		).map(publicView);

	it('sends GET /offers/list-by-product/{productId} with KEYS only (no business-id)', async () => {
		const product = bigProduct();
		const { items, error } = await run('offer', { productId: { __rl: true, mode: 'list', value: product.id }, limit: 4 });
		expect(error).toBeUndefined();
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect(req.method).toBe('GET');
		expect(req.path).toBe(`/offers/list-by-product/${String(product.id)}`);
		expect(req.query).toEqual({ page: '1', limit: '4' });
		expect(req.body).toBeUndefined();
		expectAuth(sim(), req, 'keys');
		expect(jsonOf(items)).toEqual(offersOf(product.id).slice(0, 4));
	});

	it('with Return All returns each of the 250+ offers of the product exactly once', async () => {
		const product = bigProduct();
		const offers = offersOf(product.id);
		expect(offers.length).toBeGreaterThanOrEqual(250);
		const { items } = await run('offer', {
			productId: { __rl: true, mode: 'id', value: product.id },
			returnAll: true,
			pagination: { pageSize: 100 },
		});
		expect(items).toHaveLength(offers.length);
		expect(new Set(ids(items)).size).toBe(offers.length);
		expect(jsonOf(items)).toEqual(offers);
		expect(items.every((i) => i.json.productId === product.id)).toBe(true);
		expect(sim().apiRequests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
	});

	it('the product decides the offers: another product gives its own (few) offers', async () => {
		const other = primaryRecords(sim(), 'products').find((p) => offersOf(p.id).length > 0 && p !== bigProduct())!;
		const { items } = await run('offer', { productId: { __rl: true, mode: 'id', value: other.id }, returnAll: true });
		expect(jsonOf(items)).toEqual(offersOf(other.id));
		expect(items.length).toBeLessThan(offersOf(bigProduct().id).length);
	});

	it('a product of another account is not found', async () => {
		const foreign = sim()
			.state.col('products')
			.find((p) => !sim().state.accounts[0].businessIds.includes(String(p._businessId)))!;
		const { error } = await run('offer', { productId: { __rl: true, mode: 'id', value: foreign.id } });
		expect(error?.message).toBe('Product not found');
		expect(error?.httpCode).toBe('404');
	});

	it('an empty product ID from an expression is refused before any request', async () => {
		const { error } = await run('offer', { productId: { __rl: true, mode: 'id', value: '={{ "" }}' } });
		expect(error?.message).toContain('Product is required');
		expect(sim().apiRequests).toHaveLength(0);
	});
});
