/**
 * Ignore Duplicate Deliveries never drops a distinct notification (issue 44, cases 1, 2 and 5),
 * through the harness that handles each request as n8n 2.8.4 does (static data read per request,
 * the execution created, the static data written back, then the answer):
 * 1. two deliveries are one notification only with the same notification id, or, with none, the
 *    same JSON value; keys saved by the previous version still catch their re-sends;
 * 2. a key reaches another request's static data only once its own request was answered 2xx;
 * 5. the memory of one process: one bound for all nodes, idle nodes and old keys pruned whoever
 *    comes next, a new platform webhook or a deactivation here drops a node's keys.
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { TriggerHarness } from '../support/harness/trigger';
import { dataCredentials, useSimulator } from '../support/helpers/sim';

const sim = useSimulator();
const SECRET_HEADER = 'x-sp-webhook-secret';
const EVENTS = { events: ['order.paid', 'order.partiallyPaid', 'subscription.updated'] };
const ORDER = 'ord_7Hk2';
const CREATED = '2026-11-20T13:05:00.000Z';

let harnesses: TriggerHarness[] = [];

async function trigger(extra: Partial<Parameters<typeof TriggerHarness.start>[0]> = {}) {
	const h = await TriggerHarness.start({ parameters: EVENTS, credentials: dataCredentials(sim()), ...extra });
	harnesses.push(h);
	await h.activate();
	return h;
}

const headersOf = (h: TriggerHarness) => ({ [SECRET_HEADER]: String(h.nodeStaticData.webhookSecret) });
/** Whether a delivery started an execution (true) or was dropped as a repeat (false). */
const runs = async (h: TriggerHarness, body: unknown) => (await h.deliver({ headers: headersOf(h), body })).items !== undefined;

/** Order ORDER partially paid: the example, as the platform's envelope carries it. */
const partial = (id: string, paidAmountInCents: number) => ({
	event: 'order.partiallyPaid',
	id,
	data: { id: ORDER, status: 'partially_paid', createdAt: CREATED, paidAmountInCents },
});

/** The key 1e288e7 (0.1.0) saved for a delivery (trigger/delivery.ts deliveryKey of that release). */
function keySavedBy010(event: string, body: IDataObject): string {
	const hash = (text: string) => createHash('sha256').update(text).digest('hex');
	const scalar = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
	const notification = scalar(body.eventId ?? body.notificationId ?? body.deliveryId);
	if (notification) return hash(`notification:${event}:${notification}`);
	for (const record of [body, ...['data', 'order', 'subscription', 'payment', 'recurrence'].map((k) => body[k] as IDataObject | undefined)]) {
		if (!record || typeof record !== 'object') continue;
		const id = scalar(record.id ?? record.orderId ?? record.subscriptionId);
		const status = scalar(record.status);
		const time = scalar(record.updatedAt ?? record.paidAt ?? record.date ?? record.createdAt);
		if (id && (status || time)) return hash(`record:${event}:${id}:${status ?? ''}:${time ?? ''}`);
	}
	return hash(`body:${JSON.stringify(body)}`);
}

beforeEach(() => {
	sim().clearRequests();
	sim().state.col('webhooks').length = 0;
});

afterEach(async () => {
	await sim().settle();
	for (const h of harnesses) await h.close();
	harnesses = [];
	jest.restoreAllMocks();
});

