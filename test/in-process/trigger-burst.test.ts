/**
 * The webhook trigger under a burst, through the harness that handles each request as n8n 2.8.4
 * does (test/support/harness/trigger.ts deliver(): the workflow's static data read from the
 * database per request, node.webhook(), the execution created, the whole static data written back,
 * then the answer; other requests run in between): Ignore Duplicate Deliveries with copies in
 * flight together, right after, after a restart (a new process: memory gone, static data kept),
 * after n8n failed to create an execution, and between test and production, workflows, nodes and
 * activations. Then the test webhooks a listen left behind (n8n killed while listening).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { DeliveryResult } from '../support/harness/trigger';
import { TriggerHarness } from '../support/harness/trigger';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator();
const SECRET_HEADER = 'x-sp-webhook-secret';
const PAID = { events: ['order.paid'] };

let harnesses: TriggerHarness[] = [];

async function trigger(extra: Partial<Parameters<typeof TriggerHarness.start>[0]> = {}, parameters: INodeParameters = PAID) {
	const h = await TriggerHarness.start({ parameters, credentials: dataCredentials(sim()), ...extra });
	harnesses.push(h);
	return h;
}

/** A notification as the platform might send it: order `n` paid (its own record id, status and time). */
function paid(n: number): IDataObject {
	return {
		event: 'order.paid',
		createdAt: new Date(Date.UTC(2026, 10, 27, 12) + n * 1000).toISOString(),
		data: { id: `order-${n}`, status: 'paid', paidAt: new Date(Date.UTC(2026, 10, 27, 12) + n * 1000).toISOString(), valueInCents: 4990 + n },
	};
}

function headersOf(h: TriggerHarness) {
	return { [SECRET_HEADER]: String(h.nodeStaticData.webhookSecret) };
}

/** Which orders the executions started so far ran, sorted. */
function ran(h: TriggerHarness): string[] {
	return h.executions.map((items) => String((items[0].json.data as IDataObject).id)).sort();
}

const orders = (ns: number[]) => ns.map((n) => `order-${n}`).sort();
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/**
 * 20 requests at once: notifications `ns` (15), the first 5 of them twice, each repeat sent in the
 * same moment as its first copy.
 */
async function burst(h: TriggerHarness, ns: number[]): Promise<DeliveryResult[]> {
	const headers = headersOf(h);
	const sends = [...ns, ...ns.slice(0, 5)].map((n) => ({ headers, body: paid(n) }));
	return await Promise.all(sends.map((request) => h.deliver(request)));
}

async function simWebhooks(): Promise<IDataObject[]> {
	return (await (await fetch(`${sim().url}/__sim/webhooks`)).json()) as IDataObject[];
}

beforeEach(() => {
	sim().clearRequests();
	sim().state.col('webhooks').length = 0;
	sim().sendDate = true;
});

afterEach(async () => {
	await sim().settle();
	for (const h of harnesses) await h.close();
	harnesses = [];
});

