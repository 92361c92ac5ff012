/**
 * Issues 44 and 55 in a real n8n 2.8.4 (regular mode, sqlite):
 * - two partial payments of one order in an envelope whose top-level `id` is the order's both run;
 *   a byte-for-byte re-send of the first is answered "Duplicate delivery" and runs nothing;
 * - with Notification ID Field = `id`, the platform's retry with a changed `sentAt` is dropped,
 *   another id runs;
 * - n8n killed while "Listen for test event" waits, then started with the platform refusing the
 *   DELETE of that test webhook (403): production activates at the start and from the editor, and
 *   delivers; n8n's log says what stayed, and a start after the platform lets it go removes it.
 */
import axios from 'axios';

import { burstTarget } from '../support/bench/burst';
import type { BurstTarget } from '../support/bench/burst';
import { DEFAULT_OWNER, sleep, waitFor } from '../support/n8n-process';
import type { E2eContext } from './setup';
import { dataCredential, INSTALL_TIMEOUT, prepareN8n, teardown, triggerWorkflow } from './setup';

const WORKFLOW_ID = 'spTriggerDuplicates';
const CREDENTIAL_ID = 'spDuplicatesCred';
const WEBHOOK_ID = '9c4d2e1f-3a5b-4c6d-8e7f-0a1b2c3d4e5f';
const TRIGGER = 'Payments';
const SECRET_HEADER = 'x-sp-webhook-secret';
/** A second workflow whose trigger names the notification id field. */
const ID_WORKFLOW_ID = 'spTriggerIdField';
const ID_WEBHOOK_ID = '4e8f1a2b-6c3d-4b5e-9f0a-7d1c2b3a4e5f';

let ctx: E2eContext;
let target: BurstTarget;
let idTarget: BurstTarget;

const base = triggerWorkflow({ id: WORKFLOW_ID, name: 'Payments (duplicates test)', nodeId: 'duplicates-trigger', nodeName: TRIGGER, webhookId: WEBHOOK_ID, credentialId: CREDENTIAL_ID });
const workflow = { ...base, nodes: base.nodes.map((node) => ({ ...node, parameters: { events: ['order.paid', 'order.partiallyPaid'] } })) };
const idBase = triggerWorkflow({ id: ID_WORKFLOW_ID, name: 'Payments by notification id', nodeId: 'id-field-trigger', nodeName: 'By id', webhookId: ID_WEBHOOK_ID, credentialId: CREDENTIAL_ID });
const idWorkflow = { ...idBase, nodes: idBase.nodes.map((node) => ({ ...node, parameters: { events: ['order.paid'], options: { notificationIdField: 'id' } } })) };

interface SimWebhook {
	id: string;
	dispatchers: Array<{ url: string }>;
}