describe('case 1: two deliveries are one notification only when they carry the same notification, or the same JSON value', () => {
	it('two partial payments of one order both run; a byte-for-byte re-send, and one with its keys in another order, are dropped', async () => {
		const h = await trigger();
		expect(await runs(h, partial('evt_1', 5000))).toBe(true);
		expect(await runs(h, partial('evt_2', 15000))).toBe(true);
		expect(await runs(h, JSON.parse(JSON.stringify(partial('evt_1', 5000))))).toBe(false);
		const { id, event } = partial('evt_2', 15000);
		expect(await runs(h, { data: { paidAmountInCents: 15000, createdAt: CREATED, status: 'partially_paid', id: ORDER }, id, event })).toBe(false);
		// The platform's retry of a notification names it by its id, even with another delivery time.
		expect(await runs(h, { ...partial('evt_2', 15000), sentAt: '2026-11-20T13:09:00Z' })).toBe(false);
		expect(h.executions).toHaveLength(2);
	});

	it('without a notification id: two payments of one order, and a plan change with an unchanged status, all run; an exact re-send is dropped', async () => {
		const h = await trigger();
		const payment = (paidAmountInCents: number) => ({ event: 'order.partiallyPaid', data: { id: ORDER, status: 'partially_paid', createdAt: CREATED, paidAmountInCents } });
		expect(await runs(h, payment(5000))).toBe(true);
		expect(await runs(h, payment(15000))).toBe(true);
		const plan = (name: string) => ({ event: 'subscription.updated', subscription: { id: 'sub_9', status: 'active', createdAt: CREATED, plan: name } });
		expect(await runs(h, plan('monthly'))).toBe(true);
		expect(await runs(h, plan('yearly'))).toBe(true);
		expect(await runs(h, payment(5000))).toBe(false);
		expect(await runs(h, plan('yearly'))).toBe(false);
		// A flat body: its `id` may be the order's own, so the body decides.
		const flat = (paidAmountInCents: number) => ({ event: 'order.partiallyPaid', id: ORDER, status: 'partially_paid', paidAmountInCents });
		expect(await runs(h, flat(5000))).toBe(true);
		expect(await runs(h, flat(15000))).toBe(true);
		expect(await runs(h, flat(15000))).toBe(false);
		expect(h.executions).toHaveLength(6);
	});

	it('a body whose delivery time changes on each attempt, with no notification id, runs on each attempt (the documented limit)', async () => {
		const h = await trigger();
		const attempt = (sentAt: string) => ({ event: 'order.paid', sentAt, data: { id: ORDER, status: 'paid' } });
		expect(await runs(h, attempt('2026-11-20T13:05:01Z'))).toBe(true);
		expect(await runs(h, attempt('2026-11-20T13:06:01Z'))).toBe(true);
		expect(await runs(h, attempt('2026-11-20T13:06:01Z'))).toBe(false);
	});

	it('keys saved by the previous version still catch their re-sends after an upgrade, except the record keys that merged notifications', async () => {
		const h = await trigger();
		const withEventId = { event: 'order.paid', eventId: 'n-1', data: { id: ORDER, status: 'paid' } };
		const envelope = { id: 'evt_41', event: 'order.paid', createdAt: CREATED, data: { id: ORDER, status: 'paid' } };
		const bare = { event: 'order.paid', note: 'no record, no id' };
		const merged = { event: 'order.partiallyPaid', data: { id: ORDER, status: 'partially_paid', createdAt: CREATED, paidAmountInCents: 5000 } };
		h.editSavedStaticData((data) => {
			data.recentDeliveries = [
				keySavedBy010('order.paid', withEventId),
				keySavedBy010('order.paid', envelope),
				keySavedBy010('order.paid', bare),
				keySavedBy010('order.partiallyPaid', merged),
			];
		});
		await h.restart({ newProcess: true });
		expect(await runs(h, withEventId)).toBe(false);
		expect(await runs(h, envelope)).toBe(false);
		expect(await runs(h, bare)).toBe(false);
		// The old record key named the order, its status and creation time: another payment of the same
		// order would match it. Never used for new deliveries: this one runs (its re-send may run once more).
		expect(await runs(h, { ...merged, data: { ...merged.data, paidAmountInCents: 15000 } })).toBe(true);
		expect(await runs(h, merged)).toBe(true);
		expect(await runs(h, merged)).toBe(false);
		// The kept old keys stay in the static data window.
		expect(h.nodeStaticData.recentDeliveries).toEqual(expect.arrayContaining([keySavedBy010('order.paid', withEventId), keySavedBy010('order.paid', envelope)]));
	});
});

