/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * A stopped run and same-record chains (issue 51, cases 6-8), through real executions by n8n-core
 * against the simulator:
 * - a stop is a stop: once an item failed (no Continue On Fail), no request of a later item starts,
 *   not even the retry of one that waited out a Retry-After;
 * - the error names what the platform did with every later item: carried out (with the record's
 *   ID), maybe carried out, refused, not sent;
 * - an item waiting for an earlier item of its record holds back only that record: the window stays
 *   full with the other records' items; an item whose record cannot be read still runs alone.
 * The seeded property tests of the same rules are in items-stop-properties.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';

import { NO_RECORD } from '../../nodes/SalesPayments/fields/types';
import { resources } from '../../nodes/SalesPayments/resources';

import { runNode } from '../support/harness/n8n-core';
import { listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject, RecordedRequest } from '../support/simulator/core';

const sim = useSimulator({ seed: 51 });

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
	sim().resetInFlight();
});

async function run(parameters: Record<string, unknown>, input: INodeExecutionData[], options: { continueOnFail?: boolean } = {}) {
	return await runNode({ parameters: parameters as never, ...options }, { credentials: dataCredentials(sim()), input });
}

const items = (values: Array<Record<string, unknown>>): INodeExecutionData[] => values.map((json) => ({ json: json as never }));
const paired = (out: INodeExecutionData[]) => out.map((i) => (i.pairedItem as { item: number }).item);
const itemIndexOf = (error: unknown) => (error as { context?: { itemIndex?: number } } | undefined)?.context?.itemIndex;

/** Customer › Update of `$json.id` to `name`, 8 items at a time. */
const updateCustomers = (name: string) => ({
	resource: 'customer',
	operation: 'update',
	customerId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	updateFields: { name },
	requestOptions: { maxConcurrency: 8 },
});
/** Whole numbers from `from` to `to`. */
const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

/** Vouchers of the primary business that can be redeemed. */
const available = (): JsonObject[] => listed(sim(), 'vouchers').filter((v) => v.status === 'available');
const voucher = (id: unknown) => sim().state.col('vouchers').find((v) => v.id === id);

