/**
 * The polling trigger through n8n-core's PollContext, as n8n's ActiveWorkflows runs it
 * (activation poll, cron ticks, emit/save, error executions, restarts from the saved static
 * data, manual runs), against the simulator with its settable clock: records are added, flipped
 * and back-dated between polls, and every poll's emission is asserted exactly.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../support/harness/n8n-core';
import { POLLING_TRIGGER_TYPE } from '../support/harness/poll';
import { ids, pollingSetup as setup } from '../support/helpers/polling';
import { expectAuth } from '../support/helpers/reads';
import { dataCredentials } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';
import type { Simulator } from '../support/simulator/server';

function listRequests(sim: Simulator, path: string) {
	return sim.requestsTo(undefined, path);
}

describe('Polling trigger: New Refund Request (cursor on createdAt)', () => {
	const t = setup();
	const params = (options: IDataObject = {}): INodeParameters => ({ event: 'refundRequestCreated', options: options as INodeParameters });

	it('activation sets a baseline: history and records of the look-back window are not replayed', async () => {
		const before = t.add('refunds', -60);
		const h = await t.activate(params());
		expect(h.executions).toHaveLength(0);
		const req = listRequests(t.sim(), '/order-revert-requests/list')[0];
		expectAuth(t.sim(), req, 'keys+biz');
		expect(req.query).toMatchObject({ orderByField: 'createdAt', orderDirection: 'ASC' });
		expect(Date.parse(String(req.query['createdAt[startsAt]']))).toBeLessThanOrEqual(Date.parse(String(before.createdAt)));
		expect(await h.pollJson()).toEqual([]);
		const created = t.add('refunds', 5);
		const emitted = await h.pollJson();
		expect(ids(emitted)).toEqual([created.id]);
		expect(emitted[0]).toMatchObject({ id: created.id, status: 'requested', createdAt: created.createdAt, orderId: created.orderId });
		expect(emitted[0]).not.toHaveProperty('_businessId');
		expect(await h.pollJson()).toEqual([]);
		expect(h.executions).toHaveLength(1);
	});

	it('many records on one timestamp, some added after a poll: each is emitted once, in id order', async () => {
		const h = await t.activate(params());
		const first = [1, 2, 3, 4].map(() => t.add('refunds', 10));
		const emitted = ids(await h.pollJson());
		expect(emitted).toEqual(first.map((r) => r.id).sort());
		// More on the very timestamp the cursor stands at, plus a later one.
		const tied = [1, 2, 3].map(() => t.add('refunds', 10));
		const later = t.add('refunds', 11);
		expect(ids(await h.pollJson())).toEqual([...tied.map((r) => r.id).sort(), later.id]);
		expect(await h.pollJson()).toEqual([]);
	});

	it('a late record (dated behind the cursor, within the look-back window) is emitted once; one older than the window is not', async () => {
		const h = await t.activate(params({ lookBackMinutes: 5 }));
		const a = t.add('refunds', 600);
		expect(ids(await h.pollJson())).toEqual([a.id]);
		// Shows up now, dated 2 minutes before the cursor.
		const late = t.add('refunds', 600 - 120);
		// Dated 10 minutes before the cursor: outside the 5-minute window.
		const tooLate = t.add('refunds', 600 - 600);
		t.clockAt(600);
		expect(ids(await h.pollJson())).toEqual([late.id]);
		expect(await h.pollJson()).toEqual([]);
		expect(h.executions.flat().map((i) => i.json.id)).not.toContain(tooLate.id);
	});

	it('Max Records per Poll: the rest goes to the next polls, oldest first, none twice', async () => {
		const h = await t.activate(params({ maxRecordsPerPoll: 3 }));
		const records = [5, 1, 4, 2, 3, 3, 6].map((s) => t.add('refunds', s));
		const expected = [...records]
			.sort((x, y) => Date.parse(String(x.createdAt)) - Date.parse(String(y.createdAt)) || (String(x.id) < String(y.id) ? -1 : 1))
			.map((r) => r.id);
		const polls = [await h.pollJson(), await h.pollJson(), await h.pollJson(), await h.pollJson()];
		expect(polls.map((p) => p.length)).toEqual([3, 3, 1, 0]);
		expect(polls.flatMap(ids)).toEqual(expected);
		// Each poll is two answers, one page each: the range up to the latest record processed, then what follows it.
		expect(listRequests(t.sim(), '/order-revert-requests/list').slice(1).map((r) => r.query.page)).toEqual(Array(8).fill('1'));
	});

	it('a restart with the saved static data neither repeats nor misses records', async () => {
		const h = await t.activate(params());
		const a = t.add('refunds', 1);
		expect(ids(await h.pollJson())).toEqual([a.id]);
		// A poll that found nothing does not make n8n save; what it learned in memory is lost at a restart.
		expect(await h.pollJson()).toEqual([]);
		const whileDown = [t.add('refunds', 2), t.add('refunds', 2)];
		await h.restart();
		// The activation poll after the restart emits what appeared while n8n was down.
		expect(h.executions).toHaveLength(2);
		expect(ids(h.executions[1].map((i) => i.json))).toEqual(whileDown.map((r) => r.id).sort());
		expect(await h.pollJson()).toEqual([]);
		// A second restart from the same saved data: nothing again.
		await h.restart();
		expect(h.executions).toHaveLength(2);
		const b = t.add('refunds', 3);
		expect(ids(await h.pollJson())).toEqual([b.id]);
	});

	it('a platform error fails the poll with its message and status; the cursor stays, the next poll catches up', async () => {
		const h = await t.activate(params());
		const a = t.add('refunds', 1);
		const stateBefore = JSON.stringify(h.nodeStaticData);
		t.sim().addFault({ kind: 'status', status: 500, path: '/order-revert-requests/list', times: 4 }); // past the read's retries
		expect(await h.poll()).toBeUndefined();
		expect(h.errors).toHaveLength(1);
		expect(h.errors[0].message).toBe('Internal server error');
		expect(h.errors[0].httpCode).toBe('500');
		expect(h.errors[0].node?.name).toBe('Sales & Payments Polling Trigger');
		expect(JSON.stringify(h.nodeStaticData)).toBe(stateBefore);
		expect(ids(await h.pollJson())).toEqual([a.id]);
	});

	it('a rate limit (429 with Retry-After) is waited out within the poll, as for every list', async () => {
		const h = await t.activate(params());
		const a = t.add('refunds', 1);
		t.sim().addFault({ kind: 'status', status: 429, retryAfter: '0', path: '/order-revert-requests/list', times: 2 });
		expect(ids(await h.pollJson())).toEqual([a.id]);
		expect(h.errors).toHaveLength(0);
		expect(t.sim().requestsTo('GET', '/order-revert-requests/list').slice(-4).map((r) => r.status)).toEqual([429, 429, 200, 200]);
	});

	it('an error during activation fails the activation (n8n reports it and retries later)', async () => {
		// A business of another account: the platform refuses with 403.
		const foreign = t.sim().state.accounts[1].businessIds[0];
		await expect(t.activate(params(), { businessId: foreign })).rejects.toMatchObject({ message: 'Forbidden resource', httpCode: '403' });
	});

	it('a manual run returns the newest record as a sample and leaves the cursor alone', async () => {
		const h = await t.activate(params());
		const older = t.add('refunds', 1);
		const newest = t.add('refunds', 2);
		const state = JSON.stringify(h.nodeStaticData);
		const sample = await h.manual();
		expect(ids(sample)).toEqual([newest.id]);
		expect(JSON.stringify(h.nodeStaticData)).toBe(state);
		expect(listRequests(t.sim(), '/order-revert-requests/list').at(-1)?.query).toMatchObject({ orderDirection: 'DESC' });
		// The active workflow still gets both.
		expect(ids(await h.pollJson())).toEqual([older.id, newest.id]);
	});

	it('Start From reports the records from that date on at activation, then goes on as usual', async () => {
		const old = t.add('refunds', -3600);
		const recent = t.add('refunds', -1800);
		const h = await t.activate(params({ startFrom: t.at(-2000), maxRecordsPerPoll: 1 }));
		expect(h.executions.map((e) => e.map((i) => i.json.id))).toEqual([[recent.id]]);
		expect(h.executions.flat().map((i) => i.json.id)).not.toContain(old.id);
		const next = t.add('refunds', 1);
		expect(ids(await h.pollJson())).toEqual([next.id]);
	});

	it('changing the event or its filters sets a new baseline instead of replaying', async () => {
		const h = await t.activate(params());
		t.add('customers', 1);
		await h.update({ event: 'customerCreated' });
		expect(h.executions).toHaveLength(0);
		const c = t.add('customers', 2);
		expect(ids(await h.pollJson())).toEqual([c.id]);
	});
});

describe('Polling trigger: several pages (the platform accepts at most 10 per page)', () => {
	const t = setup({ maxLimit: 10 });

	it('25 records sharing one timestamp, read over pages, with Max Records per Poll 10: 10, 10, 5, each once', async () => {
		const h = await t.activate({ event: 'customerCreated', options: { maxRecordsPerPoll: 10 } });
		const records = Array.from({ length: 25 }, () => t.add('customers', 30));
		const polls = [await h.pollJson(), await h.pollJson(), await h.pollJson(), await h.pollJson()];
		expect(polls.map((p) => p.length)).toEqual([10, 10, 5, 0]);
		expect(polls.flatMap(ids)).toEqual(records.map((r) => r.id).sort());
		const pages = t.sim().requestsTo('GET', '/customers/list').filter((r) => r.status === 200);
		expect(pages.some((r) => r.query.page === '3' && r.query.limit === '10')).toBe(true);
	});

	it('an error on a later request of the walk fails the poll with the platform message; the records read before are not lost', async () => {
		const h = await t.activate({ event: 'customerCreated' });
		const records = Array.from({ length: 15 }, (_, k) => t.add('customers', 10 + k));
		// Requests of the next poll (the page size of 10 learned at activation): the look-back window
		// up to the baseline (empty), the window after it (full: 15 records), then the first of the
		// windows it is split into.
		t.sim().addFault({
			kind: 'status',
			status: 400,
			path: '/customers/list',
			nth: [3],
			body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Invalid param: [createdAt[startsAt]]' }),
		});
		expect(await h.poll()).toBeUndefined();
		expect(h.errors).toHaveLength(1);
		expect(h.errors[0].message).toBe('Invalid param: [createdAt[startsAt]]');
		expect(h.errors[0].httpCode).toBe('400');
		const failed = t.sim().requestsTo('GET', '/customers/list').filter((r) => r.status === 400).at(-1)!;
		expect(failed.query).toMatchObject({ page: '1', limit: '10', 'createdAt[endsAt]': expect.any(String) });
		expect(ids(await h.pollJson())).toEqual(records.map((r) => r.id));
	});

	it('records added out of date order across pages and polls come out in date order, once', async () => {
		const h = await t.activate({ event: 'saleCreated' });
		const sale = (s: number) => t.add('sales', s, { status: 'paid', valueInCents: 100 * s });
		const first = [sale(40), sale(10), sale(30), sale(20)];
		const byDate = (list: JsonObject[]) => [...list].sort((a, b) => Date.parse(String(a.createdAt)) - Date.parse(String(b.createdAt))).map((r) => r.id);
		expect(ids(await h.pollJson())).toEqual(byDate(first));
		// Dated behind the cursor (40 s) but within the look-back window.
		const second = [sale(35), sale(5), ...Array.from({ length: 12 }, (_, k) => sale(41 + k))];
		expect(ids(await h.pollJson())).toEqual(byDate(second));
		expect(await h.pollJson()).toEqual([]);
	});
});

describe('Polling trigger: Refund Request Status Changed (updatedAt and remembered statuses)', () => {
	const t = setup();
	const params = (extra: INodeParameters = {}): INodeParameters => ({ event: 'refundRequestStatusChanged', ...extra });

	it('reports each status flip once, with the previous status; a new request or an update without a flip is not a change', async () => {
		const known = t.add('refunds', -100);
		const h = await t.activate(params());
		const fresh = t.add('refunds', 1);
		expect(await h.pollJson()).toEqual([]);
		t.update('refunds', known.id, 2, { status: 'confirmed' });
		t.update('refunds', fresh.id, 3, { status: 'delayed' });
		const flips = await h.pollJson();
		expect(flips.map((r) => [r.id, r.previousStatus, r.status])).toEqual([
			[known.id, 'requested', 'confirmed'],
			[fresh.id, 'requested', 'delayed'],
		]);
		t.update('refunds', fresh.id, 4, { description: 'Buyer added a note' });
		expect(await h.pollJson()).toEqual([]);
		t.update('refunds', fresh.id, 5, { status: 'confirmed' });
		expect((await h.pollJson()).map((r) => [r.id, r.previousStatus, r.status])).toEqual([[fresh.id, 'delayed', 'confirmed']]);
		const req = t.sim().requestsTo('GET', '/order-revert-requests/list').at(-1)!;
		expect(req.query['updatedAt[startsAt]']).toBeDefined();
		expect(req.query['createdAt[startsAt]']).toBeUndefined();
	});

	it('two flips between polls give one event with the latest status; To Statuses keeps only the chosen moves', async () => {
		const a = t.add('refunds', -10);
		const b = t.add('refunds', -10);
		const h = await t.activate(params({ refundStatuses: ['confirmed', 'failed'] }));
		t.update('refunds', a.id, 1, { status: 'delayed' });
		t.update('refunds', a.id, 2, { status: 'failed' });
		t.update('refunds', b.id, 3, { status: 'canceled' });
		expect((await h.pollJson()).map((r) => [r.id, r.previousStatus, r.status])).toEqual([[a.id, 'requested', 'failed']]);
		// b's move to canceled was not chosen, but is remembered: its next move starts from canceled.
		t.update('refunds', b.id, 4, { status: 'confirmed' });
		expect((await h.pollJson()).map((r) => [r.id, r.previousStatus, r.status])).toEqual([[b.id, 'canceled', 'confirmed']]);
	});

	it('a request the node does not remember (forgotten, or never seen) is judged by its status history', async () => {
		const old = t.add('refunds', -100);
		const h = await t.activate(params());
		(h.nodeStaticData.pollState as IDataObject).mem = [];
		t.update('refunds', old.id, 5, { status: 'canceled' });
		expect((await h.pollJson()).map((r) => [r.id, r.previousStatus, r.status])).toEqual([[old.id, 'requested', 'canceled']]);
	});

	it('a manual run shows the most recently updated request with its previous status from the history', async () => {
		const r = t.add('refunds', -50);
		const h = await t.activate(params());
		t.update('refunds', r.id, 1, { status: 'confirmed' });
		const sample = await h.manual();
		expect(sample.map((s) => [s.id, s.previousStatus, s.status])).toEqual([[r.id, 'requested', 'confirmed']]);
		expect((await h.pollJson()).map((s) => s.id)).toEqual([r.id]);
	});
});

describe('Polling trigger: withdraw requests', () => {
	const t = setup();

	it('New Withdraw Request sends initialDate and the filters, and reports new requests', async () => {
		const h = await t.activate({ event: 'withdrawRequestCreated', filters: { status: 'pending', initialValue: 1000 } });
		const small = t.add('withdrawRequests', 1, { status: 'pending', valueInCents: 500 });
		const big = t.add('withdrawRequests', 2, { status: 'pending', valueInCents: 5000 });
		const done = t.add('withdrawRequests', 3, { status: 'completed', valueInCents: 5000 });
		expect(ids(await h.pollJson())).toEqual([big.id]);
		const req = t.sim().requestsTo('POST', '/withdraw-requests/filter').at(-1)!;
		expectAuth(t.sim(), req, 'keys+biz');
		expect(req.body).toEqual({ status: 'pending', initialValue: 1000, initialDate: expect.any(String) });
		expect([small.id, done.id]).not.toContain(big.id);
	});

	it('Withdraw Request Status Changed watches the window, reports flips once with the previous status', async () => {
		const recent = t.add('withdrawRequests', -86_400, { status: 'pending', valueInCents: 1000 });
		const old = t.add('withdrawRequests', -40 * 86_400, { status: 'pending', valueInCents: 1000 });
		const h = await t.activate({ event: 'withdrawRequestStatusChanged', withdrawStatuses: 'completed, rejected' });
		const fresh = t.add('withdrawRequests', 1, { status: 'pending', valueInCents: 1000 });
		expect(await h.pollJson()).toEqual([]);
		t.update('withdrawRequests', recent.id, 2, { status: 'processing' });
		t.update('withdrawRequests', old.id, 2, { status: 'completed' });
		expect(await h.pollJson()).toEqual([]);
		t.update('withdrawRequests', recent.id, 3, { status: 'completed' });
		t.update('withdrawRequests', fresh.id, 4, { status: 'rejected' });
		expect((await h.pollJson()).map((r) => [r.id, r.previousStatus, r.status])).toEqual([
			[recent.id, 'processing', 'completed'],
			[fresh.id, 'pending', 'rejected'],
		]);
		expect(await h.pollJson()).toEqual([]);
		const body = t.sim().requestsTo('POST', '/withdraw-requests/filter').at(-1)!.body as IDataObject;
		expect(Date.parse(String(body.initialDate))).toBeCloseTo(Date.now() - 30 * 86_400_000, -5);
	});
});

describe('Polling trigger: commissions, customers, sales, movements', () => {
	const t = setup();

	it('New Commission sends initialDate and the status filter', async () => {
		const h = await t.activate({ event: 'commissionCreated', filters: { status: 'pending' } });
		const c = t.add('commissions', 1, { status: 'pending', valueInCents: 300 });
		t.add('commissions', 2, { status: 'released', valueInCents: 300 });
		expect(ids(await h.pollJson())).toEqual([c.id]);
		const req = t.sim().requestsTo('GET', '/commissions/list').at(-1)!;
		expectAuth(t.sim(), req, 'keys+biz');
		expect(req.query).toMatchObject({ status: 'pending', page: '1' });
		expect(req.query.initialDate).toBeDefined();
	});

	it('New Sale sends the filters in the body like Sale › Get Many', async () => {
		const productId = String(t.sim().state.col('products')[0].id);
		const h = await t.activate({ event: 'saleCreated', filters: { status: 'paid', productIds: productId } });
		const match = t.add('sales', 1, { status: 'paid', product: { id: productId, name: 'P', quantity: 1 }, customer: { email: 'a@mail.example' } });
		t.add('sales', 2, { status: 'pending', product: { id: productId, name: 'P', quantity: 1 }, customer: { email: 'a@mail.example' } });
		expect(ids(await h.pollJson())).toEqual([match.id]);
		const req = t.sim().requestsTo('POST', '/sales/filter').at(-1)!;
		expect(req.body).toEqual({ status: 'paid', productIds: [productId], initialDate: expect.any(String) });
		expect(req.headers['business-id']).toBe(t.sim().credentials.businessId);
	});

	it('New Movement with Direction credits only sends omitDebit and reports only credits', async () => {
		const h = await t.activate({ event: 'movementCreated', filters: { direction: 'credit' } });
		const credit = t.add('movements', 1, { valueInCents: 990, originType: 'sale', subject: 'Sale', description: 'Sale', hash: 'h1', referenceId: 'r', groupId: 'g' });
		t.add('movements', 1, { valueInCents: -99, originType: 'fee', subject: 'Fee', description: 'Fee', hash: 'h2', referenceId: 'r', groupId: 'g' });
		expect(ids(await h.pollJson())).toEqual([credit.id]);
		const req = t.sim().requestsTo('POST', '/movement/filter').at(-1)!;
		expect(req.body).toEqual({ omitDebit: true, initialDate: expect.any(String) });
	});

	it('New Customer reports customers by creation date', async () => {
		const h = await t.activate({ event: 'customerCreated' });
		const c = t.add('customers', 1, { name: 'New Buyer', email: 'new.buyer@mail.example' });
		expect(ids(await h.pollJson())).toEqual([c.id]);
		expect(t.sim().requestsTo('GET', '/customers/list').at(-1)!.query['createdAt[startsAt]']).toBeDefined();
	});
});

describe('Polling trigger: Subscription Canceled or Expired (snapshot of the status lists)', () => {
	const t = setup();

	function subscription(status: string): JsonObject {
		const product = t.sim().state.col('products')[0];
		return t.add('subscriptions', 1, {
			name: 'Monthly plan',
			status,
			customer: { email: 'sub@mail.example' },
			orderItem: { product: { id: product.id, name: product.name }, unitValueInCents: 1000, quantity: 1 },
			recurrenceValueInCents: 1000,
			paymentMethod: 'pix',
		});
	}

	it('reports a subscription when it enters canceled or expired, once; existing ones are the baseline', async () => {
		const alreadyCanceled = subscription('canceled');
		const a = subscription('active');
		const b = subscription('active');
		const h = await t.activate({ event: 'subscriptionCanceledOrExpired' });
		expect(h.executions).toHaveLength(0);
		t.update('subscriptions', a.id, 2, { status: 'canceled' });
		expect((await h.pollJson()).map((s) => [s.id, s.status])).toEqual([[a.id, 'canceled']]);
		expect(await h.pollJson()).toEqual([]);
		// canceled -> expired: already reported; b expires.
		t.update('subscriptions', a.id, 3, { status: 'expired' });
		t.update('subscriptions', b.id, 3, { status: 'expired' });
		expect((await h.pollJson()).map((s) => [s.id, s.status])).toEqual([[b.id, 'expired']]);
		// Reactivated and canceled again: a new event.
		t.update('subscriptions', alreadyCanceled.id, 4, { status: 'active' });
		expect(await h.pollJson()).toEqual([]);
		t.update('subscriptions', alreadyCanceled.id, 5, { status: 'canceled' });
		expect(ids(await h.pollJson())).toEqual([alreadyCanceled.id]);
		const bodies = t.sim().requestsTo('POST', '/subscriptions/filter').slice(-2).map((r) => r.body as IDataObject);
		expect(bodies.map((b) => b.status)).toEqual(['canceled', 'expired']);
	});

	it('Max Records per Poll holds the rest for the next poll; only the chosen statuses are read', async () => {
		const subs = [subscription('active'), subscription('active'), subscription('active')];
		const h = await t.activate({ event: 'subscriptionCanceledOrExpired', subscriptionStatuses: ['canceled'], options: { maxRecordsPerPoll: 2 } });
		for (const s of subs) t.update('subscriptions', s.id, 2, { status: 'canceled' });
		const first = await h.pollJson();
		const second = await h.pollJson();
		expect(first).toHaveLength(2);
		expect(second).toHaveLength(1);
		expect([...ids(first), ...ids(second)].sort()).toEqual(subs.map((s) => s.id).sort());
		expect(await h.pollJson()).toEqual([]);
		expect(t.sim().requestsTo('POST', '/subscriptions/filter').every((r) => (r.body as IDataObject).status === 'canceled')).toBe(true);
	});

	it('no status chosen is refused with an error naming the field', async () => {
		await expect(t.activate({ event: 'subscriptionCanceledOrExpired', subscriptionStatuses: [] })).rejects.toThrow(
			'Statuses: choose at least one status',
		);
	});
});

describe('Polling trigger: Product Status Changed', () => {
	const t = setup();

	it('reports status flips of known products with the previous status; To Statuses filters; a new product is not a change', async () => {
		const product = t.sim().state.col('products').find((p) => p._businessId === t.sim().credentials.businessId && p.status === 'available')!;
		const h = await t.activate({ event: 'productStatusChanged', productStatuses: ['unavailable'] });
		const fresh = t.add('products', 1, { name: 'New course', status: 'draft', type: 'Online-Course', priceInCents: 100 });
		t.update('products', fresh.id, 2, { status: 'available' });
		expect(await h.pollJson()).toEqual([]);
		t.update('products', product.id, 3, { status: 'unavailable' });
		t.update('products', fresh.id, 3, { status: 'unavailable' });
		expect((await h.pollJson()).map((p) => [p.id, p.previousStatus, p.status])).toEqual(
			[
				[product.id, 'available', 'unavailable'],
				[fresh.id, 'available', 'unavailable'],
			].sort((x, y) => (String(x[0]) < String(y[0]) ? -1 : 1)),
		);
		const req = t.sim().requestsTo('POST', '/products/filter').at(-1)!;
		expect((req.body as IDataObject).updatedAt).toEqual({ startsAt: expect.any(String) });
	});
});

describe('Polling trigger: checks and manual runs through n8n', () => {
	const t = setup();

	it('bad options are refused before any request, naming the field', async () => {
		await expect(t.activate({ event: 'refundRequestCreated', options: { maxRecordsPerPoll: 0 } })).rejects.toThrow(
			'Max Records per Poll must be a whole number from 1 to',
		);
		await expect(t.activate({ event: 'refundRequestCreated', options: { startFrom: '2026-02-31' } })).rejects.toThrow(
			'Start From must be a date in ISO 8601 form',
		);
		expect(t.sim().apiRequests).toHaveLength(0);
	});

	it('a manual execution through WorkflowExecute outputs the sample (Fetch Test Event)', async () => {
		const c = t.add('commissions', 1, { status: 'pending', valueInCents: 300 });
		const { items, error } = await runNode(
			{ type: POLLING_TRIGGER_TYPE, parameters: { event: 'commissionCreated' } },
			{ credentials: dataCredentials(t.sim()) },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.id)).toEqual([c.id]);
	});

	it('a poll that is still running when the next is due is not doubled', async () => {
		const h = await t.activate({ event: 'refundRequestCreated' });
		const a = t.add('refunds', 1);
		t.sim().addFault({ kind: 'latency', latencyMs: 300, path: '/order-revert-requests/list', times: 1 });
		const [first, second] = await Promise.all([h.pollJson(), h.pollJson()]);
		expect([...ids(first), ...ids(second)]).toEqual([a.id]);
	});
});