describe("case 2: a key reaches another request's static data only once n8n answered its own request 2xx", () => {
	it("n8n fails A's execution (500, about 1 s later) while B is accepted and saved: after a restart the platform's re-send of A runs", async () => {
		const h = await trigger();
		const a = partial('evt_A', 5000);
		const b = partial('evt_B', 15000);
		const [first, second] = await Promise.all([
			h.deliver({ headers: headersOf(h), body: a }, { executionMs: 60, failExecution: true }),
			h.deliver({ headers: headersOf(h), body: b }, { executionMs: 5, failExecution: false }),
		]);
		expect([first.httpStatus, second.httpStatus]).toEqual([500, 200]);
		// B's static data, saved while A was unanswered, does not name A.
		expect(h.nodeStaticData.recentDeliveries).toHaveLength(1);
		await h.restart({ newProcess: true });
		expect(await runs(h, a)).toBe(true);
		expect(await runs(h, b)).toBe(false);
		expect(h.executions).toHaveLength(2);
	});
});

type Store = ReturnType<TriggerHarness['processStores']> extends Map<string, infer S> ? S : never;

describe('case 5: what one n8n process remembers has a lifecycle', () => {
	/** The keys the process holds for one workflow's trigger node. */
	function held(keys: Store, nodes: Store, workflowId: string): number {
		const node = nodes.entries().find(([key]) => String(key).startsWith(`${workflowId}\u0000`))?.[1];
		return node === undefined ? 0 : keys.entries().filter(([, entry]) => (entry as { node: unknown }).node === node).length;
	}

	it('one bound for all nodes; a workflow no longer active here leaves with its keys after 24 h without deliveries, whoever comes next; a new webhook or a deactivation here drops them at once', async () => {
		const a = await trigger({ workflowId: 'wf-a' });
		const b = await trigger({ workflowId: 'wf-b' });
		const stores = a.processStores();
		const keys = stores.get('trigger: accepted delivery keys')!;
		const nodes = stores.get('trigger: nodes with accepted deliveries')!;
		expect(keys.limits.maxEntries).toBe(50_000);
		const before = keys.size;
		for (const n of [1, 2, 3]) await runs(a, partial(`evt_a${n}`, n));
		for (const n of [1, 2]) await runs(b, partial(`evt_b${n}`, n));
		// Both nodes' keys count in the one store.
		expect(keys.size - before).toBe(5);
		expect([held(keys, nodes, 'wf-a'), held(keys, nodes, 'wf-b')]).toEqual([3, 2]);

		// wf-a is deactivated by another process (queue mode: this webhook process never hears of it):
		// a day later b's next delivery drops wf-a's memory, and the keys that are a day old.
		const realNow = Date.now.bind(Date);
		let offset = 0;
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
		offset = 24 * 60 * 60 * 1000 + 60_000;
		expect(await runs(b, partial('evt_b3', 3))).toBe(true);
		expect(held(keys, nodes, 'wf-a')).toBe(0);
		expect(nodes.entries().map(([key]) => String(key).split('\u0000')[0])).toEqual(['wf-b']);
		expect(held(keys, nodes, 'wf-b')).toBe(1);

		// Another day with no delivery at all: n8n's next hook call (a start's checkExists) prunes.
		offset += 24 * 60 * 60 * 1000;
		expect(await a.checkExists({ activation: 'init' })).toBe(true);
		expect([nodes.size, keys.size]).toEqual([0, 0]);

		// The main (another process) activated wf-b again: a new platform webhook in its static data.
		for (const n of [4, 5]) await runs(b, partial(`evt_b${n}`, n));
		expect(held(keys, nodes, 'wf-b')).toBe(2);
		b.editSavedStaticData((data) => (data.webhookId = 'wh-reactivated'));
		expect(await runs(b, partial('evt_b6', 6))).toBe(true);
		expect(held(keys, nodes, 'wf-b')).toBe(1);
		// Deactivated in this process: at once.
		await b.delete();
		expect([held(keys, nodes, 'wf-b'), nodes.size, keys.size]).toEqual([0, 0, 0]);
	});
});
