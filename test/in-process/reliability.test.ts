/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Reliability under faults (issue 8): what the transport repeats and what it never repeats,
 * Retry-After, backoff, Max Retries and Timeout, and clear errors for malformed answers. Faults
 * are injected by the simulator (test/support/simulator/faults.ts) and counted on its side.
 */
import path from 'node:path';

import axios from 'axios';

import type { INodeParameters } from 'n8n-workflow';

import { PACKAGE_DIR, runNode } from '../support/harness/n8n-core';
import type { RunResult } from '../support/harness/n8n-core';
import { pixCharge } from '../support/helpers/fixtures';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';
import type { FaultRule } from '../support/simulator/faults';
import { MALFORMED_BODY } from '../support/simulator/faults';
import { ordersOf } from '../support/simulator/routes/orders';

type Transport = typeof import('../../nodes/SalesPayments/transport/retry') &
	typeof import('../../nodes/SalesPayments/transport/pause') &
	typeof import('../../nodes/SalesPayments/transport/requestOptions');
// The built retry policy, Retry-After reader and Request Options, as n8n runs them.
const transport = {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	...require(path.join(PACKAGE_DIR, 'dist/nodes/SalesPayments/transport/retry.js')),
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	...require(path.join(PACKAGE_DIR, 'dist/nodes/SalesPayments/transport/pause.js')),
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	...require(path.join(PACKAGE_DIR, 'dist/nodes/SalesPayments/transport/requestOptions.js')),
} as Transport;

const sim = useSimulator();

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
});

async function run(parameters: INodeParameters, continueOnFail = false): Promise<RunResult> {
	return await runNode({ parameters, continueOnFail }, { credentials: dataCredentials(sim()) });
}

function fault(rule: FaultRule): void {
	sim().addFault(rule);
}

const balance: INodeParameters = { resource: 'business', operation: 'getBalance' };

function primaryOrders(): JsonObject[] {
	return ordersOf(sim(), sim().credentials.businessId);
}

function statuses(): number[] {
	return sim().apiRequests.map((r) => r.status);
}

describe('reads are repeated after transient failures', () => {
	it.each([
		['429 with Retry-After 0', { kind: 'status', status: 429, retryAfter: '0' }, 429],
		['502', { kind: 'status', status: 502 }, 502],
		['503', { kind: 'status', status: 503 }, 503],
		['504', { kind: 'status', status: 504 }, 504],
		['a dropped connection', { kind: 'drop' }, 0],
	] as const)('GET after %s: one more attempt, then the record', async (_label, rule, status) => {
		fault({ ...rule, times: 1 } as FaultRule);
		const { items, error } = await run(balance);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.totalFundsInCents).toEqual(expect.any(Number));
		expect(statuses()).toEqual([status, 200]);
		expect(sim().apiRequests.every((r) => r.path === '/business/balance')).toBe(true);
	});

	it('a read-only filter POST sent as one request (Movement summary) is repeated after a 503', async () => {
		fault({ kind: 'status', status: 503, times: 2, path: '/movement/filter' });
		const { items, error } = await run({ resource: 'movement', operation: 'getMany', output: 'summary' });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ count: expect.any(Number), totalValue: expect.any(Number) });
		expect(statuses()).toEqual([503, 503, 200]);
		expect(sim().apiRequests.every((r) => r.method === 'POST')).toBe(true);
	});

	it('a read is repeated after a transient 500; one that persists shows the platform message after Max Retries', async () => {
		fault({ kind: 'status', status: 500, times: 1 });
		const { items, error } = await run(balance);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(statuses()).toEqual([500, 200]);
		sim().clearRequests();
		fault({ kind: 'status', status: 500 });
		const failed = await run(balance);
		expect(failed.error?.name).toBe('NodeApiError');
		expect(failed.error?.message).toBe('Internal server error');
		expect(failed.error?.httpCode).toBe('500');
		expect(failed.error?.description).toContain('(after 4 attempts)');
		expect(statuses()).toEqual([500, 500, 500, 500]);
	});

	it('Max Retries bounds the attempts, and the error says how many were made', async () => {
		fault({ kind: 'status', status: 503, retryAfter: '0' });
		const { error } = await run({ ...balance, requestOptions: { maxRetries: 2 } });
		expect(error?.httpCode).toBe('503');
		expect(error?.description).toContain('(after 3 attempts)');
		expect(statuses()).toEqual([503, 503, 503]);

		sim().clearRequests();
		const none = await run({ ...balance, requestOptions: { maxRetries: 0 } });
		expect(none.error?.httpCode).toBe('503');
		expect(statuses()).toEqual([503]);
	});

	it('the default is 3 retries: 4 attempts in all', async () => {
		fault({ kind: 'status', status: 429, retryAfter: '0' });
		const { error } = await run(balance);
		expect(error?.httpCode).toBe('429');
		expect(statuses()).toEqual([429, 429, 429, 429]);
	});
});

