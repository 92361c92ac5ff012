/**
 * Input items side by side (issue 45), through real executions by n8n-core against the simulator:
 * operations that send one request per item overlap them under the credential's window, and the
 * output is what one item after another gives: input order, pairedItem, Continue On Fail's error
 * items at their index, the first failing item's error without it. A write is never sent twice;
 * items that name the same record run one after another in input order; an operation that cannot
 * tell its record (Identity) runs one item at a time. In flight is counted from the simulator's
 * record: the requests received and not yet answered when each one arrives.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { readBinary } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { csvRecords } from '../support/helpers/csv';
import { jsonOf, listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { windowStore } from '../support/helpers/windows';
import type { JsonObject, RecordedRequest } from '../support/simulator/core';
import { orderView } from '../support/simulator/routes/orders';
import { OTHER_KEY, OTHER_SECRET } from '../support/simulator/server';

const sim = useSimulator({ seed: 45 });
/** A 1 x 1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
	sim().resetInFlight();
});

async function run(parameters: Record<string, unknown>, input: INodeExecutionData[], options: { continueOnFail?: boolean; errorOutput?: boolean } = {}) {
	return await runNode({ parameters: parameters as never, ...options }, { credentials: dataCredentials(sim()), input });
}

const items = (values: Array<Record<string, unknown>>): INodeExecutionData[] => values.map((json) => ({ json: json as never }));
const orders = (): JsonObject[] => sim().state.col('orders').filter((o) => o.businessId === sim().credentials.businessId);
const paired = (out: INodeExecutionData[]) => out.map((i) => (i.pairedItem as { item: number }).item);

/** For each request in arrival order: how many of `requests` were in flight when it arrived, itself included. */
function inFlightAtArrival(requests: RecordedRequest[]): number[] {
	return requests.map((r, n) => requests.slice(0, n).filter((q) => (q.answeredAt as number) > (r.receivedAt as number)).length + 1);
}

