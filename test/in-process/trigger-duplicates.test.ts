/**
 * Ignore Duplicate Deliveries never drops a distinct notification, through the harness that handles
 * each request as n8n 2.8.4 does (static data read per request, the execution created, the static
 * data written back, then the answer; the raw body as n8n keeps it):
 * - issue 55: no field is guessed (case 1: a top-level order id; case 2: an empty id), the same JSON
 *   value read from the raw text (numbers by exact value, repeated names, escapes), the Notification
 *   ID Field, one memory for every process (case 3), the keys earlier versions saved;
 * - issue 44: a key reaches another request's static data only once its own request was answered
 *   2xx (case 2); the memory of one process has a lifecycle (case 5).
 */
import { createHash } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { canonicalBody, canonicalText } from '../../nodes/SalesPayments/trigger/jsonValue';
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

/** A trigger whose Notification ID Field is `field`. */
const withIdField = async (field: string, extra: Partial<Parameters<typeof TriggerHarness.start>[0]> = {}) =>
	await trigger({ parameters: { ...EVENTS, options: { notificationIdField: field } } as INodeParameters, ...extra });

const headersOf = (h: TriggerHarness) => ({ [SECRET_HEADER]: String(h.nodeStaticData.webhookSecret) });
/** Whether a delivery started an execution (true) or was dropped as a repeat (false). */
const runs = async (h: TriggerHarness, body: unknown) => (await h.deliver({ headers: headersOf(h), body })).items !== undefined;
/** The same for a body sent as this text (n8n parses it; the node also reads the text). */
const runsText = async (h: TriggerHarness, raw: string) => (await h.deliver({ headers: headersOf(h), raw })).items !== undefined;

/** Order ORDER partially paid: the example, as the platform's envelope carries it. */
const partial = (id: string, paidAmountInCents: number) => ({
	event: 'order.partiallyPaid',
	id,
	data: { id: ORDER, status: 'partially_paid', createdAt: CREATED, paidAmountInCents },
});

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