describe('Retry-After and backoff', () => {
	it('honours Retry-After in seconds', async () => {
		fault({ kind: 'status', status: 429, retryAfter: '1', times: 1 });
		const started = Date.now();
		const { error } = await run(balance);
		expect(error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(statuses()).toEqual([429, 200]);
	});

	it('honours Retry-After given as an HTTP date', async () => {
		// HTTP dates have whole seconds: 2 s ahead is between 1 and 2 s ahead once truncated.
		fault({ kind: 'status', status: 503, retryAfter: new Date(Date.now() + 2_000).toUTCString(), times: 1 });
		const started = Date.now();
		const { error } = await run(balance);
		expect(error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(900);
		expect(statuses()).toEqual([503, 200]);
	});

	it('without Retry-After, waits a short backoff (100-200 ms before the first retry)', async () => {
		fault({ kind: 'drop', times: 1 });
		const started = Date.now();
		const { error } = await run(balance);
		expect(error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(95);
		expect(statuses()).toEqual([0, 200]);
	});

	it('parses Retry-After: seconds, dates (against the answer\'s Date, else n8n\'s clock), past dates, garbage; a long one as asked', () => {
		const clock = () => Date.parse('2026-03-01T12:00:00.000Z');
		const read = (header: string | undefined, date?: string) => transport.retryAfterMs(header, date, clock);
		expect(read('2')).toBe(2000);
		expect(read(' 0 ')).toBe(0);
		expect(read('1.5')).toBe(1500);
		expect(read('Sun, 01 Mar 2026 12:00:05 GMT')).toBe(5000);
		expect(read('Sun, 01 Mar 2026 12:00:05 GMT', 'Sun, 01 Mar 2026 11:00:03 GMT')).toBe(3_602_000);
		expect(read('Sun, 01 Mar 2026 11:00:00 GMT')).toBe(0);
		expect(read('-3')).toBe(0);
		// Asked as is: Max Retries bounds what the transport waits (MAX_RETRY_WAIT_MS for each retry).
		expect(read('86400')).toBe(86_400_000);
		expect(read('soon')).toBeUndefined();
		expect(read('')).toBeUndefined();
		expect(read(undefined)).toBeUndefined();
		expect(transport.MAX_RETRY_WAIT_MS).toBe(30_000);
	});

	it('backs off exponentially with jitter, within bounds', () => {
		expect(transport.backoffMs(0, () => 0)).toBe(100);
		expect(transport.backoffMs(0, () => 0.999)).toBeLessThanOrEqual(200);
		expect(transport.backoffMs(1, () => 0)).toBe(200);
		expect(transport.backoffMs(2, () => 0)).toBe(400);
		expect(transport.backoffMs(20, () => 1)).toBe(transport.MAX_BACKOFF_MS);
		const spread = new Set(Array.from({ length: 50 }, () => transport.backoffMs(3)));
		expect(spread.size).toBeGreaterThan(5);
		for (const ms of spread) {
			expect(ms).toBeGreaterThanOrEqual(800);
			expect(ms).toBeLessThanOrEqual(1600);
		}
	});

	it('decides what may be repeated', () => {
		const read = (facts: { status?: number; code?: string }) => transport.shouldRetry(facts, true);
		const write = (facts: { status?: number; code?: string }) => transport.shouldRetry(facts, false);
		for (const status of [429, 500, 502, 503, 504]) expect(read({ status })).toBe(true);
		for (const status of [400, 401, 403, 404, 409, 422, 501]) expect(read({ status })).toBe(false);
		for (const code of ['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'ECONNREFUSED']) expect(read({ code })).toBe(true);
		expect(read({ code: 'ENOTFOUND' })).toBe(false);
		expect(read({ code: 'ERR_CANCELED' })).toBe(false);
		// Writes: only when the platform certainly did not process the request.
		expect(write({ status: 429 })).toBe(true);
		expect(write({ code: 'ECONNREFUSED' })).toBe(true);
		for (const status of [500, 502, 503, 504]) expect(write({ status })).toBe(false);
		for (const code of ['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE']) expect(write({ code })).toBe(false);
	});
});

describe('writes are never repeated once the platform may have processed them', () => {
	it('Create Charge under a 500 sent after processing: one request, one order, the error is shown', async () => {
		const before = primaryOrders().length;
		fault({ kind: 'status', status: 500, afterProcessing: true, path: '/orders/create-charge' });
		const { error, items } = await run(pixCharge());
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('500');
		expect(error?.description).not.toContain('attempts');
		expect(sim().requestsTo('POST', '/orders/create-charge')).toHaveLength(1);
		// The simulator did create the charge: a retry would have charged the buyer twice.
		expect(primaryOrders().length).toBe(before + 1);
		expect(sim().faults.counts.status).toBe(1);
	});

	it('Create Charge whose connection drops after processing: one request, one order', async () => {
		const before = primaryOrders().length;
		fault({ kind: 'drop', afterProcessing: true, path: '/orders/create-charge' });
		const { error } = await run(pixCharge());
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The connection to the platform was closed before it answered');
		expect(sim().requestsTo('POST', '/orders/create-charge')).toHaveLength(1);
		expect(primaryOrders().length).toBe(before + 1);
	});

	it('Create Charge that times out: one request, one order (processed after the client gave up)', async () => {
		const before = primaryOrders().length;
		fault({ kind: 'latency', latencyMs: 600, path: '/orders/create-charge' });
		const { error } = await run(pixCharge({ requestOptions: { timeout: 150, maxRetries: 5 } }));
		expect(error?.message).toBe('The platform did not answer within 150 ms');
		// The simulator processes the charge once its latency is over.
		for (let waited = 0; primaryOrders().length === before && waited < 5_000; waited += 50) {
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		expect(primaryOrders().length).toBe(before + 1);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(sim().requestsTo('POST', '/orders/create-charge')).toHaveLength(1);
	});

	it.each([502, 503, 504])('Create Charge under %i: not repeated', async (status) => {
		const before = primaryOrders().length;
		fault({ kind: 'status', status, retryAfter: '0', path: '/orders/create-charge' });
		const { error } = await run(pixCharge());
		expect(error?.httpCode).toBe(String(status));
		expect(sim().requestsTo('POST', '/orders/create-charge')).toHaveLength(1);
		expect(primaryOrders().length).toBe(before);
	});

	it('Create Charge refused with 429 (not processed) is sent again after Retry-After: exactly one order', async () => {
		const before = primaryOrders().length;
		fault({ kind: 'status', status: 429, retryAfter: '0', times: 2, path: '/orders/create-charge' });
		const { error, items } = await run(pixCharge());
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(statuses()).toEqual([429, 429, 201]);
		expect(primaryOrders().length).toBe(before + 1);
		expect(primaryOrders().some((o) => o.id === items[0].json.orderId)).toBe(true);
	});

	it('Create Charge for 3 input items with continueOnFail: the failed one is reported, none is repeated', async () => {
		const before = primaryOrders().length;
		// The second charge is processed but its answer is lost.
		fault({ kind: 'status', status: 500, afterProcessing: true, nth: [2], path: '/orders/create-charge' });
		const result = await runNode(
			{ parameters: pixCharge(), continueOnFail: true },
			{ credentials: dataCredentials(sim()), input: [{ json: { n: 1 } }, { json: { n: 2 } }, { json: { n: 3 } }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json.orderId).toEqual(expect.any(String));
		expect(result.items[1].json.error).toBe('Internal server error');
		expect(result.items[2].json.orderId).toEqual(expect.any(String));
		expect(sim().requestsTo('POST', '/orders/create-charge')).toHaveLength(3);
		expect(primaryOrders().length).toBe(before + 3);
	});
});

describe('timeouts', () => {
	it('a read that times out is repeated and then succeeds', async () => {
		fault({ kind: 'latency', latencyMs: 1_000, times: 1, path: '/business/balance' });
		const started = Date.now();
		const { error, items } = await run({ ...balance, requestOptions: { timeout: 400 } });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(Date.now() - started).toBeGreaterThanOrEqual(400);
		expect(sim().apiRequests).toHaveLength(2);
	});

	it('a read that keeps timing out fails with the timeout in plain words', async () => {
		fault({ kind: 'latency', latencyMs: 400, path: '/business/balance' });
		const { error } = await run({ ...balance, requestOptions: { timeout: 100, maxRetries: 1 } });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The platform did not answer within 100 ms');
		expect(error?.description).toBe('GET /business/balance (after 2 attempts)');
		expect(sim().apiRequests).toHaveLength(2);
	});

	it('the default timeout is 30 s', () => {
		expect(transport.DEFAULT_SETTINGS).toEqual({ timeout: 30_000, maxRetries: 3, maxConcurrency: 0 });
	});
});

describe('malformed answers', () => {
	it('malformed JSON gives a clear error and is not repeated', async () => {
		fault({ kind: 'malformed', path: '/business/balance' });
		const { error } = await run(balance);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The platform returned a response that is not valid JSON');
		expect(error?.description).toBe(`GET /business/balance (business.getBalance) answered: ${MALFORMED_BODY}`);
		expect(sim().apiRequests).toHaveLength(1);
	});

	it.each(['gzip', 'br', 'deflate'])('an answer labelled content-encoding: %s whose body is plain JSON fails with an error naming the request and what was wrong', async (encoding) => {
		fault({ kind: 'malformed', status: 200, body: JSON.stringify({ statusCode: 200, data: { balance: 1 } }), contentEncoding: encoding, path: '/business/balance' });
		const { error } = await run(balance);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(
			"The platform's answer to GET /business/balance could not be read: its content-encoding header says it is compressed, but the body could not be decompressed",
		);
		expect(error?.description).toContain('GET /business/balance (business.getBalance)');
		expect(error?.description).toContain('wrong content-encoding header');
		expect(sim().apiRequests).toHaveLength(1);
	});

	it('malformed JSON on a later page of Return All stops the list with the same error', async () => {
		fault({ kind: 'malformed', path: '/business/list-businesses-by-owner', nth: [3] });
		const { error, items } = await run({
			resource: 'business',
			operation: 'getMany',
			returnAll: true,
			pagination: { pageSize: 5, maxConcurrency: 1 },
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toBe('The platform returned a response that is not valid JSON');
		expect(sim().apiRequests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
	});

	it('an HTML error page instead of JSON is reported with its status and text', async () => {
		fault({ kind: 'status', status: 502, body: '<html><body>Bad gateway from the proxy</body></html>' });
		const { error } = await run({ ...balance, requestOptions: { maxRetries: 0 } });
		expect(error?.httpCode).toBe('502');
		expect(error?.message).toBe('<html><body>Bad gateway from the proxy</body></html>');
		expect(error?.description).toBe('HTTP 502: GET /business/balance');
	});

	it('with continueOnFail the malformed answer becomes an error item', async () => {
		fault({ kind: 'malformed', body: 'not json at all' });
		const { error, items } = await run(balance, true);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.error).toBe('The platform returned a response that is not valid JSON');
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(sim().apiRequests).toHaveLength(1);
	});
});

describe('the simulator counts what it injects', () => {
	it('fires on the Nth request, every Nth, with a seeded probability, and at most `times` times', () => {
		const faults = sim().faults;
		faults.add({ kind: 'status', status: 503, nth: [2, 4], path: '/a' });
		faults.add({ kind: 'drop', every: 3, path: '/b' });
		faults.add({ kind: 'status', status: 429, probability: 0.5, times: 3, path: '/c' });
		const fired = (p: string) => Array.from({ length: 10 }, () => faults.pick('GET', p).length);
		expect(fired('/a')).toEqual([0, 1, 0, 1, 0, 0, 0, 0, 0, 0]);
		expect(fired('/b')).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0]);
		expect(fired('/c').reduce((a, b) => a + b, 0)).toBe(3);
		expect(faults.counts).toEqual({ latency: 0, status: 5, drop: 3, malformed: 0, redirect: 0, trickle: 0, huge: 0 });
		expect(faults.list().map((r) => [r.seen, r.applied])).toEqual([
			[10, 2],
			[10, 3],
			[10, 3],
		]);
	});

	it('answers a request with one fault at most, and the same seed gives the same faults', () => {
		const draw = () => {
			const faults = sim().faults;
			faults.clear();
			faults.seed(7);
			faults.add({ kind: 'status', status: 503, probability: 0.3 });
			faults.add({ kind: 'drop', probability: 0.3 });
			return Array.from({ length: 40 }, () => faults.pick('GET', '/x').map((f) => f.kind).join('+'));
		};
		const first = draw();
		expect(first.every((k) => ['', 'status', 'drop'].includes(k))).toBe(true);
		expect(first).toEqual(draw());
		expect(new Set(first).size).toBe(3);
	});

	it('takes rules from other processes through /__sim/faults and reports what fired', async () => {
		const url = `${sim().url}/__sim/faults`;
		await axios.post(url, { kind: 'status', status: 503, retryAfter: '0', times: 2, path: '/business/balance' });
		const { error } = await run(balance);
		expect(error).toBeUndefined();
		expect(statuses()).toEqual([503, 503, 200]);
		const report = (await axios.get(url)).data as { rules: Array<{ seen: number; applied: number }>; counts: object };
		expect(report.rules.map((r) => [r.seen, r.applied])).toEqual([[3, 2]]);
		expect(report.counts).toEqual({ latency: 0, status: 2, drop: 0, malformed: 0, redirect: 0, trickle: 0, huge: 0 });
		const refused = await axios.post(url, { kind: 'explode' }, { validateStatus: () => true });
		expect(refused.status).toBe(400);
		expect(refused.data.message).toContain('Unknown fault kind');
		await axios.delete(url);
		expect(sim().faults.list()).toEqual([]);
	});

	it('refuses rules it cannot apply', () => {
		expect(() => sim().faults.add({ kind: 'explode' as never })).toThrow('Unknown fault kind');
		expect(() => sim().faults.add({ kind: 'drop', probability: 2 })).toThrow('probability');
	});
});
