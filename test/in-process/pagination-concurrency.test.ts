/**
 * Pagination options of every list operation, through real executions: Max Concurrent Requests
 * (same records in the same order as one page after another, never more requests in flight than
 * asked for), the bounds of Page Size and Max Concurrent Requests, and the fallback to smaller
 * pages when the platform refuses a page size with a 400 naming `limit`.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { runNode } from '../support/harness/n8n';
import { expectAuth, jsonOf, listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { RecordedRequest } from '../support/simulator/core';
import { addMovements } from '../support/simulator/routes/financials';
import { PRIMARY_BUSINESS_COUNT } from '../support/simulator/routes/00-accounts';
import type { Simulator } from '../support/simulator/server';

const sim = useSimulator();
/** A platform whose largest accepted `limit` is 300, with 660 movements to page through. */
const strict = useSimulator({ maxLimit: 300 });
/** A platform that accepts no page size of 10 or more. */
const tiny = useSimulator({ maxLimit: 5 });

beforeAll(() => addMovements(strict(), strict().credentials.businessId, 600));

beforeEach(() => {
	for (const s of [sim(), strict(), tiny()]) {
		s.clearRequests();
		s.faults.clear();
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

		const sequential = await run(sim(), 'movement', { returnAll: true, pagination: { pageSize: 7 } });
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

	it('one after another when left at 1: no request arrives while another is unanswered', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 10, path: '/movement/filter' });
		const inFlight = watchInFlight(sim(), '/movement/filter');
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { pageSize: 10 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(sim(), 'movements'));
		expect(inFlight.length).toBe(Math.ceil(items.length / 10));
		expect(Math.max(...inFlight)).toBe(0);
	});

	it('businesses (page count from `totalPages`, KEYS only): same records and order as sequential', async () => {
		const sequential = await run(sim(), 'business', { returnAll: true, pagination: { pageSize: 3 } });
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
		sim().addFault({ kind: 'status', status: 500, path: '/business/list-businesses-by-owner', nth: [4] });
		const { items, error } = await run(sim(), 'business', { returnAll: true, pagination: { pageSize: 3, maxConcurrency: 2 } });
		expect(items).toHaveLength(0);
		expect(error?.message).toBe('Internal server error');
		expect(error?.httpCode).toBe('500');
		expect(sim().apiRequests.length).toBeLessThanOrEqual(Math.ceil(PRIMARY_BUSINESS_COUNT / 3));
	});
});

describe('bounds of the pagination options', () => {
	it.each([0, 17, 2.5, -1])('Max Concurrent Requests %p is refused before any request', async (maxConcurrency) => {
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { maxConcurrency } });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe('Max Concurrent Requests must be a whole number from 1 to 16');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it.each([0, 1001, 12.5])('Page Size %p is refused before any request', async (pageSize) => {
		const { items, error } = await run(sim(), 'movement', { returnAll: true, pagination: { pageSize } });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe('Page Size must be a whole number from 1 to 1000');
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

	it('later items of the same execution start below the refused size', async () => {
		const { items, error } = await run(strict(), 'movement', { returnAll: true, pagination: { pageSize: 1000 } }, [
			{ json: {} },
			{ json: {} },
		]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1320);
		expect(items[660].pairedItem).toEqual({ item: 1 });
		expect(strict().apiRequests.map((r) => `${r.query.page}/${r.query.limit}`)).toEqual([
			'1/1000',
			'1/500',
			'1/250',
			'2/250',
			'3/250',
			'1/250',
			'2/250',
			'3/250',
		]);
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
