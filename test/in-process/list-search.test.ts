/**
 * "From list" dropdowns (resource locators) through n8n-core's LoadOptionsContext: a batch of
 * pages per call, the next batch on n8n's paginationToken, the platform's own email filter where
 * it has one, and a platform contradicting its own pages that can't make a dropdown request forever.
 */
import { listed, runListSearch } from '../support/helpers/reads';
import { useSimulator } from '../support/helpers/sim';

const sim = useSimulator({ size: 260 });

beforeEach(() => {
	sim().clearRequests();
	sim().paging.clear();
});

const CUSTOMERS = '/customers/list';
const customers = () => listed(sim(), 'customers');
const label = (c: Record<string, unknown>) => `${String(c.name ?? c.id)} <${String(c.email)}>`;
const queries = () => sim().requestsTo('GET', CUSTOMERS).map((r) => r.query);

describe('a dropdown without a filter', () => {
	it('shows one page of 100 per call and hands n8n the next page until the list ends', async () => {
		const all = customers();
		expect(all.length).toBeGreaterThan(200);
		const shown: unknown[] = [];
		let token: string | undefined;
		let calls = 0;
		do {
			const result = await runListSearch(sim(), 'searchCustomers', undefined, token);
			shown.push(...result.results.map((r) => r.value));
			token = result.paginationToken as string | undefined;
			calls++;
		} while (token !== undefined && calls < 10);
		expect(shown).toEqual(all.map((c) => c.id));
		expect(calls).toBe(Math.ceil(all.length / 100));
		expect(queries()).toEqual([1, 2, 3].map((page) => ({ page: String(page), limit: '100' })));
	});

	it.each(['0', '-1', '1e3', '../orders', 'f', 'x2'])('a token that it did not hand out (%p) starts at page 1', async (token) => {
		const result = await runListSearch(sim(), 'searchCustomers', undefined, token);
		expect(result.results).toHaveLength(100);
		expect(queries()).toEqual([{ page: '1', limit: '100' }]);
	});
});

describe('a dropdown with a filter', () => {
	it('a whole email address goes to the platform: one request with `email`, the customer shown', async () => {
		const target = customers()[150];
		const result = await runListSearch(sim(), 'searchCustomers', String(target.email).toUpperCase());
		expect(result.results).toEqual([{ name: label(target), value: target.id, url: undefined }]);
		expect(result.paginationToken).toBeUndefined();
		expect(queries()).toEqual([{ page: '1', limit: '100', email: String(target.email).toLowerCase() }]);
	});

	it('an email the platform filter does not find is searched for in the pages (the rule of its filter is not shown)', async () => {
		const result = await runListSearch(sim(), 'searchCustomers', 'nobody@nowhere.example');
		expect(result.results).toEqual([]);
		expect(queries()).toEqual([
			{ page: '1', limit: '100', email: 'nobody@nowhere.example' },
			{ page: '1', limit: '100' },
			{ page: '2', limit: '100' },
			{ page: '3', limit: '100' },
		]);
		expect(result.paginationToken).toBeUndefined();
	});

	it('part of a name is matched in the pages, across pages, until 50 matches', async () => {
		const all = customers();
		const matching = all.filter((c) => label(c).toLowerCase().includes('.'));
		expect(matching.length).toBeGreaterThan(100);
		const first = await runListSearch(sim(), 'searchCustomers', '.');
		// Page 1 alone holds more than 50 matches: one request, and the next batch starts at page 2.
		expect(first.results.map((r) => r.value)).toEqual(matching.slice(0, first.results.length).map((c) => c.id));
		expect(first.results.length).toBeGreaterThanOrEqual(50);
		expect(first.paginationToken).toBe('2');
		expect(queries()).toEqual([{ page: '1', limit: '100' }]);
	});

	it('a rare text reads up to the end of the list in one batch and finds the one customer', async () => {
		const target = customers()[230];
		const result = await runListSearch(sim(), 'searchCustomers', String(target.id));
		expect(result.results.map((r) => r.value)).toEqual([target.id]);
		expect(result.paginationToken).toBeUndefined();
		expect(queries().map((q) => q.page)).toEqual(['1', '2', '3']);
	});
});

describe('a platform whose pages contradict themselves', () => {
	it('`hasNext` forever with the same records: the batch ends at the first page with nothing new, no token', async () => {
		sim().paging.add({ mode: 'hasNextForeverSame', path: CUSTOMERS });
		const result = await runListSearch(sim(), 'searchCustomers', 'zzz-no-such-text');
		expect(result.paginationToken).toBeUndefined();
		expect(queries().length).toBeLessThanOrEqual(5);
	});

	it('`hasNext` forever with fresh records: at most 5 pages per call, so only scrolling asks for more', async () => {
		sim().paging.add({ mode: 'hasNextForeverFresh', path: CUSTOMERS });
		const result = await runListSearch(sim(), 'searchCustomers', 'zzz-no-such-text');
		expect(queries().map((q) => q.page)).toEqual(['1', '2', '3', '4', '5']);
		expect(result.paginationToken).toBe('6');
	});

	it('a platform that ignores `page`: the second page repeats the first, the list ends there', async () => {
		sim().paging.add({ mode: 'ignorePage', path: CUSTOMERS });
		const result = await runListSearch(sim(), 'searchCustomers', 'zzz-no-such-text');
		expect(result.results).toEqual([]);
		expect(result.paginationToken).toBeUndefined();
		expect(queries().map((q) => q.page)).toEqual(['1', '2']);
	});

	it('an answer of the wrong shape is an error naming the request, not an empty list', async () => {
		sim().paging.add({ mode: 'collectionString', path: CUSTOMERS });
		await expect(runListSearch(sim(), 'searchCustomers')).rejects.toThrow(/GET \/customers\/list.*not a list of records/);
	});
});

describe('the other dropdowns page the same way', () => {
	it('subscriptions: a whole email goes into the filter body', async () => {
		const subscription = listed(sim(), 'subscriptions').find((s) => (s.customer as { email?: string } | undefined)?.email);
		expect(subscription).toBeDefined();
		const email = String((subscription!.customer as { email: string }).email);
		const result = await runListSearch(sim(), 'searchSubscriptions', email);
		expect(result.results.map((r) => r.value)).toContain(subscription!.id);
		const [req] = sim().requestsTo('POST', '/subscriptions/filter');
		expect(req.body).toEqual({ email: email.toLowerCase() });
		expect(req.query).toEqual({ page: '1', limit: '100' });
	});

	it.each(['searchProducts', 'searchPaymentLinks', 'searchPixels', 'searchWebhooks', 'searchBusinesses'])(
		'%s asks for page 1 of 100',
		async (method) => {
			const result = await runListSearch(sim(), method);
			expect(Array.isArray(result.results)).toBe(true);
			const pages = sim().apiRequests.map((r) => r.query.page);
			expect(pages).toEqual(['1']);
		},
	);
});
