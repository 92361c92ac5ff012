/**
 * The automatic window on a far platform (issue 40), through real executions by n8n-core against
 * the simulator: when pages are slow because of latency (every page takes as long, however many
 * are in flight), the window starts wide after a long first answer and may pass 8, up to one
 * request per 25 ms of the fastest page and never past NETWORK_MAX_CONCURRENCY; when the platform
 * slows under load it backs off from that start; under a rate limit it refuses no more than a
 * window that starts at 1; Max Concurrent Requests and the file outputs keep their bounds.
 * In flight is counted from the simulator's record: the requests received and not yet answered
 * when each one arrives.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { FILE_AUTO_MAX_CONCURRENCY } from '../../nodes/SalesPayments/files/export';
import { AUTO_MAX_CONCURRENCY, NETWORK_MAX_CONCURRENCY } from '../../nodes/SalesPayments/transport/pacer';
import { readBinary } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { csvRecords } from '../support/helpers/csv';
import { jsonOf, listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { RecordedRequest } from '../support/simulator/core';
import { addMovements } from '../support/simulator/routes/financials';
import type { Simulator } from '../support/simulator/server';

const LIST = '/movement/filter';
/** 460 movements: 46 pages of 10. */
const sim = useSimulator({ seed: 11 });

beforeAll(() => {
	addMovements(sim(), sim().credentials.businessId, 400);
});

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
	sim().rateLimit.clear();
	sim().resetInFlight();
});

async function run(parameters: Record<string, unknown>) {
	return await runNode({ parameters: { resource: 'movement', operation: 'getMany', ...parameters } as never }, { credentials: dataCredentials(sim()) });
}

const lists = (on: Simulator) => on.apiRequests.filter((r) => r.path === LIST);

/** For each list request in arrival order: how many list requests were in flight when it arrived, itself included. */
function inFlightAtArrival(requests: RecordedRequest[]): number[] {
	return requests.map((r, n) => {
		const at = r.receivedAt as number;
		return requests.slice(0, n).filter((q) => (q.answeredAt as number) > at).length + 1;
	});
}

const pageNos = (requests: RecordedRequest[]) => requests.map((r) => Number(r.query.page));
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('a far platform: every page takes as long, however many are in flight', () => {
	it('600 ms a page: starts at 8 after the first page, grows past 8 and never past 24; every record once, in order', async () => {
		const sequential = await run({ returnAll: true, pagination: { pageSize: 10, maxConcurrency: 16 } });
		expect(sequential.error).toBeUndefined();
		sim().clearRequests();
		sim().addFault({ kind: 'latency', latencyMs: 600, path: LIST });
		const { items, error } = await run({ returnAll: true, pagination: { pageSize: 10 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(sim(), 'movements'));
		expect(jsonOf(items)).toEqual(jsonOf(sequential.items));
		const reqs = lists(sim());
		expect([...pageNos(reqs)].sort((a, b) => a - b)).toEqual(range(46));
		const inFlight = inFlightAtArrival(reqs);
		// Page 1 alone, then pages 2-9 at once (the window starts at 8, not 1).
		expect(inFlight[0]).toBe(1);
		expect(inFlight[8]).toBe(8);
		expect(Math.max(...inFlight)).toBeGreaterThan(AUTO_MAX_CONCURRENCY);
		expect(Math.max(...inFlight)).toBeLessThanOrEqual(NETWORK_MAX_CONCURRENCY);
		expect(sim().maxInFlight).toBeLessThanOrEqual(NETWORK_MAX_CONCURRENCY);
	}, 30_000);

	it('300 ms a page: the window passes 8 only up to one request per 25 ms of the trip (12)', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 300, path: LIST });
		const { items, error } = await run({ returnAll: true, pagination: { pageSize: 10 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(sim(), 'movements'));
		const most = Math.max(...inFlightAtArrival(lists(sim())));
		expect(most).toBeGreaterThan(AUTO_MAX_CONCURRENCY);
		// 12 = 300 / 25; a page slowed a little by a busy machine (the fastest still under 350 ms) allows 13.
		expect(most).toBeLessThanOrEqual(13);
	}, 30_000);

	it('Max Concurrent Requests keeps its meaning: 2 stays 2 on a far platform', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 300, path: LIST });
		const { items, error } = await run({ limit: 100, pagination: { pageSize: 10, maxConcurrency: 2 } });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(100);
		expect(sim().maxInFlight).toBe(2);
	}, 30_000);

	it('a CSV file keeps its memory bound: at most 4 pages in flight, though it starts at 4 at once', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 600, path: LIST });
		const { items, error } = await run({ returnAll: true, output: 'csvFile', pagination: { pageSize: 25 } });
		expect(error).toBeUndefined();
		const file = items[0] as INodeExecutionData;
		const ids = csvRecords((await readBinary(file.binary!.data)).toString('utf8')).records.map((r) => r.id);
		expect(ids).toEqual(listed(sim(), 'movements').map((m) => m.id));
		const inFlight = inFlightAtArrival(lists(sim()));
		expect(inFlight.slice(0, 5)).toEqual([1, 1, 2, 3, 4]);
		expect(Math.max(...inFlight)).toBe(FILE_AUTO_MAX_CONCURRENCY);
	}, 30_000);
});

