/**
 * Pagination options of every list operation, through real executions: Max Concurrent Requests
 * (same records in the same order as one page after another, never more requests in flight than
 * asked for), the automatic concurrency of the default (grows while pages come back quickly,
 * backs off and pauses under 429 with Retry-After), the bounds of Page Size, Max Concurrent
 * Requests and Max Pages, and the fallback to smaller pages when the platform refuses a page
 * size with a 400 naming `limit`.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf, listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { RecordedRequest } from '../support/simulator/core';
import { NETWORK_MAX_CONCURRENCY } from '../../nodes/SalesPayments/transport/concurrency';
import { addMovements } from '../support/simulator/routes/financials';
import { PRIMARY_BUSINESS_COUNT } from '../support/simulator/routes/00-accounts';
import type { Simulator } from '../support/simulator/server';

const sim = useSimulator();
/** A platform whose largest accepted `limit` is 300, with 660 movements to page through. */
const strict = useSimulator({ maxLimit: 300 });
/** A platform that accepts no page size of 10 or more. */
const tiny = useSimulator({ maxLimit: 5 });
/** 460 movements: 46 pages of 10, enough for the automatic concurrency to grow. */
const busy = useSimulator({ seed: 5 });

beforeAll(() => {
	addMovements(strict(), strict().credentials.businessId, 600);
	addMovements(busy(), busy().credentials.businessId, 400);
});

beforeEach(() => {
	for (const s of [sim(), strict(), tiny(), busy()]) {
		s.clearRequests();
		s.faults.clear();
		s.rateLimit.clear();
		s.resetInFlight();
	}
});

async function run(on: Simulator, resource: string, parameters: Record<string, unknown>, input?: INodeExecutionData[]) {
	return await runNode(
		{ parameters: { resource, operation: 'getMany', ...parameters } as never },
		{ credentials: dataCredentials(on), input },
	);
}

/** Undo the request watchers after each test. */
const restorers: Array<() => void> = [];
afterEach(() => {
	for (const restore of restorers.splice(0)) restore();
});

/**
 * Counts, for each request to `path` as it arrives, how many earlier ones are still unanswered
 * (the simulator sets a request's status when it answers).
 */
function watchInFlight(on: Simulator, path: string): number[] {
	const seen: number[] = [];
	const requests = on.requests;
	const push = requests.push.bind(requests);
	requests.push = (...added: RecordedRequest[]) => {
		for (const r of added) {
			if (r.path === path) seen.push(requests.filter((x) => x.path === path && x.status === 0).length);
		}
		return push(...added);
	};
	restorers.push(() => {
		requests.push = push;
	});
	return seen;
}