const simWebhooks = async () => (await axios.get(`${ctx.sim.url}/__sim/webhooks`)).data as SimWebhook[];
const productionUrl = () => `${ctx.n8n.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
const testUrl = () => `${ctx.n8n.baseUrl}/webhook-test/${WEBHOOK_ID}/webhook`;
const urls = async () => (await simWebhooks()).map((w) => w.dispatchers[0].url).sort();

/** Sends one delivery to the production URL as the platform does (its text as given); n8n's answer. */
async function send(text: string, to: BurstTarget = target): Promise<{ status: number; data: unknown }> {
	const res = await axios.post(to.url, text, {
		headers: { 'content-type': 'application/json', [SECRET_HEADER]: to.secret },
		validateStatus: () => true,
	});
	return { status: res.status, data: res.data as unknown };
}

/** Whether n8n answered a started run (200, its body n8n's own, no `ignored`). */
async function started(text: string, to: BurstTarget = target): Promise<boolean> {
	const answer = await send(text, to);
	return answer.status === 200 && (answer.data as { ignored?: string }).ignored === undefined;
}

/** The texts of a workflow's executions' data (n8n's `flatted` run data), from n8n's database. */
async function runs(workflowId = WORKFLOW_ID): Promise<string[]> {
	const rows = await ctx.n8n.sqlite<{ data: string | null }>(
		'SELECT d.data AS data FROM execution_entity e LEFT JOIN execution_data d ON d.executionId = e.id WHERE e.workflowId = ?',
		[workflowId],
	);
	return rows.map((row) => row.data ?? '');
}

async function runsSettled(count: number, workflowId = WORKFLOW_ID): Promise<string[]> {
	await waitFor(`${count} executions`, async () => ((await runs(workflowId)).length >= count ? true : undefined), 60_000);
	// n8n would write a wrongly started run within this time too.
	await sleep(3_000);
	return await runs(workflowId);
}

async function payAnOrder(): Promise<void> {
	await axios.post(`${ctx.sim.url}/__sim/orders`, {});
	await ctx.sim.settle();
}

beforeAll(async () => {
	ctx = await prepareN8n();
	await ctx.n8n.importCredentials([dataCredential(ctx.sim, CREDENTIAL_ID)]);
	await ctx.n8n.importWorkflows([workflow, idWorkflow]);
	await ctx.n8n.publish(WORKFLOW_ID);
	await ctx.n8n.publish(ID_WORKFLOW_ID);
	await ctx.n8n.start();
	await ctx.n8n.setupOwner(DEFAULT_OWNER);
	target = await burstTarget(ctx.sim, productionUrl());
	idTarget = await burstTarget(ctx.sim, `${ctx.n8n.baseUrl}/webhook/${ID_WEBHOOK_ID}/webhook`);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await teardown(ctx);
}, 120_000);

describe('Ignore Duplicate Deliveries and leftover test webhooks in a real n8n 2.8.4', () => {
	it('two partial payments of one order, the order id at the top of the envelope, both run; a byte-for-byte re-send of the first is dropped', async () => {
		const partial = (paidAmountInCents: number) => `{"event":"order.partiallyPaid","id":"ord_e2e_7","data":{"status":"partially_paid","paidAmountInCents":${paidAmountInCents}}}`;
		const first = partial(5000);
		expect(await started(first)).toBe(true);
		expect(await started(partial(15000))).toBe(true);
		expect(await send(first)).toEqual({ status: 200, data: { received: true, ignored: 'Duplicate delivery' } });
		// Another text of the same JSON value (keys, whitespace, escapes): the same notification.
		expect(await send(' {"data":{"paidAmountInCents":15000,"status":"partially_paid"}, "id":"ord_e2e_\u0037","event":"order.partiallyPaid"}')).toEqual({
			status: 200,
			data: { received: true, ignored: 'Duplicate delivery' },
		});
		const data = await runsSettled(2);
		expect(data).toHaveLength(2);
		expect(data.filter((text) => text.includes('ord_e2e_7'))).toHaveLength(2);
	}, 180_000);

	it('with Notification ID Field = id, the retry of a notification with a changed sentAt is dropped; another id runs', async () => {
		const attempt = (id: string, sentAt: string) => JSON.stringify({ event: 'order.paid', id, sentAt, data: { id: 'ord_e2e_9', status: 'paid' } });
		expect(await started(attempt('evt_e2e_1', '2026-11-20T13:05:01Z'), idTarget)).toBe(true);
		expect(await send(attempt('evt_e2e_1', '2026-11-20T13:06:01Z'), idTarget)).toEqual({ status: 200, data: { received: true, ignored: 'Duplicate delivery' } });
		expect(await started(attempt('evt_e2e_2', '2026-11-20T13:06:01Z'), idTarget)).toBe(true);
		const data = await runsSettled(2, ID_WORKFLOW_ID);
		expect(data).toHaveLength(2);
		expect(data.filter((text) => text.includes('evt_e2e_1'))).toHaveLength(1);
		expect(data.filter((text) => text.includes('13:06:01Z') && text.includes('evt_e2e_1'))).toHaveLength(0);
		// Its webhook goes: the next test counts the other workflow's alone.
		await ctx.n8n.deactivate(ID_WORKFLOW_ID);
		await waitFor('the webhook deleted', async () => ((await simWebhooks()).length === 1 ? true : undefined), 30_000);
	}, 180_000);

	it('the platform refuses to delete a test webhook a crash left (403): production activates at the start and from the editor, and delivers', async () => {
		const [production] = await simWebhooks();
		// "Listen for test event", then n8n killed while it waits.
		expect(await ctx.n8n.listenForTestEvent(WORKFLOW_ID, TRIGGER)).toBe(true);
		const testId = (await simWebhooks()).find((w) => w.dispatchers[0].url === testUrl())!.id;
		await ctx.n8n.kill();
		ctx.sim.state.clock.advance(4 * 60_000);
		ctx.sim.addFault({ kind: 'status', status: 403, method: 'DELETE', path: `/webhooks/delete/${testId}` });

		// n8n starts: the production webhook is as wanted; the leftover's DELETE is refused.
		ctx.sim.clearRequests();
		await ctx.n8n.start();
		await ctx.n8n.login(DEFAULT_OWNER);
		await waitFor('the refused DELETE', () => (ctx.sim.requestsTo('DELETE', `/webhooks/delete/${testId}`).length > 0 ? true : undefined), 60_000);
		expect(ctx.sim.requestsTo('DELETE', /^\/webhooks\/delete\//).map((r) => [r.path, r.status])).toEqual([[`/webhooks/delete/${testId}`, 403]]);
		expect(ctx.sim.requestsTo('POST', '/webhooks')).toEqual([]);
		expect(await urls()).toEqual([productionUrl(), testUrl()].sort());
		expect((await simWebhooks()).map((w) => w.id)).toContain(production.id);
		await waitFor('the warning in n8n\'s log', () => (ctx.n8n.output.join('').includes(`could not delete test webhook ${testId}`) ? true : undefined), 30_000);
		let before = (await runs()).length;
		await payAnOrder();
		await runsSettled(before + 1);

		// Deactivated and activated again from the editor: create runs, the DELETE is refused again, the workflow is active.
		await ctx.n8n.deactivate(WORKFLOW_ID);
		await ctx.n8n.activate(WORKFLOW_ID);
		expect(ctx.sim.requestsTo('DELETE', `/webhooks/delete/${testId}`).map((r) => r.status)).toEqual([403, 403]);
		target = await burstTarget(ctx.sim, productionUrl());
		before = (await runs()).length;
		await payAnOrder();
		await runsSettled(before + 1);

		// The platform lets it go: the next start removes it and keeps production's webhook.
		ctx.sim.faults.clear();
		const [active] = (await simWebhooks()).filter((w) => w.dispatchers[0].url === productionUrl());
		await ctx.n8n.stop();
		ctx.sim.clearRequests();
		await ctx.n8n.start();
		await ctx.n8n.login(DEFAULT_OWNER);
		await waitFor('the test webhook removed', async () => ((await urls()).length === 1 ? true : undefined), 60_000);
		expect((await simWebhooks()).map((w) => w.id)).toEqual([active.id]);
		expect(ctx.n8n.output.join('')).toContain(`deleted test webhook ${testId}`);
	}, 300_000);
});
