/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Webhook resource of the action node: every operation executed by n8n-core against the
 * simulator, asserting the exact request (method, path, KEYS only, query, body) and the items.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEFAULT_PAGE_SIZE } from '../../nodes/SalesPayments/paging/pages';
import { runNode } from '../support/harness/n8n-core';
import { expectAuth, runListSearch } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator();

/** Calls the simulator's API directly (setup only; the node is what is tested). */
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: IDataObject }> {
	const res = await fetch(`${sim().url}${path}`, {
		method,
		headers: {
			'content-type': 'application/json',
			'x-api-key': sim().credentials.apiKey,
			'x-api-secret': sim().credentials.apiSecret,
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, json: (await res.json()) as IDataObject };
}

async function createWebhook(fields: Partial<IDataObject> = {}): Promise<IDataObject> {
	const { status, json } = await api('POST', '/webhooks', {
		externalAccountId: sim().credentials.businessId,
		dispatchers: [{ type: 'http', method: 'POST', url: 'http://127.0.0.1:9/hook', headers: {} }],
		events: ['order.paid'],
		name: 'setup hook',
		...fields,
	});
	expect(status).toBe(201);
	return json.data as IDataObject;
}

function webhookParams(operation: string, id: string, extra: INodeParameters = {}): INodeParameters {
	return { resource: 'webhook', operation, webhookId: { __rl: true, mode: 'id', value: id }, ...extra };
}

const allWebhooks = () => sim().state.col('webhooks');

beforeEach(() => {
	sim().clearRequests();
	allWebhooks().length = 0;
	sim().state.col('webhookQueue').length = 0;
});

/** A dispatcher endpoint that answers with `status` (changeable) and records what it got. */
async function endpoint(): Promise<{ url: string; status: number; got: Array<{ headers: http.IncomingHttpHeaders; body: unknown }>; close(): Promise<void> }> {
	const state = {
		url: '',
		status: 200,
		got: [] as Array<{ headers: http.IncomingHttpHeaders; body: unknown }>,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((r) => server.close(() => r()));
		},
	};
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			state.got.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') });
			res.writeHead(state.status).end();
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sales-hook`;
	return state;
}

describe('Webhook: Create', () => {
	it('POSTs /webhooks with KEYS only, the credential business as externalAccountId, dispatchers with headers, events, name and notifyOnFail', async () => {
		const { items, error } = await runNode(
			{
				parameters: {
					resource: 'webhook',
					operation: 'create',
					name: 'Paid orders to ERP',
					events: ['order.paid', 'order.refunded'],
					dispatchers: {
						http: [
							{
								url: 'https://erp.example/hooks/sales',
								method: 'POST',
								headers: { header: [{ name: 'x-erp-token', value: 'tok-123' }] },
							},
							{ url: 'http://backup.example/in', method: 'PUT' },
						],
					},
					additionalFields: { notifyOnFailEmail: 'ops@acme.example', notifyOnFailName: 'Ops Team' },
				},
			},
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect(sim().apiRequests).toHaveLength(1);
		expect(req.method).toBe('POST');
		expect(req.path).toBe('/webhooks');
		expectAuth(sim(), req, 'keys');
		expect(req.query).toEqual({});
		expect(req.body).toEqual({
			externalAccountId: sim().credentials.businessId,
			dispatchers: [
				{ type: 'http', method: 'POST', url: 'https://erp.example/hooks/sales', headers: { 'x-erp-token': 'tok-123' } },
				{ type: 'http', method: 'PUT', url: 'http://backup.example/in', headers: {} },
			],
			events: ['order.paid', 'order.refunded'],
			name: 'Paid orders to ERP',
			notifyOnFail: { email: 'ops@acme.example', name: 'Ops Team' },
		});
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({ ...allWebhooks()[0] });
		expect(items[0].json).toMatchObject({ status: 'active', name: 'Paid orders to ERP', account: sim().credentials.businessId });
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('uses the Business ID of Additional Fields instead of the credential one, and omits notifyOnFail when not set', async () => {
		const other = sim().state.accounts[0].businessIds[3];
		const { error, items } = await runNode(
			{
				parameters: {
					resource: 'webhook',
					operation: 'create',
					name: 'Second business',
					events: ['subscription.created'],
					dispatchers: { http: [{ url: 'https://x.example/h', method: 'POST' }] },
					additionalFields: { businessId: other },
				},
			},
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		expect(sim().apiRequests[0].body).toEqual({
			externalAccountId: other,
			dispatchers: [{ type: 'http', method: 'POST', url: 'https://x.example/h', headers: {} }],
			events: ['subscription.created'],
			name: 'Second business',
		});
		expect(items[0].json.account).toBe(other);
	});

	it.each([
		// Empty required fields are caught by n8n's own parameter check; expressions reach the node.
		[{ name: '={{ "" }}' }, 'Name is required'],
		[{ events: '={{ [] }}' }, 'Events: choose at least one event'],
		[{ events: ['order.shipped'] }, 'Events must be one of'],
		[{ dispatchers: {} }, 'Dispatchers: add at least one HTTP dispatcher'],
		[{ dispatchers: { http: [{ url: 'ftp://x.example', method: 'POST' }] } }, 'Dispatchers (HTTP Dispatcher 1): URL must start with http:// or https://'],
		[
			{ dispatchers: { http: [{ url: 'https://x.example', method: 'POST', headers: { header: [{ name: 'bad header', value: 'v' }] } }] } },
			'"bad header" is not a valid header name',
		],
		[{ additionalFields: { notifyOnFailEmail: 'not-an-email' } }, 'Notify on Fail Email must be a valid email address'],
	])('refuses bad input %j before any request', async (override, message) => {
		const { error } = await runNode(
			{
				parameters: {
					resource: 'webhook',
					operation: 'create',
					name: 'n',
					events: ['order.paid'],
					dispatchers: { http: [{ url: 'https://x.example/h', method: 'POST' }] },
					...override,
				} as INodeParameters,
			},
			{ credentials: dataCredentials(sim()) },
		);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain(message);
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('reports the platform refusal of a business the key does not own (403)', async () => {
		const { error } = await runNode(
			{
				parameters: {
					resource: 'webhook',
					operation: 'create',
					name: 'n',
					events: ['order.paid'],
					dispatchers: { http: [{ url: 'https://x.example/h', method: 'POST' }] },
					additionalFields: { businessId: sim().state.accounts[1].businessIds[0] },
				},
			},
			{ credentials: dataCredentials(sim()) },
		);
		expect(error?.message).toBe('Forbidden resource');
		expect(error?.httpCode).toBe('403');
		expect(allWebhooks()).toHaveLength(0);
	});
});

describe('Webhook: Get Many', () => {
	it('Return All walks every page of GET /webhooks/list/{businessId} (KEYS only)', async () => {
		for (let n = 1; n <= 5; n++) await createWebhook({ name: `hook ${n}` });
		sim().clearRequests();
		const { items, error } = await runNode(
			{ parameters: { resource: 'webhook', operation: 'getMany', returnAll: true, pagination: { pageSize: 2 } } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.name)).toEqual(['hook 1', 'hook 2', 'hook 3', 'hook 4', 'hook 5']);
		const reqs = sim().apiRequests;
		expect(reqs.map((r) => r.query)).toEqual([
			{ page: '1', limit: '2' },
			{ page: '2', limit: '2' },
			{ page: '3', limit: '2' },
		]);
		for (const r of reqs) {
			expect(r.method).toBe('GET');
			expect(r.path).toBe(`/webhooks/list/${sim().credentials.businessId}`);
			expectAuth(sim(), r, 'keys');
		}
	});

	it('Limit stops early', async () => {
		for (let n = 1; n <= 4; n++) await createWebhook({ name: `hook ${n}` });
		sim().clearRequests();
		const { items } = await runNode(
			{ parameters: { resource: 'webhook', operation: 'getMany', limit: 3 } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(items.map((i) => i.json.name)).toEqual(['hook 1', 'hook 2', 'hook 3']);
		expect(sim().apiRequests.map((r) => r.query)).toEqual([{ page: '1', limit: '3' }]);
	});

	it('sends status, dates and several events as repeated `events` keys, and the server filters by them', async () => {
		const paid = await createWebhook({ name: 'paid', events: ['order.paid'] });
		const subs = await createWebhook({ name: 'subs', events: ['subscription.created', 'subscription.updated'] });
		await createWebhook({ name: 'refunds', events: ['order.refunded'] });
		const inactive = await createWebhook({ name: 'inactive paid', events: ['order.paid'] });
		await api('PATCH', `/webhooks/deactivate/${String(inactive.id)}`);
		sim().clearRequests();
		const { items, error } = await runNode(
			{
				parameters: {
					resource: 'webhook',
					operation: 'getMany',
					returnAll: true,
					filters: {
						status: 'active',
						events: ['order.paid', 'subscription.created'],
						initialDate: '2020-01-01T00:00:00',
						endDate: '2100-01-01T00:00:00.000Z',
					},
				},
			},
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.id)).toEqual([paid.id, subs.id]);
		const [req] = sim().apiRequests;
		expect(req.path).toBe(`/webhooks/list/${sim().credentials.businessId}`);
		expect(req.query).toEqual({
			events: ['order.paid', 'subscription.created'],
			status: 'active',
			initialDate: '2020-01-01T00:00:00.000Z',
			endDate: '2100-01-01T00:00:00.000Z',
			page: '1',
			limit: String(DEFAULT_PAGE_SIZE),
		});
		expectAuth(sim(), req, 'keys');
	});

	it('a single event filter is one `events` key; Business ID in Filters changes the path', async () => {
		const other = sim().state.accounts[0].businessIds[2];
		const hook = await createWebhook({ externalAccountId: other, name: 'other biz', events: ['order.canceled'] });
		sim().clearRequests();
		const { items, error } = await runNode(
			{
				parameters: {
					resource: 'webhook',
					operation: 'getMany',
					limit: 10,
					filters: { businessId: other, events: ['order.canceled'], status: 'active' },
				},
			},
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.id)).toEqual([hook.id]);
		expect(sim().apiRequests[0].path).toBe(`/webhooks/list/${other}`);
		expect(sim().apiRequests[0].query).toEqual({ events: 'order.canceled', status: 'active', page: '1', limit: '10' });
	});

	it('refuses a bad date before any request', async () => {
		const { error } = await runNode(
			{ parameters: { resource: 'webhook', operation: 'getMany', filters: { initialDate: 'yesterday-ish' } } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(error?.message).toContain('Created After must be a date');
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Webhook: single-webhook operations', () => {
	it('Get reads GET /webhooks/details/{id}, from an ID or from the list', async () => {
		const hook = await createWebhook({ name: 'details me' });
		sim().clearRequests();
		for (const mode of ['id', 'list']) {
			const { items, error } = await runNode(
				{ parameters: { resource: 'webhook', operation: 'get', webhookId: { __rl: true, mode, value: String(hook.id) } } },
				{ credentials: dataCredentials(sim()) },
			);
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toEqual([hook]);
		}
		for (const req of sim().apiRequests) {
			expect(req.method).toBe('GET');
			expect(req.path).toBe(`/webhooks/details/${String(hook.id)}`);
			expect(req.query).toEqual({});
			expect(req.body).toBeUndefined();
			expectAuth(sim(), req, 'keys');
		}
		expect(sim().apiRequests).toHaveLength(2);
	});

	it('Get of an unknown webhook reports the platform 404; an empty or malformed ID is refused first', async () => {
		const { error } = await runNode(
			{ parameters: webhookParams('get', '00000000-0000-4000-8000-000000000000') },
			{ credentials: dataCredentials(sim()) },
		);
		expect(error?.message).toBe('Webhook not found');
		expect(error?.httpCode).toBe('404');
		sim().clearRequests();
		for (const value of ['={{ "" }}', '={{ "a/b" }}']) {
			const bad = await runNode({ parameters: webhookParams('get', value) }, { credentials: dataCredentials(sim()) });
			expect(bad.error?.name).toBe('NodeOperationError');
			expect(bad.error?.message).toMatch(/^Webhook (is required|"a\/b" is not a valid ID \(letters, digits, "-" and "_" only, at most 128\))$/);
		}
		// Typed By ID: the same named error (no locator regex, which would fail the workflow generically).
		const typed = await runNode({ parameters: webhookParams('get', 'a/b') }, { credentials: dataCredentials(sim()) });
		expect(typed.error?.message).toBe('Webhook "a/b" is not a valid ID (letters, digits, "-" and "_" only, at most 128)');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('Deactivate and Activate PATCH their paths (no body) and return the webhook in its new status', async () => {
		const hook = await createWebhook();
		sim().clearRequests();
		const off = await runNode({ parameters: webhookParams('deactivate', String(hook.id)) }, { credentials: dataCredentials(sim()) });
		expect(off.error).toBeUndefined();
		expect(off.items[0].json).toMatchObject({ id: hook.id, status: 'inactive' });
		expect(allWebhooks()[0].status).toBe('inactive');
		const on = await runNode({ parameters: webhookParams('activate', String(hook.id)) }, { credentials: dataCredentials(sim()) });
		expect(on.items[0].json).toMatchObject({ id: hook.id, status: 'active' });
		expect(allWebhooks()[0].status).toBe('active');
		const reqs = sim().apiRequests;
		expect(reqs.map((r) => `${r.method} ${r.path}`)).toEqual([
			`PATCH /webhooks/deactivate/${String(hook.id)}`,
			`PATCH /webhooks/activate/${String(hook.id)}`,
		]);
		for (const r of reqs) {
			expectAuth(sim(), r, 'keys');
			expect(r.body).toBeUndefined();
			expect(r.query).toEqual({});
		}
	});

	it('Update PATCHes /webhooks/{id} with only the fields set (events, name, notifyOnFail, dispatchers, extra JSON)', async () => {
		const hook = await createWebhook();
		sim().clearRequests();
		const { items, error } = await runNode(
			{
				parameters: webhookParams('update', String(hook.id), {
					updateFields: {
						events: ['order.paid', 'order.chargeback'],
						name: 'Renamed',
						notifyOnFailEmail: 'alerts@acme.example',
						extraFields: '{"futureFlag": true}',
					},
					dispatchers: { http: [{ url: 'https://new.example/in', method: 'PATCH', headers: { header: [{ name: 'x-k', value: '1' }] } }] },
				}),
			},
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect(req.method).toBe('PATCH');
		expect(req.path).toBe(`/webhooks/${String(hook.id)}`);
		expectAuth(sim(), req, 'keys');
		expect(req.body).toEqual({
			futureFlag: true,
			events: ['order.paid', 'order.chargeback'],
			name: 'Renamed',
			notifyOnFail: { email: 'alerts@acme.example' },
			dispatchers: [{ type: 'http', method: 'PATCH', url: 'https://new.example/in', headers: { 'x-k': '1' } }],
		});
		expect(items[0].json).toMatchObject({
			id: hook.id,
			name: 'Renamed',
			events: ['order.paid', 'order.chargeback'],
			dispatchers: [{ type: 'http', method: 'PATCH', url: 'https://new.example/in', headers: { 'x-k': '1' } }],
		});
	});

	it('Update with nothing to change, or bad JSON, is refused before any request', async () => {
		const hook = await createWebhook();
		sim().clearRequests();
		const empty = await runNode({ parameters: webhookParams('update', String(hook.id)) }, { credentials: dataCredentials(sim()) });
		expect(empty.error?.message).toContain('Update Fields: set at least one field');
		const badJson = await runNode(
			{ parameters: webhookParams('update', String(hook.id), { updateFields: { extraFields: '{oops' } }) },
			{ credentials: dataCredentials(sim()) },
		);
		expect(badJson.error?.message).toContain('Extra Fields (JSON) is not valid JSON');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('Delete sends DELETE /webhooks/delete/{id} and the webhook is gone', async () => {
		const hook = await createWebhook();
		const keep = await createWebhook({ name: 'keep' });
		sim().clearRequests();
		const { items, error } = await runNode({ parameters: webhookParams('delete', String(hook.id)) }, { credentials: dataCredentials(sim()) });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: hook.id, deleted: true });
		const [req] = sim().apiRequests;
		expect(`${req.method} ${req.path}`).toBe(`DELETE /webhooks/delete/${String(hook.id)}`);
		expectAuth(sim(), req, 'keys');
		expect(req.body).toBeUndefined();
		expect(allWebhooks().map((w) => w.id)).toEqual([keep.id]);
	});

	it('Get Queue, Resume Queue and Flush Queue act on the queue of failed notifications', async () => {
		const target = await endpoint();
		try {
			target.status = 503;
			const hook = await createWebhook({
				events: ['order.paid'],
				dispatchers: [{ type: 'http', method: 'POST', url: target.url, headers: { 'x-shared': 's3cret' } }],
			});
			const id = String(hook.id);
			const order = (await (await fetch(`${sim().url}/__sim/orders`, { method: 'POST' })).json()) as { order: JsonObject };
			await sim().settle();
			expect(target.got).toHaveLength(1);
			expect(target.got[0].headers['x-shared']).toBe('s3cret');
			expect(target.got[0].body).toMatchObject({ event: 'order.paid', data: { id: order.order.id, status: 'paid' } });
			sim().clearRequests();

			const queued = await runNode({ parameters: webhookParams('getQueue', id) }, { credentials: dataCredentials(sim()) });
			expect(queued.error).toBeUndefined();
			expect(queued.items[0].json).toMatchObject({ id: hook.queue, messagesAvailable: 1 });
			expect(Object.keys(queued.items[0].json).sort()).toEqual(['createdAt', 'id', 'messagesAvailable', 'name', 'status', 'updatedAt']);

			// Still failing: the notification stays queued.
			const again = await runNode({ parameters: webhookParams('resume', id) }, { credentials: dataCredentials(sim()) });
			expect(again.items[0].json).toEqual({ id, resumed: 1 });
			await sim().settle();
			expect(target.got).toHaveLength(2);
			expect(sim().state.col('webhookQueue')).toHaveLength(1);

			target.status = 200;
			const resumed = await runNode({ parameters: webhookParams('resume', id) }, { credentials: dataCredentials(sim()) });
			expect(resumed.items[0].json).toEqual({ id, resumed: 1 });
			await sim().settle();
			expect(target.got).toHaveLength(3);
			expect(target.got[2].body).toEqual(target.got[0].body);
			const empty = await runNode({ parameters: webhookParams('getQueue', id) }, { credentials: dataCredentials(sim()) });
			expect(empty.items[0].json.messagesAvailable).toBe(0);

			// A new failure, then Flush: discarded without delivery.
			target.status = 500;
			await fetch(`${sim().url}/__sim/orders/${String(order.order.id)}/pay`, { method: 'POST' });
			await sim().settle();
			expect(sim().state.col('webhookQueue')).toHaveLength(1);
			const flushed = await runNode({ parameters: webhookParams('flush', id) }, { credentials: dataCredentials(sim()) });
			expect(flushed.items[0].json).toEqual({ id, flushed: 1, messagesAvailable: 0 });
			await sim().settle();
			expect(target.got).toHaveLength(4);
			expect(sim().state.col('webhookQueue')).toHaveLength(0);

			const paths = sim().apiRequests.map((r) => `${r.method} ${r.path}`);
			expect(paths).toEqual([
				`GET /webhooks/dynamic-queues/${id}`,
				`PATCH /webhooks/resume/${id}`,
				`PATCH /webhooks/resume/${id}`,
				`GET /webhooks/dynamic-queues/${id}`,
				`PATCH /webhooks/flush/${id}`,
			]);
			for (const r of sim().apiRequests) {
				expectAuth(sim(), r, 'keys');
				expect(r.body).toBeUndefined();
				expect(r.query).toEqual({});
			}
		} finally {
			await target.close();
		}
	});
});

describe('Webhook: From list', () => {
	it('searchWebhooks lists the credential business webhooks by name, status and events, filtered by text', async () => {
		const a = await createWebhook({ name: 'Paid to ERP', events: ['order.paid'] });
		const b = await createWebhook({ name: 'Subscriptions', events: ['subscription.created'] });
		await createWebhook({ name: 'Elsewhere', externalAccountId: sim().state.accounts[0].businessIds[1] });
		sim().clearRequests();
		const all = await runListSearch(sim(), 'searchWebhooks');
		expect(all.results).toEqual([
			{ name: 'Paid to ERP (active) [order.paid]', value: a.id, url: undefined },
			{ name: 'Subscriptions (active) [subscription.created]', value: b.id, url: undefined },
		]);
		const [req] = sim().apiRequests;
		expect(req.path).toBe(`/webhooks/list/${sim().credentials.businessId}`);
		expectAuth(sim(), req, 'keys');
		const some = await runListSearch(sim(), 'searchWebhooks', 'erp');
		expect(some.results.map((r) => r.value)).toEqual([a.id]);
	});
});