const pages = (reqs: RecordedRequest[]) => reqs.map((r) => Number(r.query.page)).sort((a, b) => a - b);
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('Max Concurrent Requests', () => {
	it('movements (page count from `count`): same records in the same order as sequential, each page once, at most 3 in flight', async () => {
		const all = listed(sim(), 'movements');
		const total = all.length;
		expect(Math.ceil(total / 7)).toBeGreaterThanOrEqual(8);
		sim().addFault({ kind: 'latency', latencyMs: 40, path: '/movement/filter' });

		const sequential = await run(sim(), 'movement', { returnAll: true, pagination: { pageSize: 7, maxConcurrency: 1 } });
		expect(sequential.error).toBeUndefined();
		const sequentialRequests = [...sim().apiRequests];
		sim().clearRequests();

		// Page 2 answers last, so records kept in arrival order would come out of order.
		sim().addFault({ kind: 'latency', latencyMs: 150, path: '/movement/filter', nth: [2] });
		const inFlight = watchInFlight(sim(), '/movement/filter');
		const concurrent = await run(sim(), 'movement', { returnAll: true, pagination: { pageSize: 7, maxConcurrency: 3 } });
		expect(concurrent.error).toBeUndefined();

		expect(jsonOf(concurrent.items)).toEqual(jsonOf(sequential.items));
		expect(jsonOf(concurrent.items)).toEqual(all);
		expect(concurrent.items.map((i) => i.pairedItem)).toEqual(all.map(() => ({ item: 0 })));
		const reqs = sim().apiRequests;
		expect(pages(reqs)).toEqual(range(Math.ceil(total / 7)));
		expect(pages(sequentialRequests)).toEqual(range(Math.ceil(total / 7)));
		expect(reqs[0].query.page).toBe('1');
		for (const r of reqs) {
			expect(r.method).toBe('POST');
			expect(r.path).toBe('/movement/filter');
			expect(r.query.limit).toBe('7');
			expectAuth(sim(), r, 'keys+biz');
		}
		// Requests overlapped, and never more than 3 at once.
		expect(Math.max(...inFlight)).toBeGreaterThanOrEqual(1);
		expect(Math.max(...inFlight)).toBeLessThanOrEqual(2);
		expect(inFlight[0]).toBe(0);
	});

	it('one after another when set to 1: no request arrives while another is unanswered', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 10, path: '/movement/filter' });
		const inFlight = watchInFlight(sim(), '/movement/filter');
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { pageSize: 10, maxConcurrency: 1 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(sim(), 'movements'));
		expect(inFlight.length).toBe(Math.ceil(items.length / 10));
		expect(Math.max(...inFlight)).toBe(0);
	});

	it('businesses (page count from `totalPages`, KEYS only): same records and order as sequential', async () => {
		const sequential = await run(sim(), 'business', { returnAll: true, pagination: { pageSize: 3, maxConcurrency: 1 } });
		sim().clearRequests();
		const concurrent = await run(sim(), 'business', { returnAll: true, pagination: { pageSize: 3, maxConcurrency: 16 } });
		expect(concurrent.error).toBeUndefined();
		expect(concurrent.items).toHaveLength(PRIMARY_BUSINESS_COUNT);
		expect(jsonOf(concurrent.items)).toEqual(jsonOf(sequential.items));
		const reqs = sim().apiRequests;
		expect(pages(reqs)).toEqual(range(Math.ceil(PRIMARY_BUSINESS_COUNT / 3)));
		for (const r of reqs) {
			expect(r.path).toBe('/business/list-businesses-by-owner');
			expect(r.query.limit).toBe('3');
			expectAuth(sim(), r, 'keys');
		}
	});

	it('with a Limit requests only the pages that the limit needs', async () => {
		const { items, error } = await run(sim(), 'movement', { limit: 20, pagination: { pageSize: 7, maxConcurrency: 4 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(sim(), 'movements').slice(0, 20));
		expect(pages(sim().apiRequests)).toEqual([1, 2, 3]);
	});

	it('a failed page fails the item with the platform message, and no records are returned', async () => {
		// A 500 on a read is retried; with Max Retries 0 the first one fails the page.
		sim().addFault({ kind: 'status', status: 500, path: '/business/list-businesses-by-owner', nth: [4] });
		const { items, error } = await run(sim(), 'business', { returnAll: true, pagination: { pageSize: 3, maxConcurrency: 2 }, requestOptions: { maxRetries: 0 } });
		expect(items).toHaveLength(0);
		expect(error?.message).toBe('Internal server error');
		expect(error?.httpCode).toBe('500');
		expect(sim().apiRequests.length).toBeLessThanOrEqual(Math.ceil(PRIMARY_BUSINESS_COUNT / 3));
	});
});

