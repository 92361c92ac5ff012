/**
 * The trigger's lifecycle as a real n8n 2.8.4 runs it, driven through n8n's own REST API and
 * restarts (docs/triggers.md has the table of n8n's calls):
 * - "Listen for test event" (POST /rest/workflows/<id>/run) registers a test webhook; stopping it
 *   (DELETE /rest/test-webhook/<id>) and the test event itself make n8n call `delete` in mode
 *   internal: the test webhook is gone afterwards, production's stays;
 * - n8n restarts while the platform answers GET /webhooks/details once with a 500 (retried), then,
 *   at another restart, once with `{}` (checkExists fails, n8n's cleanup `delete` runs, then n8n
 *   retries the activation): the production webhook still exists, still delivers, and the
 *   delivery that failed while n8n was down is still in its queue.
 */
import axios from 'axios';

import { DEFAULT_OWNER, N8nInstance, waitFor } from '../support/n8n-process';
import type { Simulator } from '../support/simulator/server';
import type { E2eContext } from './setup';
import { dataCredential, INSTALL_TIMEOUT, prepareN8n, teardown, triggerWorkflow } from './setup';

const WORKFLOW_ID = 'spTriggerLifecycle';
const CREDENTIAL_ID = 'spLifecycleCred';
const WEBHOOK_ID = '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c';
const TRIGGER = 'Paid orders';

let ctx: E2eContext;
let n8n: N8nInstance;
let sim: Simulator;

const workflow = triggerWorkflow({
	id: WORKFLOW_ID,
	name: 'Paid orders (lifecycle test)',
	nodeId: 'lifecycle-trigger',
	nodeName: TRIGGER,
	webhookId: WEBHOOK_ID,
	credentialId: CREDENTIAL_ID,
});

interface SimWebhook {
	id: string;
	dispatchers: Array<{ url: string }>;
}

async function simWebhooks(): Promise<SimWebhook[]> {
	return (await axios.get(`${sim.url}/__sim/webhooks`)).data as SimWebhook[];
}

const productionUrl = () => `${n8n.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
const testUrl = () => `${n8n.baseUrl}/webhook-test/${WEBHOOK_ID}/webhook`;

async function urls(): Promise<string[]> {
	return (await simWebhooks()).map((w) => w.dispatchers[0].url).sort();
}

async function queueSize(id: string): Promise<number> {
	const res = await axios.get(`${sim.url}/webhooks/dynamic-queues/${id}`, {
		headers: { 'x-api-key': sim.credentials.apiKey, 'x-api-secret': sim.credentials.apiSecret },
	});
	return Number((res.data as { data: { messagesAvailable: number } }).data.messagesAvailable);
}

async function payAnOrder(): Promise<void> {
	await axios.post(`${sim.url}/__sim/orders`, {});
	await sim.settle();
}

async function executionCount(): Promise<number> {
	return (await n8n.executions(WORKFLOW_ID)).length;
}

/** "Listen for test event" on the trigger, as the editor asks for it. */
async function listen(): Promise<void> {
	expect(await n8n.listenForTestEvent(WORKFLOW_ID, TRIGGER)).toBe(true);
}

async function restart(): Promise<void> {
	await n8n.stop();
	await n8n.start();
	await n8n.login(DEFAULT_OWNER);
}

beforeAll(async () => {
	ctx = await prepareN8n();
	({ n8n, sim } = ctx);
	await n8n.importCredentials([dataCredential(sim, CREDENTIAL_ID)]);
	await n8n.importWorkflows([workflow]);
	await n8n.publish(WORKFLOW_ID);
	await n8n.start();
	await n8n.setupOwner(DEFAULT_OWNER);
	await waitFor('the production webhook', () => (sim.requestsTo('POST', '/webhooks').length === 1 ? true : undefined), 60_000);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await teardown(ctx);
}, 120_000);

describe('the webhook trigger in a real n8n 2.8.4, driven as the editor and restarts drive it', () => {
	it('"Listen for test event", then stop: the test webhook is deleted, the production one stays and delivers', async () => {
		expect(await urls()).toEqual([productionUrl()]);
		const [production] = await simWebhooks();
		await listen();
		expect(await urls()).toEqual([productionUrl(), testUrl()].sort());
		const stopped = await n8n.rest<{ data: boolean }>('DELETE', `/test-webhook/${WORKFLOW_ID}`);
		expect(stopped.data.data).toBe(true);
		// n8n runs the delete in the background.
		await waitFor('the test webhook deleted', async () => ((await urls()).length === 1 ? true : undefined), 30_000);
		expect(await simWebhooks()).toEqual([production]);
		const before = await executionCount();
		await payAnOrder();
		await waitFor('a production execution', async () => ((await executionCount()) > before ? true : undefined), 60_000);
	}, 180_000);

	it('"Listen for test event", then the test event: n8n deletes the test webhook after running it', async () => {
		const [production] = await simWebhooks();
		await listen();
		expect(await urls()).toEqual([productionUrl(), testUrl()].sort());
		const deletes = sim.requestsTo('DELETE', /^\/webhooks\/delete\//).length;
		await payAnOrder();
		await waitFor('the test webhook deleted', async () => ((await urls()).length === 1 ? true : undefined), 60_000);
		expect(await simWebhooks()).toEqual([production]);
		expect(sim.requestsTo('DELETE', /^\/webhooks\/delete\//)).toHaveLength(deletes + 1);
	}, 180_000);

	it('restarts while GET /webhooks/details answers a 500, then {}: the same webhook, its queue and its deliveries survive', async () => {
		const [production] = await simWebhooks();
		// A delivery while n8n is down fails and waits in the webhook's queue.
		await n8n.stop();
		await payAnOrder();
		expect(await queueSize(production.id)).toBe(1);
		const [queued] = await simWebhooks();

		for (const [what, rule] of [
			['one 500', { kind: 'status' as const, status: 500 }],
			['one {}', { kind: 'malformed' as const, status: 200, body: '{}' }],
		] as const) {
			sim.clearRequests();
			sim.addFault({ ...rule, method: 'GET', path: '/webhooks/details/', times: 1 });
			await restart();
			// Active again once checkExists has read the stored webhook and the list (for strays):
			// (The transport's retry of the 500, or n8n's retry of the activation after {}: a second read.)
			await waitFor(`${what}: the activation done`, () => (sim.requestsTo('GET', /^\/webhooks\/list\//).length >= 1 ? true : undefined), 60_000);
			expect(sim.requestsTo('GET', /^\/webhooks\/details\//).map((r) => r.status)).toEqual([rule.status, 200]);
			sim.faults.clear();
			expect(sim.requestsTo('DELETE', /^\/webhooks\/delete\//)).toEqual([]);
			expect(sim.requestsTo('POST', '/webhooks')).toEqual([]);
			expect(await simWebhooks()).toEqual([queued]);
			expect(await queueSize(production.id)).toBe(1);
			const before = await executionCount();
			await payAnOrder();
			await waitFor(`${what}: a production execution`, async () => ((await executionCount()) > before ? true : undefined), 60_000);
		}
		// The cleanup after the failed activation said what it kept.
		expect(n8n.output.join('')).toContain(`left webhook ${production.id} and its queue of failed deliveries in place`);
		// Deactivating the workflow is what deletes it.
		await n8n.deactivate(WORKFLOW_ID);
		expect(await simWebhooks()).toEqual([]);
	}, 300_000);
});