describe('a far platform that slows under load', () => {
	it('600 ms a page, then from request 21 on 150 ms more for each other request in flight: the window comes back from past 8 to 8 at most', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 600, path: LIST, nth: range(20) });
		sim().addFault({ kind: 'latency', latencyMs: 600, perInFlightMs: 150, path: LIST, nth: range(100).slice(20) });
		const { items, error } = await run({ returnAll: true, pagination: { pageSize: 10 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(sim(), 'movements'));
		const reqs = lists(sim());
		const inFlight = inFlightAtArrival(reqs);
		// Flat pages: past 8.
		expect(Math.max(...inFlight.slice(0, 20))).toBeGreaterThan(AUTO_MAX_CONCURRENCY);
		// The first slow answer (more than twice the fastest) brings the window back to 8: the
		// requests sent after it never find more than 8 in flight (themselves included).
		const firstSlow = Math.min(...reqs.slice(20).map((r) => r.answeredAt as number));
		const after = reqs.map((r, n) => [r, inFlight[n]] as const).filter(([r]) => (r.receivedAt as number) > firstSlow + 5);
		expect(after.length).toBeGreaterThan(0);
		expect(Math.max(...after.map(([, n]) => n))).toBeLessThanOrEqual(AUTO_MAX_CONCURRENCY);
	}, 60_000);
});

describe('a far platform that rate-limits', () => {
	it('600 ms a page under 5 requests/s (bucket of 5): every page once, no failure, at most 4 refusals (5c6480b: 5-6)', async () => {
		// The wide start fills at one request per 25 ms, so the first refusal comes back (and pauses the
		// walk) before the whole window is sent; after a refusal the window stays within 8. 5c6480b,
		// whose window started at 1, met the limit later with more requests in flight: 5, 6 and 6
		// refusals in three runs (this build: 3, 3 and 4).
		sim().rateLimit.set({ ratePerSecond: 5, burst: 5 });
		sim().addFault({ kind: 'latency', latencyMs: 600, path: LIST });
		const { items, error } = await run({ returnAll: true, pagination: { pageSize: 10 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(listed(sim(), 'movements'));
		const reqs = lists(sim());
		expect(pageNos(reqs.filter((r) => r.status === 200)).sort((a, b) => a - b)).toEqual(range(46));
		expect(reqs.every((r) => r.status === 200 || r.status === 429)).toBe(true);
		const refused = reqs.filter((r) => r.status === 429).length;
		expect(refused).toBe(sim().rateLimit.stats().limited);
		expect(refused).toBeGreaterThanOrEqual(1);
		expect(refused).toBeLessThanOrEqual(4);
	}, 60_000);
});