describe('automatic concurrency (the default, Max Concurrent Requests 0)', () => {
	const movementPages = () => Math.ceil(listed(busy(), 'movements').length / 10);

	it('same records in the same order as one page after another; grows beyond 1 and never beyond its cap', async () => {
		busy().addFault({ kind: 'latency', latencyMs: 30, path: '/movement/filter' });
		const sequential = await run(busy(), 'movement', { returnAll: true, pagination: { pageSize: 10, maxConcurrency: 1 } });
		expect(sequential.error).toBeUndefined();
		expect(busy().maxInFlight).toBe(1);
		busy().clearRequests();
		busy().resetInFlight();

		const auto = await run(busy(), 'movement', { returnAll: true, pagination: { pageSize: 10 } });
		expect(auto.error).toBeUndefined();
		expect(jsonOf(auto.items)).toEqual(jsonOf(sequential.items));
		expect(jsonOf(auto.items)).toEqual(listed(busy(), 'movements'));
		expect(auto.items.every((i) => i.pairedItem && (i.pairedItem as { item: number }).item === 0)).toBe(true);
		// Each page once, none past the end.
		expect(pages(busy().apiRequests)).toEqual(range(movementPages()));
		expect(busy().maxInFlight).toBeGreaterThanOrEqual(3);
		expect(busy().maxInFlight).toBeLessThanOrEqual(NETWORK_MAX_CONCURRENCY);
	});

	it('Limit 50 sends exactly one request', async () => {
		const { items, error } = await run(busy(), 'movement', { limit: 50 });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(busy(), 'movements').slice(0, 50));
		expect(busy().apiRequests.map((r) => r.query)).toEqual([{ page: '1', limit: '50' }]);
	});

	it('Limit 95 over pages of 10 requests the 10 pages it needs, no more', async () => {
		busy().addFault({ kind: 'latency', latencyMs: 20, path: '/movement/filter' });
		const { items, error } = await run(busy(), 'movement', { limit: 95, pagination: { pageSize: 10 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(busy(), 'movements').slice(0, 95));
		expect(pages(busy().apiRequests)).toEqual(range(10));
	});

	it('under a rate limit (429 with Retry-After) it backs off and pauses the whole walk, and does not fail', async () => {
		busy().rateLimit.set({ ratePerSecond: 40, burst: 8 });
		busy().addFault({ kind: 'latency', latencyMs: 5, path: '/movement/filter' });
		const { items, error } = await run(busy(), 'movement', { returnAll: true, pagination: { pageSize: 20 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(busy(), 'movements'));
		const reqs = busy().apiRequests;
		const refused = reqs.filter((r) => r.status === 429);
		expect(refused.length).toBeGreaterThanOrEqual(1);
		expect(busy().rateLimit.stats().limited).toBe(refused.length);
		// Every page answered once, in full.
		const ok = reqs.filter((r) => r.status === 200);
		expect(pages(ok)).toEqual(range(Math.ceil(items.length / 20)));
		expect(reqs.every((r) => r.status === 200 || r.status === 429)).toBe(true);
		expect(busy().maxInFlight).toBeLessThanOrEqual(NETWORK_MAX_CONCURRENCY);
		// While a Retry-After (1 s) runs, no new page is requested: a request that arrives then is
		// the retry of a page refused at least that long before.
		for (const no of refused) {
			const quietFrom = (no.answeredAt as number) + 100;
			const quietTo = (no.answeredAt as number) + 900;
			for (const r of reqs) {
				const at = r.receivedAt as number;
				if (at <= quietFrom || at >= quietTo) continue;
				const retried = refused.some((x) => x.query.page === r.query.page && (x.answeredAt as number) <= at - 900);
				expect({ page: r.query.page, retried }).toEqual({ page: r.query.page, retried: true });
			}
		}
	}, 30_000);

	it('under a steady rate limit it measures the rate and spaces its requests: refusals come in a few bursts, not one per second', async () => {
		// 92 pages at 20 requests/s: about 4 s, four refusals a second if nothing were learnt.
		busy().rateLimit.set({ ratePerSecond: 20 });
		const { items, error } = await run(busy(), 'movement', { returnAll: true, pagination: { pageSize: 5 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(busy(), 'movements'));
		const reqs = busy().apiRequests;
		const refusedAt = reqs.filter((r) => r.status === 429).map((r) => r.answeredAt as number);
		// A burst: the refusals of the requests in flight when the allowance ran out.
		const bursts = refusedAt.filter((at, n) => n === 0 || at - refusedAt[n - 1] > 500).length;
		expect(bursts).toBeLessThanOrEqual(3);
		expect(pages(reqs.filter((r) => r.status === 200))).toEqual(range(Math.ceil(items.length / 5)));
	}, 30_000);

	it('under a storm of 429, 503 and dropped connections: every record once, in order, each page answered once', async () => {
		busy().faults.seed(7);
		busy().addFault({ kind: 'status', status: 429, retryAfter: '0', probability: 0.2, path: '/movement/filter' });
		busy().addFault({ kind: 'status', status: 503, retryAfter: '0', probability: 0.05, path: '/movement/filter' });
		busy().addFault({ kind: 'drop', probability: 0.03, times: 4, path: '/movement/filter' });
		const { items, error } = await run(busy(), 'movement', {
			returnAll: true,
			pagination: { pageSize: 10 },
			requestOptions: { maxRetries: 10 },
		});
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(busy(), 'movements'));
		const reqs = busy().apiRequests;
		const counts = busy().faults.counts;
		expect(counts.status).toBeGreaterThan(3);
		expect(reqs.length).toBe(movementPages() + counts.status + counts.drop);
		expect(pages(reqs.filter((r) => r.status === 200))).toEqual(range(movementPages()));
	}, 30_000);

	it('an explicit Max Concurrent Requests is never exceeded (2 stays 2 where auto would grow)', async () => {
		busy().addFault({ kind: 'latency', latencyMs: 30, path: '/movement/filter' });
		const { items, error } = await run(busy(), 'movement', { returnAll: true, pagination: { pageSize: 10, maxConcurrency: 2 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(busy(), 'movements'));
		expect(busy().maxInFlight).toBe(2);
	});

	it('the rate limiter is per API key, off by default, and set through the control routes too', async () => {
		const base = busy().url;
		expect(busy().rateLimit.stats()).toEqual({ rule: null, allowed: 0, limited: 0 });
		const set = await fetch(`${base}/__sim/rate-limit`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ ratePerSecond: 1, burst: 2 }),
		});
		expect(set.status).toBe(200);
		const call = (key: string) =>
			fetch(`${base}/business/list-businesses-by-owner?page=1&limit=5`, {
				headers: { 'x-api-key': key, 'x-api-secret': busy().credentials.apiSecret },
			});
		const own = busy().credentials.apiKey;
		const statuses = [(await call(own)).status, (await call(own)).status];
		const third = await call(own);
		expect(statuses).toEqual([200, 200]);
		expect(third.status).toBe(429);
		expect(third.headers.get('retry-after')).toBe('1');
		// Another key has its own bucket (refused for its secret, not for the rate).
		expect((await call('spk_someone_else')).status).toBe(401);
		const stats = (await (await fetch(`${base}/__sim/rate-limit`)).json()) as { allowed: number; limited: number };
		expect(stats).toMatchObject({ allowed: 3, limited: 1 });
		expect((await fetch(`${base}/__sim/rate-limit`, { method: 'DELETE' })).status).toBe(200);
		expect((await call(own)).status).toBe(200);
	});
});

describe('bounds of the pagination options', () => {
	it.each([17, 2.5, -1])('Max Concurrent Requests %p is refused before any request', async (maxConcurrency) => {
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { maxConcurrency } });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(`Max Concurrent Requests must be a whole number from 0 (auto) to 16 (got ${maxConcurrency})`);
		expect(sim().apiRequests).toHaveLength(0);
	});

	it.each([0, 10_000_001, 2.5])('Max Pages %p is refused before any request', async (maxPages) => {
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { maxPages } });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(`Max Pages must be a whole number from 1 to 10000000 (got ${maxPages})`);
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('Max Pages that the list fits in is no error: pages of 10 with Max Pages 7 for 60 movements', async () => {
		const all = listed(sim(), 'movements');
		expect(Math.ceil(all.length / 10)).toBe(6);
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { pageSize: 10, maxPages: 6 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(all);
		expect(pages(sim().apiRequests)).toEqual(range(6));
	});

	it('a list longer than Max Pages fails naming the option, after exactly that many requests', async () => {
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { pageSize: 10, maxPages: 4 } });
		expect(items).toHaveLength(0);
		expect(error?.message).toBe('Return All stopped after 4 pages of POST /movement/filter: the platform says more follow');
		expect(error?.description).toContain('Raise Pagination › Max Pages (now 4)');
		expect(pages(sim().apiRequests)).toEqual(range(4));
	});

	it.each([0, 1001, 12.5])('Page Size %p is refused before any request', async (pageSize) => {
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { pageSize } });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(`Page Size must be a whole number from 1 to 1000 (got ${pageSize})`);
		expect(sim().apiRequests).toHaveLength(0);
	});

	it.each([0, 10_000_001, 2.5])('Max Records %p is refused before any request', async (maxRecords) => {
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { maxRecords } });
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(`Max Records must be a whole number from 1 to 10000000 (got ${maxRecords})`);
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('16 concurrent requests and pages of 1000 are accepted', async () => {
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { pageSize: 1000, maxConcurrency: 16 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(sim(), 'movements'));
		expect(sim().apiRequests.map((r) => r.query)).toEqual([{ page: '1', limit: '1000' }]);
	});
});

