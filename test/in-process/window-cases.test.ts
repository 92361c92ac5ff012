/**
 * Issue 51's cases 1-5, through real executions by n8n-core against the simulator over HTTP: the
 * window's parts keep no wall-clock instant and no state older than their window, a fixed Max
 * Concurrent Requests lane counts against its own bound only, a Retry-After date is read on the
 * platform's own clock, and Max Retries bounds a request's waits. Each failed on 49f7149.
 *
 * Clocks: `shift` moves n8n's wall clock (Date.now) and, with `both`, the monotonic one
 * (performance.now) too: both moving is time passing; the wall clock alone is a clock stepped.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { runNode } from '../support/harness/n8n-core';
import { jsonOf, listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { windowStore } from '../support/helpers/windows';
import type { RecordedRequest } from '../support/simulator/core';
import { addMovements } from '../support/simulator/routes/financials';

const LIST = '/movement/filter';
const HOUR = 3_600_000;
/** 460 movements: 46 pages of 10. */
const sim = useSimulator({ seed: 51 });

beforeAll(() => {
	addMovements(sim(), sim().credentials.businessId, 400);
});

let wall = 0;
let mono = 0;
beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
	sim().rateLimit.clear();
	sim().resetInFlight();
	[wall, mono] = [0, 0];
	const [dateNow, perfNow] = [Date.now.bind(Date), performance.now.bind(performance)];
	jest.spyOn(Date, 'now').mockImplementation(() => dateNow() + wall);
	jest.spyOn(performance, 'now').mockImplementation(() => perfNow() + mono);
});
afterEach(() => jest.restoreAllMocks());

/** Moves n8n's wall clock by `ms`; with `both`, the monotonic clock too (time passing). */
function shift(ms: number, both = false): void {
	wall += ms;
	if (both) mono += ms;
}

async function list(parameters: Record<string, unknown> = {}) {
	return await runNode({ parameters: { resource: 'movement', operation: 'getMany', returnAll: true, pagination: { pageSize: 10 }, ...parameters } as never }, { credentials: dataCredentials(sim()) });
}

const orders = () => sim().state.col('orders').filter((o) => o.businessId === sim().credentials.businessId);
/** `n` items naming 8 different orders in turn. */
const items = (n: number): INodeExecutionData[] => Array.from({ length: n }, (_, k) => ({ json: { id: String(orders()[k % 8].id) } }));
async function getOrders(n: number, parameters: Record<string, unknown> = {}) {
	return await runNode({ parameters: { resource: 'order', operation: 'get', orderId: '={{ $json.id }}', ...parameters } as never }, { credentials: dataCredentials(sim()), input: items(n) });
}

/** The most requests of `requests` in flight at once (from the simulator's record). */
function mostInFlight(requests: RecordedRequest[]): number {
	return Math.max(...requests.map((r) => requests.filter((q) => (q.receivedAt as number) <= (r.receivedAt as number) && (q.answeredAt as number) > (r.receivedAt as number)).length));
}

const seconds = async (work: () => Promise<unknown>) => {
	const start = performance.now();
	await work();
	return (performance.now() - start) / 1000;
};

describe('case 1: the measured rate, whatever happened an hour before', () => {
	it('requests that overlapped an hour before (a poll every 5 minutes since): 46 pages under 10/s take seconds, at the measured rate', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 60, path: LIST });
		// Pages side by side, an hour before.
		expect((await list()).error).toBeUndefined();
		expect(mostInFlight(sim().apiRequests)).toBeGreaterThan(1);
		for (let k = 0; k < 12; k++) {
			shift(5 * 60_000, true);
			expect((await getOrders(1)).error).toBeUndefined();
		}
		sim().clearRequests();
		sim().rateLimit.set({ ratePerSecond: 10, burst: 10 });
		let result: Awaited<ReturnType<typeof list>> | undefined;
		// 46 pages at 10/s, 10 at once: about 4 s (on 49f7149: a rate of 0.02/s, 42 s for the next page).
		expect(await seconds(async () => (result = await list()))).toBeLessThan(12);
		expect(result?.error).toBeUndefined();
		expect(jsonOf(result!.items)).toEqual(listed(sim(), 'movements'));
		expect(sim().apiRequests.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(1);
	}, 60_000);
});