/** The key 1e288e7 (0.1.0) saved for a delivery (trigger/delivery.ts deliveryKey of that release). */
function keySavedBy010(event: string, body: IDataObject): string {
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

describe('issue 55 case 1: no field is taken for the notification id', () => {
	it('a top-level order id beside a record without one: two partial payments of one order both run; a byte-for-byte re-send is dropped', async () => {
		const h = await trigger();
		const first = '{"event":"order.partiallyPaid","id":"ord_7","data":{"status":"partially_paid","paidAmountInCents":5000}}';
		const second = '{"event":"order.partiallyPaid","id":"ord_7","data":{"status":"partially_paid","paidAmountInCents":15000}}';
		expect(await runsText(h, first)).toBe(true);
		expect(await runsText(h, second)).toBe(true);
		expect(await runsText(h, first)).toBe(false);
		expect(await runsText(h, second)).toBe(false);
		expect(h.executions).toHaveLength(2);
	});

	it('a second payment of one order, whose record has an id of its own, runs; a top-level id beside a record with another id is no notification id either', async () => {
		const h = await trigger();
		const payment = (id: string, amount: number) => `{"event":"order.partiallyPaid","id":"ord_X","payment":{"id":"${id}","status":"paid","amountInCents":${amount}}}`;
		expect(await runsText(h, payment('pay_1', 5000))).toBe(true);
		expect(await runsText(h, payment('pay_2', 5000))).toBe(true);
		// The envelope of issue 44's example: another notification id with the same record runs as before.
		expect(await runs(h, partial('evt_1', 5000))).toBe(true);
		expect(await runs(h, partial('evt_2', 15000))).toBe(true);
		// One notification id, two bodies: no longer one notification (its ID field can be named: below).
		expect(await runs(h, { ...partial('evt_2', 15000), sentAt: '2026-11-20T13:09:00Z' })).toBe(true);
		expect(await runsText(h, payment('pay_2', 5000))).toBe(false);
		expect(h.executions).toHaveLength(5);
	});

	it('the same JSON value is one notification: keys in another order, other whitespace, \\u escapes; any other difference runs', async () => {
		const h = await trigger();
		expect(await runsText(h, '{"event":"order.paid","data":{"id":"ord_1","buyer":"José","tags":["a","b"],"valueInCents":4990}}')).toBe(true);
		expect(await runsText(h, ' { "data" : { "valueInCents" : 4990 , "tags" : [ "a" , "b" ] , "buyer" : "Jos\\u00e9" , "id" : "\\u006frd_1" } ,\n\t"event" : "order.paid" } ')).toBe(false);
		// An array's order is part of the value; so is every field, anywhere.
		expect(await runsText(h, '{"event":"order.paid","data":{"id":"ord_1","buyer":"José","tags":["b","a"],"valueInCents":4990}}')).toBe(true);
		expect(await runsText(h, '{"event":"order.paid","data":{"id":"ord_1","buyer":"Jose","tags":["a","b"],"valueInCents":4990}}')).toBe(true);
		expect(await runsText(h, '{"event":"order.paid","data":{"id":"ord_1","buyer":"José","tags":["a","b"],"valueInCents":"4990"}}')).toBe(true);
		expect(await runsText(h, '{"event":"order.paid","data":{"id":"ord_1","buyer":"José","tags":["a","b"],"valueInCents":4990,"note":null}}')).toBe(true);
		expect(h.executions).toHaveLength(5);
	});

	it('numbers are their exact value (1, 1.0, 1e0 and 10E-1 are one; 9007199254740993 and ...992, one float to n8n, are two); repeated names keep their order', async () => {
		const h = await trigger();
		const amount = (literal: string) => `{"event":"order.paid","data":{"id":"ord_n","amount":${literal}}}`;
		expect(await runsText(h, amount('1'))).toBe(true);
		for (const same of ['1.0', '1e0', '10E-1', '0.1e1', '1.000']) expect(await runsText(h, amount(same))).toBe(false);
		expect(await runsText(h, amount('1.5'))).toBe(true);
		expect(await runsText(h, amount('-1'))).toBe(true);
		expect(await runsText(h, amount('9007199254740993'))).toBe(true);
		expect(await runsText(h, amount('9007199254740992'))).toBe(true);
		expect(await runsText(h, amount('9007199254740993.0'))).toBe(false);
		expect(await runsText(h, amount('0.30000000000000001'))).toBe(true);
		expect(await runsText(h, amount('0.3'))).toBe(true);
		expect(await runsText(h, amount('1e400'))).toBe(true);
		expect(await runsText(h, amount('10e399'))).toBe(false);
		// n8n reads {"a":1,"a":2} as {"a":2}: three bodies n8n reads as two values, three notifications.
		expect(await runsText(h, '{"event":"order.paid","a":1,"a":2}')).toBe(true);
		expect(await runsText(h, '{"event":"order.paid","a":2}')).toBe(true);
		expect(await runsText(h, '{"event":"order.paid","a":2,"a":1}')).toBe(true);
		expect(await runsText(h, '{"a":1,"event":"order.paid","a":2}')).toBe(false);
		expect(h.executions).toHaveLength(11);
	});

	it('a body that is not JSON, or not UTF-8 text, is one notification only with the same bytes', async () => {
		const h = await trigger();
		// A form body, as n8n parses one (querystring): the bytes decide, not the parsed fields.
		const form = async (raw: string) => (await h.deliver({ headers: headersOf(h), raw, body: Object.fromEntries(new URLSearchParams(raw)) })).items !== undefined;
		expect(await form('event=order.paid&order=1')).toBe(true);
		expect(await form('event=order.paid&order=2')).toBe(true);
		expect(await form('event=order.paid&order=1')).toBe(false);
		expect(await form('order=1&event=order.paid')).toBe(true);
		// Bytes that are not UTF-8 (n8n reads each bad byte as U+FFFD): two bodies n8n reads alike run.
		const latin = async (byte: number) => (await h.deliver({ headers: headersOf(h), raw: Buffer.from([...Buffer.from('{"event":"order.paid","buyer":"Jos'), byte, ...Buffer.from('"}')]), body: { event: 'order.paid', buyer: 'Jos\ufffd' } })).items !== undefined;
		expect(await latin(0xe9)).toBe(true);
		expect(await latin(0xe8)).toBe(true);
		expect(await latin(0xe9)).toBe(false);
		expect(h.executions).toHaveLength(5);
	});
});

describe('the five example pairs of docs/triggers.md ("What Ignore Duplicate Deliveries catches")', () => {
	it('runs or drops each pair as the table says, with and without the Notification ID Field', async () => {
		const plain = await trigger();
		const byId = await withIdField('id');
		const first = '{"event":"order.partiallyPaid","id":"ord_7","data":{"paidAmountInCents":5000}}';
		const pairs: Array<[string, string, boolean, boolean]> = [
			// [first, second, second runs, second runs with Notification ID Field = id]
			[first, first.replace('5000', '15000'), true, false],
			[first, '{"data":{"paidAmountInCents":5e3}, "id":"ord_\\u0037", "event":"order.partiallyPaid"}', false, false],
			['{"event":"order.paid","eventId":"","data":{"id":"ord_1"}}', '{"event":"order.paid","eventId":"","data":{"id":"ord_2"}}', true, true],
			['{"event":"order.paid","id":"evt_1","sentAt":"2026-11-20T13:05:01Z"}', '{"event":"order.paid","id":"evt_1","sentAt":"2026-11-20T13:06:01Z"}', true, false],
			['{"id":9007199254740993}', '{"id":9007199254740992}', true, true],
		];
		for (const [a, b, runsPlain, runsById] of pairs) {
			for (const [h, expected] of [[plain, runsPlain], [byId, runsById]] as const) {
				await runsText(h, a);
				expect([a, b, await runsText(h, b)]).toEqual([a, b, expected]);
			}
		}
	});
});

describe('the JSON reader (trigger/jsonValue.ts)', () => {
	it('reads what JSON.parse reads, to the text earlier builds hashed from the parsed body when nothing is lost', () => {
		const texts = ['{"b":[1,2.5,-0.25e-3,{"z":null,"a":true}],"a":"x\\u00e9\\n","":{}}', '[]', '"only"', ' 12 ', '{"__proto__":{"a":1},"a":[[],{}]}', '{"é":1,"e":2,"É":3}'];
		for (const text of texts) expect(canonicalText(text)).toEqual({ text: canonicalBody(JSON.parse(text)), exact: true });
	});

	it('refuses what is not one JSON value (the bytes decide then), and nesting past the stack, without throwing', () => {
		for (const bad of ['', '{"a":1,}', "{'a':1}", '[NaN]', '01', '{"a":1} {}', '"tab\there"', '"\\x41"', '{"a"}', '[1,]', '"\\', 'tru', '-', '1.', '1e']) {
			expect([bad, canonicalText(bad)]).toEqual([bad, undefined]);
		}
		expect(canonicalText(`${'['.repeat(200_000)}${']'.repeat(200_000)}`)).toBeUndefined();
	});

	it('keeps apart what n8n reads as one value: lone surrogates, numbers past a float, repeated names', () => {
		expect(canonicalText('"\\ud800"')?.text).not.toBe(canonicalText('"\\udc00"')?.text);
		expect(canonicalText('1e400')).toEqual({ text: '1e400', exact: false });
		expect(canonicalText('1E+400')?.text).toBe(canonicalText('0.01e402')?.text);
		expect(canonicalText('-0')).toEqual({ text: '0', exact: true });
		expect(canonicalText('{"a":1,"a":2}')?.exact).toBe(false);
		expect(canonicalText('{"a":1,"a":2}')?.text).not.toBe(canonicalText('{"a":2,"a":1}')?.text);
	});
});

describe('issue 55 case 2: an empty id is not an id', () => {
	it('60 notifications of 20 orders with an empty eventId, notificationId or deliveryId: 60 runs; each re-send dropped', async () => {
		const h = await trigger();
		const bodies: IDataObject[] = [];
		for (const field of ['eventId', 'notificationId', 'deliveryId']) {
			for (let n = 0; n < 20; n++) bodies.push({ event: 'order.paid', [field]: '', data: { id: `ord_${n}`, status: 'paid', valueInCents: 1000 + n } });
		}
		for (const body of bodies) expect(await runs(h, body)).toBe(true);
		for (const body of bodies) expect(await runs(h, body)).toBe(false);
		expect(h.executions).toHaveLength(60);
	});
});

describe('issue 55 case 4 and the Notification ID Field: a retry that changes a per-attempt field', () => {
	const attempt = (extra: IDataObject) => ({ event: 'order.paid', id: 'evt_1', data: { id: ORDER, status: 'paid' }, ...extra });

	it('without the option, a retry that changes deliveryId, attempt, sentAt or pending_webhooks runs again (the documented limit)', async () => {
		const h = await trigger();
		expect(await runs(h, attempt({ sentAt: '2026-11-20T13:05:01Z', attempt: 1, deliveryId: 'd1' }))).toBe(true);
		expect(await runs(h, attempt({ sentAt: '2026-11-20T13:06:01Z', attempt: 1, deliveryId: 'd1' }))).toBe(true);
		expect(await runs(h, attempt({ sentAt: '2026-11-20T13:06:01Z', attempt: 2, deliveryId: 'd1' }))).toBe(true);
		expect(await runs(h, attempt({ sentAt: '2026-11-20T13:06:01Z', attempt: 2, deliveryId: 'd2' }))).toBe(true);
		const stripe = (pending: number) => ({ id: 'evt_1Nq', object: 'event', type: 'order.paid', pending_webhooks: pending, data: { object: { id: 'ord_9', amount: 4990 } } });
		expect(await runs(h, stripe(2))).toBe(true);
		expect(await runs(h, stripe(1))).toBe(true);
		expect(await runs(h, stripe(1))).toBe(false);
	});

	it('with Notification ID Field = id, a retry with a changed sentAt, attempt or pending_webhooks is dropped; another id, or the same id of another event, runs', async () => {
		const h = await withIdField('id');
		expect(await runs(h, attempt({ sentAt: '2026-11-20T13:05:01Z', attempt: 1 }))).toBe(true);
		expect(await runs(h, attempt({ sentAt: '2026-11-20T13:06:01Z', attempt: 2 }))).toBe(false);
		expect(await runs(h, { ...attempt({}), id: 'evt_2' })).toBe(true);
		expect(await runs(h, { ...attempt({}), event: 'order.partiallyPaid' })).toBe(true);
		// A number id is its value; the text "7" is another id than the number 7.
		expect(await runs(h, { event: 'order.paid', id: 7 })).toBe(true);
		expect(await runs(h, { event: 'order.paid', id: 7, retry: true })).toBe(false);
		expect(await runs(h, { event: 'order.paid', id: '7' })).toBe(true);
		expect(h.executions).toHaveLength(5);
		expect(h.logs.filter((l) => l.message.includes('Notification ID Field'))).toEqual([]);
	});

	it('a dot path reaches into the body; a delivery where the field is missing, empty, an object or a number past 2^53 is judged by its whole body, and the log says so once', async () => {
		const h = await withIdField('data.eventId');
		const nested = (eventId: unknown, extra: IDataObject = {}) => ({ event: 'order.paid', data: { eventId, ...extra } });
		expect(await runs(h, nested('e-1', { sentAt: 1 }))).toBe(true);
		expect(await runs(h, nested('e-1', { sentAt: 2 }))).toBe(false);
		for (const unusable of [undefined, '', '   ', { id: 'x' }, 2 ** 53 + 2, 1.5, null, true]) {
			expect(await runs(h, nested(unusable))).toBe(true);
			// Another body with the same unusable value runs: the whole body decides.
			expect(await runs(h, nested(unusable, { order: 2 }))).toBe(true);
			expect(await runs(h, nested(unusable, { order: 2 }))).toBe(false);
		}
		const warnings = h.logs.filter((l) => l.level === 'warn');
		expect(warnings).toHaveLength(1);
		expect(warnings[0].message).toContain('Notification ID Field "data.eventId" was missing in a delivery of order.paid');
		expect(warnings[0].message).toContain('told apart by its whole body');
	});

	it('a Notification ID Field that is not a dot path fails the activation, naming the field, before any request', async () => {
		const h = await TriggerHarness.start({ parameters: { ...EVENTS, options: { notificationIdField: 'data..eventId' } } as INodeParameters, credentials: dataCredentials(sim()) });
		harnesses.push(h);
		sim().clearRequests();
		await expect(h.activate()).rejects.toThrow('Notification ID Field "data..eventId" is not a dot path');
		expect(sim().apiRequests).toHaveLength(0);
		// Set so after the activation (a workflow edited in the database): each delivery fails, none runs.
		const ok = await trigger();
		ok.setParameters({ ...EVENTS, options: { notificationIdField: '.id' } } as INodeParameters);
		await expect(ok.deliver({ headers: headersOf(ok), body: partial('evt_1', 1) })).rejects.toThrow('Notification ID Field ".id" is not a dot path');
		expect(ok.executions).toHaveLength(0);
	});
});

describe('issue 55 case 3: one memory for every process', () => {
	it('X answered by webhook process B once A has confirmed 199 keys; then a delivery at A: a re-send of X at A is dropped', async () => {
		const a = await trigger();
		const b = await a.anotherProcess();
		harnesses.push(b);
		for (let n = 0; n < 199; n++) expect(await runs(a, partial(`evt_a${n}`, n))).toBe(true);
		const x = partial('evt_X', 777);
		expect(await runs(b, x)).toBe(true);
		expect(await runs(a, partial('evt_a199', 199))).toBe(true);
		// The static data holds the newest 200 answered by either process: X among them.
		const saved = a.nodeStaticData.recentDeliveries as string[];
		expect(saved).toHaveLength(200);
		expect(await runs(a, x)).toBe(false);
		expect(await runs(b, partial('evt_a199', 199))).toBe(false);
		// The oldest of A's keys left the window; the newest 200 stay, whoever answered them.
		expect(await runs(b, partial('evt_a0', 0))).toBe(true);
		expect(a.executions.length + b.executions.length).toBe(202);
	});

	it('both processes alternate and restart: a repeat answered and saved is dropped in either while among the newest 200', async () => {
		const a = await trigger();
		const b = await a.anotherProcess();
		harnesses.push(b);
		const at = (n: number) => (n % 3 === 0 ? b : a);
		for (let n = 0; n < 300; n++) expect(await runs(at(n), partial(`evt_${n}`, n))).toBe(true);
		await a.restart({ newProcess: true });
		await b.restart({ newProcess: true });
		// The newest 200 (100..299) are dropped at either process; the older ones run again.
		for (let n = 100; n < 300; n++) expect(await runs(at(n + 1), partial(`evt_${n}`, n))).toBe(false);
		expect(await runs(a, partial('evt_99', 99))).toBe(true);
	});
});

describe('upgrades: keys saved by earlier versions', () => {
	it("0.1.0's whole-body keys and the last build's still catch their exact re-sends; no id-based or record key is honoured", async () => {
		const h = await trigger();
		const withEventId = { event: 'order.paid', eventId: 'n-1', data: { id: ORDER, status: 'paid' } };
		const envelope = { id: 'evt_41', event: 'order.paid', createdAt: CREATED, data: { id: ORDER, status: 'paid' } };
		const bare = { event: 'order.paid', note: 'no record, no id' };
		const merged = { event: 'order.partiallyPaid', data: { id: ORDER, status: 'partially_paid', createdAt: CREATED, paidAmountInCents: 5000 } };
		// 49f7149 hashed the body with its keys sorted, or a notification id.
		const sortedBody = { zeta: 1, event: 'order.paid', alpha: { b: 2, a: 1 } };
		const canonical = '{"alpha":{"a":1,"b":2},"event":"order.paid","zeta":1}';
		h.editSavedStaticData((data) => {
			data.recentDeliveries = [
				keySavedBy010('order.paid', withEventId),
				keySavedBy010('order.paid', envelope),
				keySavedBy010('order.paid', bare),
				keySavedBy010('order.partiallyPaid', merged),
				hash(`body:${canonical}`),
				hash('notification:order.paid:evt_77'),
			];
		});
		await h.restart({ newProcess: true });
		expect(await runs(h, bare)).toBe(false);
		expect(await runs(h, sortedBody)).toBe(false);
		// An id-based key would merge every body with that id: each runs once more.
		expect(await runs(h, withEventId)).toBe(true);
		expect(await runs(h, { ...withEventId, data: { id: 'ord_other', status: 'paid' } })).toBe(true);
		expect(await runs(h, envelope)).toBe(true);
		expect(await runs(h, { event: 'order.paid', id: 'evt_77', data: { id: 'ord_8' } })).toBe(true);
		// The old record key named the order, its status and creation time: never used.
		expect(await runs(h, { ...merged, data: { ...merged.data, paidAmountInCents: 15000 } })).toBe(true);
		expect(await runs(h, merged)).toBe(true);
		expect(await runs(h, merged)).toBe(false);
		// A body n8n reads with loss never matches a key hashed from what n8n read.
		h.editSavedStaticData((data) => {
			data.recentDeliveries = [...(data.recentDeliveries as string[]), hash('body:{"amount":9007199254740992,"event":"order.paid"}')];
		});
		expect(await runsText(h, '{"event":"order.paid","amount":9007199254740993}')).toBe(true);
		expect(await runsText(h, '{"event":"order.paid","amount":9007199254740992}')).toBe(false);
		// The kept old keys stay in the static data window.
		expect(h.nodeStaticData.recentDeliveries).toEqual(expect.arrayContaining([keySavedBy010('order.paid', bare), keySavedBy010('order.paid', withEventId)]));
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