describe('Ignore Duplicate Deliveries under a burst (n8n reads and writes the static data per request)', () => {
	it('20 deliveries at once, 5 of them repeats in flight with their first copy: each notification starts one execution; repeats right after start none', async () => {
		const h = await trigger();
		await h.activate();
		// Creating an execution takes a while: every request is in flight together.
		h.executionMs = 20;
		const results = await burst(h, range(0, 15));
		expect(results.map((r) => r.httpStatus)).toEqual(Array(20).fill(200));
		expect(ran(h)).toEqual(orders(range(0, 15)));
		expect(results.filter((r) => (r.httpBody as IDataObject).ignored === 'Duplicate delivery')).toHaveLength(5);

		// Every repeat again, right after the answers, all at once and then one by one.
		await Promise.all(range(0, 15).map((n) => h.deliver({ headers: headersOf(h), body: paid(n) })));
		for (const n of range(0, 15)) expect((await h.deliver({ headers: headersOf(h), body: paid(n) })).items).toBeUndefined();
		expect(h.executions).toHaveLength(15);
		// Each request wrote back its own copy, and a key reaches the others' only once its request was
		// answered 2xx: the write of a request answered after the burst holds every key.
		await h.deliver({ headers: headersOf(h), body: paid(15) });
		expect(h.nodeStaticData.recentDeliveries).toHaveLength(16);
	});

	it('after a restart (a new process: memory gone, static data kept) repeats within the window start nothing; a burst then runs each once again', async () => {
		const h = await trigger();
		await h.activate();
		h.executionMs = 20;
		// 20 different notifications at once: each request writes back its own copy of the static data.
		await Promise.all(range(0, 20).map((n) => h.deliver({ headers: headersOf(h), body: paid(n) })));
		expect(h.executions).toHaveLength(20);
		// A key reaches another request's static data once n8n answered its own request 2xx: the next
		// delivery's static data holds every key answered before it.
		await h.deliver({ headers: headersOf(h), body: paid(20) });
		expect(h.nodeStaticData.recentDeliveries).toHaveLength(21);
		await h.restart({ newProcess: true });
		h.executionMs = 20;
		// The same 21 notifications again, at once: all within the saved window of 200.
		const again = await Promise.all(range(0, 21).map((n) => h.deliver({ headers: headersOf(h), body: paid(n) })));
		expect(again.map((r) => r.httpBody)).toEqual(Array(21).fill({ received: true, ignored: 'Duplicate delivery' }));
		expect(h.executions).toHaveLength(21);
		// A burst in the new process, repeats in flight included; then another restart.
		await burst(h, range(100, 15));
		expect(ran(h)).toEqual(orders([...range(0, 21), ...range(100, 15)]));
		await h.deliver({ headers: headersOf(h), body: paid(200) });
		await h.restart({ newProcess: true });
		for (const n of [...range(0, 21), ...range(100, 15), 200]) await h.deliver({ headers: headersOf(h), body: paid(n) });
		expect(h.executions).toHaveLength(37);
	});

	it('n8n fails to create the execution (it answers 500, the platform sends again): the re-send runs, a copy waiting in flight runs in its place, and the failed key is not saved', async () => {
		const h = await trigger();
		await h.activate();
		const headers = headersOf(h);

		// Failed, then sent again after the 500: the re-send runs.
		h.failExecutions = 1;
		expect((await h.deliver({ headers, body: paid(1) })).httpStatus).toBe(500);
		expect(h.executions).toHaveLength(0);
		const resent = await h.deliver({ headers, body: paid(1) });
		expect([resent.httpStatus, resent.items?.length]).toEqual([200, 1]);

		// Two copies in flight; the first one's execution fails: the second, waiting for its answer, runs.
		h.failExecutions = 1;
		h.executionMs = 20;
		const pair = await Promise.all([h.deliver({ headers, body: paid(2) }), h.deliver({ headers, body: paid(2) })]);
		expect(pair.map((r) => r.httpStatus)).toEqual([500, 200]);
		expect(ran(h)).toEqual(orders([1, 2]));

		// A failure among successes at once: the failed key stays out of what n8n saves, so the
		// platform's re-send runs even after a restart.
		h.failExecutions = 1;
		const mixed = await Promise.all([3, 4, 5].map((n) => h.deliver({ headers, body: paid(n) })));
		expect(mixed.map((r) => r.httpStatus)).toEqual([500, 200, 200]);
		expect(ran(h)).toEqual(orders([1, 2, 4, 5]));
		await h.deliver({ headers, body: paid(6) });
		expect(h.nodeStaticData.recentDeliveries).toHaveLength(5);
		await h.restart({ newProcess: true });
		for (const n of [1, 2, 3, 4, 5, 6]) await h.deliver({ headers, body: paid(n) });
		expect(ran(h)).toEqual(orders([1, 2, 3, 4, 5, 6]));
	});

	it('a test event never poisons the production memory, nor the other way round', async () => {
		const prod = await trigger({ listen: true });
		await prod.activate();
		// "Listen for test event" on the same node (n8n's test URL, its own static data).
		const editor = await trigger({ webhookId: prod.node.webhookId, webhookBaseUrl: prod.url().replace(/\/webhook\/.*$/, '/webhook') });
		await editor.activate({ isTest: true });
		const test = await editor.deliver({ headers: { [SECRET_HEADER]: String(editor.testStaticData.webhookSecret) }, body: paid(7) }, { isTest: true });
		expect(test.items).toHaveLength(1);
		// The same notification to production: runs.
		expect((await prod.deliver({ headers: headersOf(prod), body: paid(7) })).items).toHaveLength(1);
		expect((await prod.deliver({ headers: headersOf(prod), body: paid(7) })).items).toBeUndefined();
		// A test event after production accepted it: the test listen runs it too.
		await editor.delete({ isTest: true });
		await editor.activate({ isTest: true });
		const again = await editor.deliver({ headers: { [SECRET_HEADER]: String(editor.testStaticData.webhookSecret) }, body: paid(7) }, { isTest: true });
		expect(again.items).toHaveLength(1);
		await editor.delete({ isTest: true });
	});

	it('deactivation and activation, another workflow, another node: no shared keys; a new version published keeps deduplicating', async () => {
		const h = await trigger();
		await h.activate();
		expect((await h.deliver({ headers: headersOf(h), body: paid(1) })).items).toHaveLength(1);
		// Deactivated, then activated again: a new platform webhook, nothing remembered.
		await h.delete();
		await h.activate();
		expect((await h.deliver({ headers: headersOf(h), body: paid(1) })).items).toHaveLength(1);
		expect((await h.deliver({ headers: headersOf(h), body: paid(1) })).items).toBeUndefined();
		// n8n 2.8 publishing a new version of the active workflow: delete, then checkExists / create.
		await h.delete();
		await h.activate({ activation: 'update' });
		expect((await h.deliver({ headers: headersOf(h), body: paid(2) })).items).toHaveLength(1);
		expect((await h.deliver({ headers: headersOf(h), body: paid(2) })).items).toBeUndefined();
		// n8n 2.41 calls no hook for an unchanged trigger: the same webhook, the same memory.
		expect((await h.deliver({ headers: headersOf(h), body: paid(2) })).items).toBeUndefined();

		// Another workflow, and another node of the same workflow id, each with its own webhook.
		const other = await trigger({ workflowId: 'wf-other' });
		await other.activate();
		expect((await other.deliver({ headers: headersOf(other), body: paid(2) })).items).toHaveLength(1);
		const sibling = await trigger({ nodeName: 'Second trigger' });
		sibling.node.id = 'second-node';
		await sibling.activate();
		expect((await sibling.deliver({ headers: headersOf(sibling), body: paid(2) })).items).toHaveLength(1);
		expect((await sibling.deliver({ headers: headersOf(sibling), body: paid(2) })).items).toBeUndefined();
	});
});