describe('a stop is a stop', () => {
	it('case 6: Redeem v0 and v1 (Max Concurrent Requests 2): v1 waits out a 429, v0 fails with 422 and stops the run; v1 is not sent again', async () => {
		const [v0, v1] = available().map((v) => String(v.id));
		// v1 is refused at once and told to come back in 2 s; v0 is refused 200 ms later, for good.
		sim().addFault({ kind: 'status', status: 429, retryAfter: '2', path: `/vouchers/redeem/${v1}`, times: 1 });
		sim().addFault({ kind: 'latency', latencyMs: 200, path: `/vouchers/redeem/${v0}` });
		sim().addFault({ kind: 'status', status: 422, path: `/vouchers/redeem/${v0}` });
		const { items: out, error } = await run({ resource: 'voucher', operation: 'redeem', voucherId: '={{ $json.id }}', requestOptions: { maxConcurrency: 2 } }, items([{ id: v0 }, { id: v1 }]));
		expect(out).toHaveLength(0);
		expect(itemIndexOf(error)).toBe(0);
		expect(error?.httpCode).toBe('422');
		// Every item settled before the run ended: a retry of v1 would have come by now.
		expect(sim().apiRequests.filter((r) => r.path.endsWith(`/${v1}`)).map((r) => r.status)).toEqual([429]);
		expect(voucher(v1)?.status).toBe('available');
		expect(error?.description).toContain('Item 1 was refused by the platform and not carried out. Nothing after item 0 was carried out.');
	});

	it('case 7: 100 Customer › Create, item 10 answered 400: the error names every later customer the platform created, with its ID, and the items never sent', async () => {
		const leads = Array.from({ length: 100 }, (_, n) => ({ name: `Stop ${n}`, email: `stop-${n}@mail.example` }));
		sim().addFault({ kind: 'latency', latencyMs: 60, path: '/customers', method: 'POST' });
		const refusal = JSON.stringify({ statusCode: 400, message: 'Invalid param: [email]', error: 'Bad Request' });
		sim().addFault({ kind: 'status', status: 400, path: '/customers', method: 'POST', bodyMatches: '"stop-10@', body: refusal });
		const { error } = await run({ resource: 'customer', operation: 'create', name: '={{ $json.name }}', email: '={{ $json.email }}' }, items(leads));
		expect(itemIndexOf(error)).toBe(10);
		expect(error?.message).toBe('Invalid param: [email]');
		// What the platform holds: every lead before item 10, and those after it that were in flight.
		const created = new Map<number, string>();
		for (const c of sim().state.col('customers')) {
			const n = /^stop-(\d+)@/.exec(String(c.email))?.[1];
			if (n !== undefined) created.set(Number(n), String(c.id));
		}
		expect([...created.keys()].filter((n) => n < 10).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		// The items after 10 in flight when it failed: the next ones in input order, all created; no later one was sent.
		const last = Math.max(...created.keys());
		expect(last).toBeGreaterThan(10);
		const later = span(11, last);
		expect([...created.keys()].filter((n) => n > 10).sort((a, b) => a - b)).toEqual(later);
		const sent = new Set(sim().apiRequests.map((r) => Number(/^stop-(\d+)@/.exec(String((r.body as { email?: string }).email))?.[1])));
		const notSent = span(last + 1, 99);
		expect(notSent.filter((n) => sent.has(n))).toEqual([]);
		const carried = later.length === 1 ? 'Item 11 was' : `Items 11-${last} were`;
		expect(error?.description).toContain(`${carried} carried out before the run stopped: ${later.map((n) => `item ${n} customer ${created.get(n)}`).join(', ')}.`);
		expect(error?.description).toContain(`Items ${last + 1}-99 were not sent.`);
		expect(error?.description).toContain('Run again only item 10 and the later items not listed as carried out.');
	});

	it('a later create whose answer was lost is named as maybe carried out, a later refusal as not carried out', async () => {
		const leads = Array.from({ length: 10 }, (_, n) => ({ name: `Maybe ${n}`, email: `maybe-${n}@mail.example` }));
		const post = (bodyMatches: string, rule: Record<string, unknown>) => sim().addFault({ path: '/customers', method: 'POST', bodyMatches, ...rule } as never);
		// All 8 start at once. Item 2's answer is lost (the platform created it) first, at 20 ms: no item
		// after 2 starts from then on. Items 3-7 are answered at 300 ms (3 refused with 409), item 0 at
		// 500 ms, and item 1, the lowest that fails, at 700 ms.
		post('"maybe-[013-9]@', { kind: 'latency', latencyMs: 300 });
		post('"maybe-0@', { kind: 'latency', latencyMs: 200 });
		post('"maybe-1@', { kind: 'latency', latencyMs: 400 });
		post('"maybe-1@', { kind: 'status', status: 400 });
		post('"maybe-2@', { kind: 'latency', latencyMs: 20 });
		post('"maybe-2@', { kind: 'drop', afterProcessing: true });
		post('"maybe-3@', { kind: 'status', status: 409 });
		const { error } = await run(
			{ resource: 'customer', operation: 'create', name: '={{ $json.name }}', email: '={{ $json.email }}', requestOptions: { maxConcurrency: 8 } },
			items(leads),
		);
		expect(itemIndexOf(error)).toBe(1);
		const idOf = (n: number) => String(sim().state.col('customers').find((c) => c.email === `maybe-${n}@mail.example`)?.id);
		expect(idOf(2)).not.toBe('undefined');
		expect(error?.description).toContain(`Items 4-7 were carried out before the run stopped: ${[4, 5, 6, 7].map((n) => `item ${n} customer ${idOf(n)}`).join(', ')}.`);
		expect(error?.description).toContain('Item 2 may have been carried out (the answer was lost or unreadable): check on the platform.');
		expect(error?.description).toContain('Item 3 was refused by the platform and not carried out.');
		expect(error?.description).toContain('Items 8-9 were not sent.');
		expect(error?.description).toContain('Run again only item 1 and the later items not listed as carried out, and those that may have been only once the platform shows they were not.');
		expect(error?.description).toContain("Items are numbered from 0, as n8n's Item Index.");
	});

	it('the last item failing adds nothing; Continue On Fail runs every item and says nothing of a stop', async () => {
		const ids = available().slice(2, 7).map((v) => String(v.id));
		sim().addFault({ kind: 'status', status: 422, path: `/vouchers/redeem/${ids[2]}` });
		const stopped = await run({ resource: 'voucher', operation: 'redeem', voucherId: '={{ $json.id }}' }, items(ids.slice(0, 3).map((id) => ({ id }))));
		expect(itemIndexOf(stopped.error)).toBe(2);
		expect(stopped.error?.description ?? '').not.toMatch(/carried out|not sent/);
		sim().faults.clear();
		sim().addFault({ kind: 'status', status: 422, path: `/vouchers/redeem/${ids[2]}` });
		const kept = await run({ resource: 'voucher', operation: 'redeem', voucherId: '={{ $json.id }}' }, items([ids[2], ids[3], ids[4]].map((id) => ({ id }))), { continueOnFail: true });
		expect(kept.error).toBeUndefined();
		expect(paired(kept.items)).toEqual([0, 1, 2]);
		expect(String(kept.items[0].json.description ?? '')).not.toMatch(/carried out|not sent/);
	});
});

/** For each request in arrival order: how many of `requests` were in flight when it arrived, itself included. */
function inFlightAtArrival(requests: RecordedRequest[]): number[] {
	return requests.map((r, n) => requests.slice(0, n).filter((q) => (q.answeredAt as number) > (r.receivedAt as number)).length + 1);
}

describe('same-record chains block only their own record', () => {
	it('case 8: 50 updates of one customer among 50 of others (Max Concurrent Requests 8): 8 in flight, the one customer updated in input order', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 20, path: '/customers/update/' });
		const customers = listed(sim(), 'customers').map((c) => String(c.id));
		const [one, ...rest] = customers;
		const others = rest.slice(0, 50);
		expect(others).toHaveLength(50);
		const order = others.flatMap((other) => [one, other]);
		const { items: out, error } = await run(updateCustomers('={{ $json.name }}'), items(order.map((id, n) => ({ id, name: `Chained ${n}` }))));
		expect(error).toBeUndefined();
		expect(paired(out)).toEqual(order.map((_, n) => n));
		expect(sim().maxInFlight).toBe(8);
		const mine = sim().apiRequests.filter((r) => r.path.endsWith(`/${one}`));
		expect(mine.map((r) => (r.body as { name: string }).name)).toEqual(order.flatMap((id, n) => (id === one ? [`Chained ${n}`] : [])));
		for (let k = 1; k < mine.length; k++) expect(mine[k].receivedAt as number).toBeGreaterThanOrEqual(mine[k - 1].answeredAt as number);
		expect(sim().state.col('customers').find((c) => c.id === one)?.name).toBe(`Chained ${order.length - 2}`);
	});

	it('case 8: Customer › Create is chained by its e-mail (without case or spaces): two creates of one e-mail never reach the platform at once', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 40, path: '/customers', method: 'POST' });
		const emails = ['twice@mail.example', 'a@mail.example', ' TWICE@mail.example ', 'b@mail.example', 'c@mail.example', 'Twice@Mail.example'];
		const { items: out, error } = await run(
			{ resource: 'customer', operation: 'create', name: 'Chained', email: '={{ $json.email }}', requestOptions: { maxConcurrency: 8 } },
			items(emails.map((email) => ({ email }))),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(paired(out)).toEqual([0, 1, 2, 3, 4, 5]);
		const twice = sim().apiRequests.filter((r) => /^twice@mail\.example$/i.test(String((r.body as { email?: string }).email)));
		expect(twice).toHaveLength(3);
		for (let k = 1; k < twice.length; k++) expect(twice[k].receivedAt as number).toBeGreaterThanOrEqual(twice[k - 1].answeredAt as number);
		// The first one creates the customer; the platform refuses the others (409): one customer, never two.
		expect(out.map((i) => (i.json.error === undefined ? 'ok' : 'error'))).toEqual(['ok', 'ok', 'error', 'ok', 'ok', 'error']);
		expect(Math.max(...inFlightAtArrival(sim().apiRequests))).toBeGreaterThan(2);
	});

	it('an item whose record cannot be read still runs alone: every earlier item answered before it, no later one sent before it settled', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 30, path: '/customers/update/' });
		const ids = listed(sim(), 'customers').slice(0, 10).map((c) => String(c.id));
		ids[5] = '';
		const { items: out, error } = await run(updateCustomers('Alone'), items(ids.map((id) => ({ id }))), { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(paired(out)).toEqual(ids.map((_, n) => n));
		expect(String(out[5].json.error)).toMatch(/^Customer is required/);
		const reqs = sim().apiRequests;
		const before = reqs.filter((r) => ids.slice(0, 5).some((id) => r.path.endsWith(`/${id}`)));
		const after = reqs.filter((r) => ids.slice(6).some((id) => r.path.endsWith(`/${id}`)));
		expect(before).toHaveLength(5);
		expect(after).toHaveLength(4);
		expect(Math.min(...after.map((r) => r.receivedAt as number))).toBeGreaterThanOrEqual(Math.max(...before.map((r) => r.answeredAt as number)));
		expect(Math.max(...inFlightAtArrival(before))).toBeGreaterThan(1);
	});
});

describe('docs/pagination.md says what the code chains', () => {
	it('the creates chained by a natural key are Customer › Create by its e-mail; the other creates run freely, as the page says', () => {
		const creates = resources.flatMap((r) => r.operations.filter((o) => /^create/.test(o.value)).map((o) => ({ op: `${r.name} › ${o.name}`, key: o.recordKey })));
		expect(creates.filter((c) => c.key !== NO_RECORD)).toEqual([{ op: 'Customer › Create', key: 'email' }]);
		const page = readFileSync(path.join(__dirname, '../../docs/pagination.md'), 'utf8').replace(/\s+/g, ' ');
		expect(page).toContain('two *Customer › Create* items with one e-mail never reach the platform at once');
		expect(page).toContain('The other creates (Order › Create Charge, Payment Link, Pixel and Webhook › Create) name no record and run freely.');
		expect(creates.filter((c) => c.key === NO_RECORD).map((c) => c.op).sort()).toEqual(['Order › Create Charge', 'Payment Link › Create', 'Pixel › Create', 'Webhook › Create']);
		expect(page).not.toMatch(/with the same e-mail may reach the platform at once/);
	});
});