describe('case 2: no wall-clock instant', () => {
	it('the wall clock stepped back an hour during a Retry-After of 2 s: the items go on 2 s later, not an hour', async () => {
		sim().addFault({ kind: 'status', status: 429, retryAfter: '2', path: '/orders/', times: 1 });
		sim().addFault({ kind: 'latency', latencyMs: 100, path: '/orders/' });
		const run = getOrders(6);
		await sleep(600);
		shift(-HOUR);
		const started = performance.now();
		const { error } = await run;
		expect(error).toBeUndefined();
		expect(performance.now() - started).toBeLessThan(5_000);
		expect(sim().apiRequests.filter((r) => r.status === 200)).toHaveLength(6);
	}, 30_000);

	it('the wall clock stepped back during the first answer (a negative time, before): the window still opens on a far platform', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 400, path: '/orders/' });
		const run = getOrders(24);
		await sleep(200);
		shift(-HOUR);
		const { error } = await run;
		expect(error).toBeUndefined();
		// 400 ms answers start the window at 12 or more: on 49f7149, one at a time for the whole run.
		expect(mostInFlight(sim().apiRequests)).toBeGreaterThanOrEqual(6);
	}, 60_000);
});

describe('case 3: a fixed Max Concurrent Requests counts against its own bound only', () => {
	it('a run with Max Concurrent Requests 8 neither holds back a run on the automatic window nor moves that window', async () => {
		// A near platform first: the automatic window stays below the fixed run's 8.
		sim().addFault({ kind: 'latency', latencyMs: 20, path: '/orders/' });
		expect((await getOrders(4)).error).toBeUndefined();
		const [, gate] = windowStore()!.entries()[0] as [string, { window?: number; pacer?: { window: number } }];
		// (49f7149 kept the window in its pacer.)
		const windowOf = () => gate.window ?? gate.pacer?.window;
		const window = windowOf();
		expect(window).toBeLessThan(8);
		sim().faults.clear();
		sim().addFault({ kind: 'latency', latencyMs: 500, path: '/orders/' });
		const fixed = getOrders(40, { requestOptions: { maxConcurrency: 8 } });
		await sleep(300);
		// One order on the automatic window while the fixed run's 8 are in flight: one answer's time (on 49f7149, the whole fixed run).
		expect(await seconds(async () => expect((await getOrders(1)).error).toBeUndefined())).toBeLessThan(1.5);
		expect((await fixed).error).toBeUndefined();
		expect(sim().maxInFlight).toBeLessThanOrEqual(9);
		// 40 answers of the fixed run, none of which moved the automatic window.
		expect(windowOf()).toBe(window);
	}, 60_000);
});

describe('case 4: a Retry-After date on the platform\'s own clock', () => {
	it('the platform 10 s behind n8n refuses for 2 s of its clock, with Retry-After at that date: one wait of about 2 s, then the read', async () => {
		sim().state.clock.advance(-10_000);
		try {
			sim().addFault({ kind: 'status', status: 429, refuseForMs: 2000, path: '/orders/' });
			const result = await getOrders(1);
			expect(result.error).toBeUndefined();
			// On 49f7149 the date is read on n8n's clock, 8 s in the past: 4 attempts at once, and a 429.
			const statuses = sim().apiRequests.map((r) => r.status);
			expect(statuses.at(-1)).toBe(200);
			expect(statuses.filter((s) => s === 429).length).toBeLessThanOrEqual(2);
		} finally {
			sim().state.clock.advance(10_000);
		}
	}, 30_000);
});

describe('case 5: Max Retries bounds the attempts and their time', () => {
	it('Return All, Max Retries 1, pages 2 on answering 503 with Retry-After: 86400: fails at once, says why, and leaves no pause behind', async () => {
		sim().addFault({ kind: 'status', status: 503, retryAfter: '86400', path: LIST, nth: Array.from({ length: 200 }, (_, k) => k + 2) });
		let result: Awaited<ReturnType<typeof list>> | undefined;
		// On 49f7149: 60 s and 5 requests (a 30 s wait, then another behind the pause it set).
		expect(await seconds(async () => (result = await list({ requestOptions: { maxRetries: 1 } })))).toBeLessThan(5);
		expect(result?.error?.message).toMatch(/unavailable|503/i);
		expect(String((result?.error as { description?: string }).description)).toMatch(/86400 s .*Max Retries 1/);
		// The refusal was not retried: no pause holds the credential's next run.
		sim().faults.clear();
		expect(await seconds(async () => expect((await getOrders(1)).error).toBeUndefined())).toBeLessThan(2);
	}, 120_000);
});