describe('one request per item, side by side', () => {
	it('Order › Get for 24 items: overlapping requests, outputs in input order, each paired with its item, each order asked once', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 150, path: '/orders/' });
		const ids = Array.from({ length: 24 }, (_, n) => String(orders()[n % orders().length].id));
		const { items: out, error } = await run({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}', simplify: false }, items(ids.map((id) => ({ id }))));
		expect(error).toBeUndefined();
		expect(jsonOf(out)).toEqual(ids.map((id) => orderView(orders().find((o) => o.id === id)!)));
		expect(paired(out)).toEqual(ids.map((_, n) => n));
		const reqs = sim().apiRequests;
		expect(reqs.map((r) => r.path).sort()).toEqual(ids.map((id) => `/orders/${id}`).sort());
		// The same order twice is the same record: those never overlap; the others do.
		expect(Math.max(...inFlightAtArrival(reqs))).toBeGreaterThan(2);
	});

	it('Max Concurrent Requests 1 (Request Options) sends one item after another, in input order', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 20, path: '/orders/' });
		const ids = orders().slice(0, 6).map((o) => String(o.id));
		const { error } = await run({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}', requestOptions: { maxConcurrency: 1 } }, items(ids.map((id) => ({ id }))));
		expect(error).toBeUndefined();
		expect(sim().maxInFlight).toBe(1);
		expect(sim().apiRequests.map((r) => r.path)).toEqual(ids.map((id) => `/orders/${id}`));
	});

	it.each([17, 2.5, -1])('Max Concurrent Requests %p in Request Options is refused, naming the field, before any request', async (maxConcurrency) => {
		const { error } = await run({ resource: 'order', operation: 'get', orderId: 'x', requestOptions: { maxConcurrency } }, items([{}]));
		expect(error?.message).toBe(`Max Concurrent Requests must be a whole number from 0 (auto) to 16 (got ${maxConcurrency})`);
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('failures', () => {
	const ids = () => orders().slice(0, 8).map((o) => String(o.id));
	const withUnknown = () => ids().map((id, n) => ({ id: n === 2 || n === 5 ? `missing-${n}` : id }));

	it('Continue On Fail: an error item at the index of each failed item, the others in order', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 50, path: '/orders/' });
		const { items: out, error } = await run({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }, items(withUnknown()), { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(paired(out)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
		expect(out.map((i) => (i.json.error === undefined ? i.json.id : 'error'))).toEqual(withUnknown().map((x, n) => (n === 2 || n === 5 ? 'error' : x.id)));
		expect(String(out[2].json.error)).toMatch(/not found/i);
	});

	it('Continue (using error output): the failed items on the error output, each paired with its item', async () => {
		const { outputs, error } = await run({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }, items(withUnknown()), { errorOutput: true });
		expect(error).toBeUndefined();
		const [good, failed] = outputs['Sales & Payments'];
		expect(paired(good)).toEqual([0, 1, 3, 4, 6, 7]);
		expect(paired(failed)).toEqual([2, 5]);
	});

	it('without it, the first failing item by input index stops the run, though a later one failed first', async () => {
		// Item 5 fails at once, item 2 only after 300 ms: the error thrown is item 2's.
		sim().addFault({ kind: 'latency', latencyMs: 300, path: '/orders/missing-2' });
		const { items: out, error } = await run({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }, items(withUnknown()));
		expect(out).toHaveLength(0);
		expect(error?.message).toMatch(/not found/i);
		expect((error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(2);
	});

	it('without it, no item starts once an item failed: the later items already sent are the ones in flight then', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 100, path: '/orders/' });
		const all = Array.from({ length: 40 }, (_, n) => ({ id: n === 3 ? 'missing-3' : String(orders()[n % 8].id) }));
		const { error } = await run({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}', requestOptions: { maxConcurrency: 4 } }, items(all));
		expect((error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(3);
		// Items 0-7 name different orders, later ones repeat them: only the items up to the failure and
		// those started before it was known (at most 4 at a time) were sent, each once.
		const paths = sim().apiRequests.map((r) => r.path);
		expect(paths.length).toBeGreaterThanOrEqual(4);
		expect(paths.length).toBeLessThanOrEqual(3 + 1 + 4);
		expect(new Set(paths).size).toBe(paths.length);
		expect(sim().maxInFlight).toBeLessThanOrEqual(4);
	});
});

describe('writes', () => {
	it('Customer › Create: a write whose answer was lost is never sent again, and the other items go on', async () => {
		// The platform processes the 3rd and 7th creates, then drops their connections.
		sim().addFault({ kind: 'drop', afterProcessing: true, path: '/customers', method: 'POST', nth: [3, 7] });
		sim().addFault({ kind: 'latency', latencyMs: 40, path: '/customers', method: 'POST' });
		const leads = Array.from({ length: 12 }, (_, n) => ({ name: `Lead ${n}`, email: `side-by-side-${n}@mail.example` }));
		const { items: out, error } = await run({ resource: 'customer', operation: 'create', name: '={{ $json.name }}', email: '={{ $json.email }}' }, items(leads), {
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(paired(out)).toEqual(leads.map((_, n) => n));
		const posts = sim().apiRequests.filter((r) => r.method === 'POST');
		// One request per lead: none repeated, whatever happened to its answer.
		expect(posts.map((r) => (r.body as { email: string }).email).sort()).toEqual(leads.map((l) => l.email).sort());
		expect(out.filter((i) => i.json.error !== undefined)).toHaveLength(2);
		expect(Math.max(...inFlightAtArrival(posts))).toBeGreaterThan(1);
	});

	it('items that name the same record run one after another in input order; different records overlap', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 60, path: '/customers/update/' });
		const [a, b, c] = listed(sim(), 'customers').slice(0, 3).map((x) => String(x.id));
		const order = [a, b, a, c, a, b, a, c];
		const nameOf = (n: number) => `Renamed ${n}`;
		const { items: out, error } = await run(
			{ resource: 'customer', operation: 'update', customerId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, updateFields: { name: '={{ $json.name }}' } },
			items(order.map((id, n) => ({ id, name: nameOf(n) }))),
		);
		expect(error).toBeUndefined();
		expect(paired(out)).toEqual(order.map((_, n) => n));
		const reqs = sim().apiRequests;
		for (const id of [a, b, c]) {
			const mine = reqs.filter((r) => r.path.endsWith(`/${id}`));
			// In input order, each after the previous one was answered.
			const names = order.flatMap((x, n) => (x === id ? [nameOf(n)] : []));
			expect(mine.map((r) => (r.body as { name: string }).name)).toEqual(names);
			for (let k = 1; k < mine.length; k++) expect(mine[k].receivedAt as number).toBeGreaterThanOrEqual(mine[k - 1].answeredAt as number);
			// The last update of each customer is the one it keeps.
			expect(sim().state.col('customers').find((x) => x.id === id)?.name).toBe(names.at(-1));
		}
		expect(Math.max(...inFlightAtArrival(reqs))).toBeGreaterThan(1);
	});
});

describe('operations that keep working side by side', () => {
	it('Get Many with three input items: each list whole, in item order, paired with its item', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 30, path: '/movement/filter' });
		const { items: out, error } = await run({ resource: 'movement', operation: 'getMany', returnAll: true, pagination: { pageSize: 10 } }, items([{}, {}, {}]));
		expect(error).toBeUndefined();
		const all = listed(sim(), 'movements');
		expect(jsonOf(out)).toEqual([...all, ...all, ...all]);
		expect(paired(out)).toEqual([...all.map(() => 0), ...all.map(() => 1), ...all.map(() => 2)]);
	});

	it('Get Many to a CSV file for two input items: one file each, every record once', async () => {
		const { items: out, error } = await run({ resource: 'movement', operation: 'getMany', returnAll: true, output: 'csvFile', pagination: { pageSize: 25 } }, items([{}, {}]));
		expect(error).toBeUndefined();
		expect(paired(out)).toEqual([0, 1]);
		const ids = listed(sim(), 'movements').map((m) => m.id);
		for (const file of out) expect(csvRecords((await readBinary(file.binary!.data)).toString('utf8')).records.map((r) => r.id)).toEqual(ids);
	});

	it('Payment Link › Upload Image for three items: each link gets its own file', async () => {
		const links = listed(sim(), 'paymentLinks').filter((l) => l.salesCount === 0).slice(0, 3);
		const input = links.map((link, n) => ({ json: { id: link.id }, binary: { data: { data: PNG.toString('base64'), mimeType: 'image/png', fileName: `cover-${n}.png` } } }));
		const { items: out, error } = await run({ resource: 'paymentLink', operation: 'uploadImage', paymentLinkId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } }, input as never);
		expect(error).toBeUndefined();
		expect(paired(out)).toEqual([0, 1, 2]);
		for (const [n, link] of links.entries()) {
			const req = sim().apiRequests.find((r) => r.path.endsWith(`/${String(link.id)}`))!;
			expect(req.files[0].filename).toBe(`cover-${n}.png`);
			expect(req.files[0].data.equals(PNG)).toBe(true);
		}
	});
});

