/**
 * Return All under a storm of faults: more than 1,000 movements, one per page, while the
 * simulator answers a seeded share of the requests with 429 (Retry-After in seconds or as an
 * HTTP date), 502/503/504 (with and without Retry-After) and dropped connections. Every record
 * must come back exactly once, in the platform's order, and the counts on both sides must add up.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../support/harness/n8n-core';
import { listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { FaultRule } from '../support/simulator/faults';

const RECORDS = 1200;
const sim = useSimulator({ size: RECORDS, seed: 8 });

/** The storm: rules are tried in order and a request gets one of them at most. */
const STORM: FaultRule[] = [
	{ kind: 'latency', latencyMs: 15, probability: 0.02 },
	{ kind: 'status', status: 429, retryAfter: '0', probability: 0.33 },
	{ kind: 'status', status: 429, retryAfter: 'Thu, 01 Jan 1970 00:00:00 GMT', probability: 0.05 },
	{ kind: 'status', status: 503, retryAfter: '0', probability: 0.05 },
	{ kind: 'status', status: 502, retryAfter: '0', probability: 0.02 },
	{ kind: 'status', status: 504, retryAfter: '0', probability: 0.02 },
	// Without Retry-After the client backs off (100 ms and more): a bounded number of these.
	{ kind: 'status', status: 503, probability: 0.01, times: 10 },
	{ kind: 'drop', probability: 0.02, times: 15 },
];

function movements(parameters: INodeParameters): INodeParameters {
	return {
		resource: 'movement',
		operation: 'getMany',
		returnAll: true,
		// Enough retries that a run of bad luck on one page cannot end the list.
		requestOptions: { maxRetries: 10 },
		...parameters,
	};
}

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
	sim().faults.seed(2024);
	for (const rule of STORM) sim().addFault(rule);
});

describe('Return All over 1,000+ records under injected faults', () => {
	it('one page per request: 2,000+ requests, every record exactly once, in order', async () => {
		const expected = listed(sim(), 'movements').map((m) => m.id);
		expect(expected.length).toBeGreaterThanOrEqual(RECORDS);

		const started = Date.now();
		const { items, error } = await runNode(
			// One after another: the order of the answered pages is asserted below.
			{ parameters: movements({ pagination: { pageSize: 1, maxConcurrency: 1 } }) },
			{ credentials: dataCredentials(sim()) },
		);
		const elapsed = Date.now() - started;

		expect(error).toBeUndefined();
		const ids = items.map((i) => i.json.id);
		expect(ids).toEqual(expected);
		expect(new Set(ids).size).toBe(expected.length);

		const requests = sim().apiRequests;
		const counts = sim().faults.counts;
		const answeredByFault = counts.status + counts.drop + counts.malformed;
		// Bounded in count: the 2,000+ requests are the pages plus one per injected fault, no more.
		expect(requests.length).toBeGreaterThanOrEqual(2000);
		expect(requests.length).toBeLessThan(3000);
		expect(requests.length).toBe(expected.length + answeredByFault);
		expect(counts.status).toBeGreaterThan(700);
		expect(counts.drop).toBe(15);
		expect(counts.latency).toBeGreaterThan(0);
		for (const status of [429, 502, 503, 504, 0]) expect(requests.some((r) => r.status === status)).toBe(true);

		// Every page was answered successfully exactly once.
		const ok = requests.filter((r) => r.status === 200).map((r) => Number(r.query.page));
		expect(ok).toEqual(expected.map((_, n) => n + 1));
		for (const r of requests) {
			expect(r.method).toBe('POST');
			expect(r.path).toBe('/movement/filter');
			expect(r.query.limit).toBe('1');
		}
		// Bounded in time: about 25 s on a busy 2-core machine.
		expect(elapsed).toBeLessThan(60_000);
	}, 120_000);

	it('pages requested concurrently: the same records, exactly once, in the same order', async () => {
		const expected = listed(sim(), 'movements').map((m) => m.id);
		const { items, error } = await runNode(
			{ parameters: movements({ pagination: { pageSize: 10, maxConcurrency: 8 } }) },
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.id)).toEqual(expected);

		const requests = sim().apiRequests;
		const counts = sim().faults.counts;
		expect(counts.status + counts.drop).toBeGreaterThan(20);
		expect(requests.length).toBe(Math.ceil(expected.length / 10) + counts.status + counts.drop);
		const ok = requests.filter((r) => r.status === 200).map((r) => Number(r.query.page));
		expect([...ok].sort((a, b) => a - b)).toEqual(Array.from({ length: Math.ceil(expected.length / 10) }, (_, n) => n + 1));
	}, 60_000);

	it('a page that keeps failing ends the list with an error instead of a silently short result', async () => {
		sim().faults.clear();
		sim().addFault({ kind: 'status', status: 503, retryAfter: '0', path: '/movement/filter', nth: [3, 4, 5] });
		const { items, error } = await runNode(
			{ parameters: movements({ pagination: { pageSize: 100, maxConcurrency: 1 }, requestOptions: { maxRetries: 2 } }) },
			{ credentials: dataCredentials(sim()) },
		);
		expect(items).toHaveLength(0);
		expect(error?.httpCode).toBe('503');
		expect(error?.description).toContain('(after 3 attempts)');
		expect(sim().apiRequests.map((r) => [r.query.page, r.status])).toEqual([
			['1', 200],
			['2', 200],
			['3', 503],
			['3', 503],
			['3', 503],
		]);
	});
});
