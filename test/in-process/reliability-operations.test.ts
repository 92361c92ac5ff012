/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Request Options and the retry rules reach EVERY operation (read from the built description,
 * so new operations are covered without editing this file): Max Retries bounds the attempts,
 * Timeout (Ms) ends a slow request, reads (GET and the read-only filter POSTs) are repeated after
 * a 503 while writes are not, and a 429 (refused before processing) is repeated for all.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../support/harness/n8n-core';
import type { RunResult } from '../support/harness/n8n-core';
import type { OperationInfo } from '../support/helpers/operations';
import { baselineFor, listOperations } from '../support/helpers/operations';
import { useSimulator } from '../support/helpers/sim';
import type { RecordedRequest } from '../support/simulator/core';

const sim = useSimulator();

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
});

const operations = listOperations();

/** Writes that set a state and may be sent twice with the same effect (declared idempotent). */
const REPEATABLE_WRITES = new Set([
	'paymentLink.publish',
	'paymentLink.unpublish',
	'webhook.activate',
	'webhook.deactivate',
	'webhook.flush',
	'webhook.update',
]);

/** Writes that create something or move money: a second request would do it twice. */
const NEVER_REPEATED = [
	'order.createCharge',
	'voucher.redeem',
	'voucher.cancelRedemption',
	'customer.create',
	'paymentLink.create',
	'pixel.create',
	'webhook.create',
	'webhook.resume',
	'identity.signIn',
	'identity.verify2fa',
	'identity.refreshToken',
	'identity.registerDevice',
	'identity.requestEmailOtp',
	'identity.requestSmsOtp',
];

function isRead(req: RecordedRequest): boolean {
	return req.method === 'GET' || (req.method === 'POST' && req.path.endsWith('/filter'));
}

async function run(op: OperationInfo, requestOptions: INodeParameters): Promise<RunResult> {
	const baseline = baselineFor(op, sim());
	return await runNode(
		{ parameters: { ...baseline.parameters, requestOptions }, credentials: baseline.nodeCredentials },
		{ credentials: baseline.credentials, input: baseline.input },
	);
}

it('covers every operation, and the writes that must never be repeated exist', () => {
	const keys = operations.map((op) => op.key);
	expect(keys.length).toBeGreaterThanOrEqual(50);
	for (const key of [...NEVER_REPEATED, ...REPEATABLE_WRITES]) expect(keys).toContain(key);
});

describe.each(operations.map((op) => [op.key, op] as const))('%s', (key, op) => {
	it('Max Retries 2 under 503: reads make 3 attempts, writes exactly 1', async () => {
		sim().addFault({ kind: 'status', status: 503, retryAfter: '0' });
		const { error } = await run(op, { maxRetries: 2 });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('503');
		const requests = sim().apiRequests;
		const first = requests[0];
		expect(first).toBeDefined();
		// Every attempt is the same request.
		for (const r of requests) expect([r.method, r.path, JSON.stringify(r.body)]).toEqual([first.method, first.path, JSON.stringify(first.body)]);
		const repeatable = isRead(first) || REPEATABLE_WRITES.has(key);
		expect(repeatable && NEVER_REPEATED.includes(key)).toBe(false);
		expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toHaveLength(repeatable ? 3 : 1);
	});

	it('Max Retries 0: one attempt', async () => {
		sim().addFault({ kind: 'status', status: 503, retryAfter: '0' });
		const { error } = await run(op, { maxRetries: 0 });
		expect(error?.httpCode).toBe('503');
		expect(sim().apiRequests.map((r) => `${r.method} ${r.path} ${r.status}`)).toHaveLength(1);
	});

	it('429 (refused before processing) is sent again, after Retry-After', async () => {
		sim().addFault({ kind: 'status', status: 429, retryAfter: '0', times: 1 });
		await run(op, { maxRetries: 1 });
		const requests = sim().apiRequests;
		expect(requests.length).toBeGreaterThanOrEqual(2);
		expect(requests[0].status).toBe(429);
		expect(requests[1].status).not.toBe(429);
		expect([requests[1].method, requests[1].path]).toEqual([requests[0].method, requests[0].path]);
	});

	it('Timeout (Ms) ends a slow request with the timeout in plain words', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 400 });
		const { error } = await run(op, { timeout: 80, maxRetries: 0 });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The platform did not answer within 80 ms');
		// On a busy machine the request may reach the simulator after the node gave up: wait for
		// it (bounded), so that it is counted here and not in the next test.
		for (let waited = 0; sim().apiRequests.length === 0 && waited < 2_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
		expect(sim().apiRequests).toHaveLength(1);
		// The late answer reaches the node, which closes it: no connection stays open (n8n-core's
		// client alone would leave it, had its timeout fired first).
		for (let waited = 0; sim().openConnections > 0 && waited < 3_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
		expect(sim().openConnections).toBe(0);
	});
});