describe('page size refused by the platform', () => {
	it('a 400 naming limit makes Return All retry the first page with smaller sizes, then walk every page at the accepted size', async () => {
		const all = listed(strict(), 'movements');
		expect(all.length).toBe(660);
		const { items, error } = await run(strict(), 'movement', { returnAll: true, pagination: { pageSize: 1000 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(all);
		const reqs = strict().apiRequests;
		expect(reqs.map((r) => [r.query.page, r.query.limit, r.status])).toEqual([
			['1', '1000', 400],
			['1', '500', 400],
			['1', '250', 200],
			['2', '250', 200],
			['3', '250', 200],
		]);
		for (const r of reqs) expectAuth(strict(), r, 'keys+biz');
	});

	it('later items of the same execution start below the refused size (the items side by side wait for the first page that learns it)', async () => {
		const { items, error } = await run(strict(), 'movement', { returnAll: true, pagination: { pageSize: 1000 } }, [
			{ json: {} },
			{ json: {} },
		]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1320);
		expect(items[660].pairedItem).toEqual({ item: 1 });
		const asked = strict().apiRequests.map((r) => `${r.query.page}/${r.query.limit}`);
		expect(asked.slice(0, 3)).toEqual(['1/1000', '1/500', '1/250']);
		expect(asked.slice(3).sort()).toEqual(['1/250', '2/250', '2/250', '3/250', '3/250']);
	});

	it('works with Max Concurrent Requests: same records and order', async () => {
		const { items, error } = await run(strict(), 'movement', { returnAll: true, pagination: { pageSize: 1000, maxConcurrency: 4 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(strict(), 'movements'));
		expect(strict().apiRequests.filter((r) => r.status === 200).map((r) => r.query.limit)).toEqual(['250', '250', '250']);
	});

	it('with a Limit above the accepted size, the limit is still met over several pages', async () => {
		const { items, error } = await run(strict(), 'movement', { limit: 600, pagination: { pageSize: 1000 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(strict(), 'movements').slice(0, 600));
		expect(strict().apiRequests.map((r) => `${r.query.page}/${r.query.limit}`)).toEqual(['1/600', '1/500', '1/250', '2/250', '3/250']);
	});

	it('a 400 about another parameter is not retried with smaller pages', async () => {
		const { error } = await run(strict(), 'movement', { returnAll: true, pagination: { pageSize: 1000 }, filters: { originType: 'gift' } });
		expect(error?.message).toBe('Invalid param: [originType]');
		expect(error?.httpCode).toBe('400');
		expect(strict().apiRequests).toHaveLength(1);
	});

	it('when even the smallest size is refused, the platform error is reported', async () => {
		const { items, error } = await run(tiny(), 'movement', { returnAll: true, pagination: { pageSize: 50 } });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('Invalid param: [limit]');
		expect(error?.httpCode).toBe('400');
		expect(tiny().apiRequests.map((r) => r.query.limit)).toEqual(['50', '20', '10']);
	});
});