describe('one window per platform and credential in the process', () => {
	it('two runs at once on one credential share it: together never more in flight than one window allows', async () => {
		sim().addFault({ kind: 'latency', latencyMs: 300, path: '/orders/' });
		const ids = Array.from({ length: 60 }, (_, n) => ({ id: String(orders()[n % 10].id) }));
		const unique = ids.slice(0, 10);
		// Ten different orders per run: each run alone reaches 10 in flight; two at once could reach 20.
		const one = await run({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }, items(unique));
		expect(one.error).toBeUndefined();
		const alone = sim().maxInFlight;
		sim().resetInFlight();
		const [a, b] = await Promise.all([
			run({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }, items(unique)),
			run({ resource: 'order', operation: 'get', orderId: '={{ $json.id }}' }, items(unique)),
		]);
		expect([a.error, b.error]).toEqual([undefined, undefined]);
		expect(sim().maxInFlight).toBeLessThanOrEqual(Math.max(alone, 12));
		expect(windowStore()?.entries()).toHaveLength(1);
	});

	it('is kept under a hash of the platform and the credential, never the key in clear; another key has its own', async () => {
		await run({ resource: 'order', operation: 'get', orderId: String(orders()[0].id) }, items([{}]));
		await runNode(
			{ parameters: { resource: 'order', operation: 'get', orderId: String(orders()[0].id) } as never },
			{ credentials: dataCredentials(sim(), { apiKey: OTHER_KEY, apiSecret: OTHER_SECRET }), input: items([{}]) },
		);
		const keys = (windowStore()?.entries() ?? []).map(([key]) => String(key));
		expect(keys).toHaveLength(2);
		for (const key of keys) {
			expect(key).toMatch(/^[0-9a-f]{64}$/);
			expect(key).not.toContain(sim().credentials.apiKey);
		}
	});
});