/** Editor and production of one node: production's harness, and a test listen on the same node. */
async function productionAndEditor() {
	const prod = await trigger();
	await prod.activate();
	const editor = await trigger({ webhookId: prod.node.webhookId, webhookBaseUrl: prod.url().replace(/\/webhook\/.*$/, '/webhook') });
	return { prod, editor, prodId: String(prod.nodeStaticData.webhookId) };
}

/** n8n killed while listening: the test registration is gone with the process, its webhook stays. */
async function listenThenKill(editor: TriggerHarness): Promise<string> {
	await editor.activate({ isTest: true });
	const id = String(editor.testStaticData.webhookId);
	editor.testWorkflow = undefined;
	return id;
}

const ids = async () => (await simWebhooks()).map((w) => String(w.id)).sort();
const deletes = () => sim().requestsTo('DELETE', /^\/webhooks\/delete\//).map((r) => r.path);
const MINUTE = 60_000;

describe('test webhooks a listen left behind (n8n killed while listening)', () => {
	it('kept while a listen may still use it (3 minutes by the platform\'s clock), then deleted by the next production start, whose checkExists stays true', async () => {
		const { prod, editor, prodId } = await productionAndEditor();
		const testId = await listenThenKill(editor);
		// n8n starts again at once: the test webhook may belong to a listen of another main.
		await prod.restart();
		expect(await prod.activate({ activation: 'init' })).toEqual({ existed: true });
		sim().state.clock.advance(3 * MINUTE - 2_000);
		expect(await prod.activate({ activation: 'init' })).toEqual({ existed: true });
		expect(await ids()).toEqual([prodId, testId].sort());
		expect(deletes()).toEqual([]);

		sim().state.clock.advance(4_000);
		sim().clearRequests();
		await prod.restart();
		// The production webhook is as wanted: n8n calls no create, so checkExists removes the leftover.
		expect(await prod.checkExists({ activation: 'init' })).toBe(true);
		expect(sim().apiRequests.map((r) => r.method)).toEqual(['GET', 'GET', 'DELETE']);
		expect(await ids()).toEqual([prodId]);
		expect(deletes()).toEqual([`/webhooks/delete/${testId}`]);
		expect(sim().requestsTo('POST', '/webhooks')).toHaveLength(0);
		expect(prod.logs.map((l) => l.message).join('\n')).toContain(`deleted test webhook ${testId}`);
		expect(await prod.checkExists({ activation: 'init' })).toBe(true);
		// A new listen works as before.
		await editor.activate({ isTest: true });
		await editor.delete({ isTest: true });
		expect(await ids()).toEqual([prodId]);
	});

	it('an activation in the editor removes it too; a listen started meanwhile is never touched', async () => {
		const { prod, editor } = await productionAndEditor();
		const stale = await listenThenKill(editor);
		sim().state.clock.advance(10 * MINUTE);
		// Deactivated and activated again in the editor.
		await prod.delete();
		await prod.activate({ activation: 'activate' });
		const prodId = String(prod.nodeStaticData.webhookId);
		expect(deletes()).toContain(`/webhooks/delete/${stale}`);
		expect(await ids()).toEqual([prodId]);
		// A listen started now (in this main or another), and a new version published 2 minutes later.
		await editor.activate({ isTest: true });
		const live = String(editor.testStaticData.webhookId);
		sim().state.clock.advance(2 * MINUTE);
		sim().clearRequests();
		await prod.activate({ activation: 'update' });
		expect(deletes()).toEqual([]);
		expect(await ids()).toEqual([prodId, live].sort());
		await editor.delete({ isTest: true });
		expect(await ids()).toEqual([prodId]);
	});

	it("never another workflow's or node's test webhook, one calling another URL, one without createdAt, nor any when the platform's answer has no Date header", async () => {
		const { prod, editor, prodId } = await productionAndEditor();
		const own = await listenThenKill(editor);
		// Another workflow's editor on the same n8n.
		const otherEditor = await trigger({ workflowId: 'wf-other', webhookBaseUrl: prod.url().replace(/\/webhook\/.*$/, '/webhook') });
		const otherTest = await listenThenKill(otherEditor);
		// A copy of this node's test webhook calling another address (another n8n sharing the key).
		const ownRecord = sim().state.col('webhooks').find((w) => w.id === own) as JsonObject;
		const foreign = (dispatchers: JsonObject[]) => ({ ...ownRecord, dispatchers });
		const [dispatcher] = ownRecord.dispatchers as JsonObject[];
		sim().state.col('webhooks').push({ ...foreign([{ ...dispatcher, url: String(dispatcher.url).replace('127.0.0.1', 'n8n-b.example.com') }]), id: 'foreign-url' });
		sim().state.col('webhooks').push({ ...foreign([dispatcher, { ...dispatcher, url: 'https://elsewhere.example.com/hook' }]), id: 'also-elsewhere' });
		const undated: JsonObject = { ...ownRecord, id: 'no-created-at' };
		delete undated.createdAt;
		sim().state.col('webhooks').push(undated);
		sim().state.clock.advance(30 * MINUTE);

		// Without the platform's clock nothing is judged old.
		sim().sendDate = false;
		await prod.restart();
		expect(await prod.activate({ activation: 'init' })).toEqual({ existed: true });
		expect(deletes()).toEqual([]);

		sim().sendDate = true;
		await prod.restart();
		expect(await prod.activate({ activation: 'init' })).toEqual({ existed: true });
		expect(deletes()).toEqual([`/webhooks/delete/${own}`]);
		expect(await ids()).toEqual([prodId, otherTest, 'foreign-url', 'also-elsewhere', 'no-created-at'].sort());
	});
});
