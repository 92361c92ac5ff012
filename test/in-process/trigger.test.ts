/**
 * The trigger node's webhook lifecycle (checkExists / create / delete through n8n-core's
 * HookContext) and deliveries (simulator -> real HTTP -> local server -> WebhookContext ->
 * node.webhook()), against the simulator.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../support/harness/n8n-core';
import { TriggerHarness } from '../support/harness/trigger';
import { expectAuth } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject, RecordedRequest } from '../support/simulator/core';

const sim = useSimulator();
const SECRET_HEADER = 'x-sp-webhook-secret';
const OWNER_HEADER = 'x-sp-n8n-owner';

let harnesses: TriggerHarness[] = [];

async function trigger(parameters: INodeParameters, extra: Partial<Parameters<typeof TriggerHarness.start>[0]> = {}) {
	const h = await TriggerHarness.start({ parameters, credentials: dataCredentials(sim()), listen: true, ...extra });
	harnesses.push(h);
	return h;
}

/** Every webhook the simulator holds (all accounts), as GET /__sim/webhooks shows them. */
async function simWebhooks(): Promise<IDataObject[]> {
	return (await (await fetch(`${sim().url}/__sim/webhooks`)).json()) as IDataObject[];
}

async function simPost(path: string, body?: unknown): Promise<IDataObject> {
	const res = await fetch(`${sim().url}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	expect(res.status).toBeLessThan(300);
	return (await res.json()) as IDataObject;
}

/** An order of the credential's business, put straight into the simulator's collection. */
function newOrder(status = 'pending'): JsonObject {
	const order: JsonObject = {
		id: sim().state.id(),
		businessId: sim().credentials.businessId,
		status,
		date: sim().state.clock.iso(),
		paidAt: null,
		orderBuyer: { name: 'Carla Dias', email: 'carla@mail.example' },
		items: [{ name: 'Course', quantity: 1, priceInCents: 4990 }],
		payments: [{ method: 'pix', numberInstallments: 1, valueInCents: 4990 }],
		statusHistory: [{ status, date: sim().state.clock.iso() }],
	};
	sim().state.col('orders').push(order);
	return order;
}

function lines(reqs: RecordedRequest[]): string[] {
	return reqs.map((r) => `${r.method} ${r.path}`);
}

async function queueSize(id: string): Promise<number> {
	const res = await fetch(`${sim().url}/webhooks/dynamic-queues/${id}`, {
		headers: { 'x-api-key': sim().credentials.apiKey, 'x-api-secret': sim().credentials.apiSecret },
	});
	return Number(((await res.json()) as { data: IDataObject }).data.messagesAvailable);
}

beforeEach(() => {
	sim().clearRequests();
	sim().state.col('webhooks').length = 0;
	sim().state.col('webhookQueue').length = 0;
});

afterEach(async () => {
	await sim().settle();
	for (const h of harnesses) await h.close();
	harnesses = [];
});

describe('Trigger: activation (create / checkExists)', () => {
	it('registers exactly one webhook: our URL, a 64-hex secret header, the events, a name naming the workflow', async () => {
		const h = await trigger({ events: ['order.refunded', 'order.paid'] });
		expect(await h.activate()).toEqual({ existed: false });
		const reqs = sim().apiRequests;
		expect(lines(reqs)).toEqual([`GET /webhooks/list/${sim().credentials.businessId}`, 'POST /webhooks']);
		for (const r of reqs) expectAuth(sim(), r, 'keys');
		expect(reqs[0].query).toEqual({ page: '1', limit: '100' });
		const body = reqs[1].body as IDataObject;
		const secret = ((body.dispatchers as IDataObject[])[0].headers as IDataObject)[SECRET_HEADER] as string;
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		const mark = ((body.dispatchers as IDataObject[])[0].headers as IDataObject)[OWNER_HEADER] as string;
		// The owner mark: a digest of this n8n instance, workflow, node and mode (the instance id is not sent).
		expect(mark).toMatch(/^[0-9a-f]{32}$/);
		expect(body).toEqual({
			externalAccountId: sim().credentials.businessId,
			dispatchers: [{ type: 'http', method: 'POST', url: h.url(), headers: { [SECRET_HEADER]: secret, [OWNER_HEADER]: mark } }],
			events: ['order.paid', 'order.refunded'],
			name: 'n8n: Paid orders to CRM (wf-trigger-1)',
		});
		expect(h.url()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/webhook/${h.node.webhookId}/webhook$`));
		const all = await simWebhooks();
		expect(all).toHaveLength(1);
		expect(all[0]).toMatchObject({ status: 'active', events: ['order.paid', 'order.refunded'] });
		expect(h.nodeStaticData).toEqual({
			webhookId: all[0].id,
			webhookSecret: secret,
			webhookUrl: h.url(),
			webhookOwner: mark,
			webhookEvents: ['order.paid', 'order.refunded'],
		});
	});

	it('a second checkExists finds it (by stored id); a restart with saved static data keeps the same webhook', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const id = h.nodeStaticData.webhookId;
		sim().clearRequests();
		expect(await h.checkExists()).toBe(true);
		// checkExists only reads: the stored webhook, then the list (for strays of this node).
		expect(lines(sim().apiRequests)).toEqual([`GET /webhooks/details/${id}`, `GET /webhooks/list/${sim().credentials.businessId}`]);
		for (const r of sim().apiRequests) expectAuth(sim(), r, 'keys');
		await h.restart();
		expect(await h.activate({ activation: 'init' })).toEqual({ existed: true });
		expect(h.nodeStaticData.webhookId).toBe(id);
		expect(await simWebhooks()).toHaveLength(1);
		expect(sim().requestsTo('POST', '/webhooks')).toHaveLength(0);
	});

	it('a webhook deleted on the platform side makes checkExists false, and create registers a new one', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const first = h.nodeStaticData as { webhookId: string; webhookSecret: string };
		const { webhookId: oldId, webhookSecret: oldSecret } = { ...first };
		sim().state.col('webhooks').length = 0; // removed by someone on the platform
		sim().clearRequests();
		expect(await h.checkExists()).toBe(false);
		expect(lines(sim().apiRequests)).toEqual([`GET /webhooks/details/${oldId}`]);
		expect(sim().apiRequests[0].status).toBe(404);
		expect(await h.create()).toBe(true);
		const all = await simWebhooks();
		expect(all).toHaveLength(1);
		expect(all[0].id).not.toBe(oldId);
		expect(h.nodeStaticData.webhookId).toBe(all[0].id);
		expect(h.nodeStaticData.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
		expect(h.nodeStaticData.webhookSecret).not.toBe(oldSecret);
	});

	it('static data lost: the webhook this node made for its URL is replaced; one calling its URL that it did not make is left and named', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const orphan = String(h.nodeStaticData.webhookId);
		// Someone registered this node's URL by hand (no owner mark).
		sim().state.col('webhooks').push({
			...(sim().state.col('webhooks')[0] as JsonObject),
			id: 'by-hand-1',
			name: 'registered by hand',
			dispatchers: [{ type: 'http', method: 'POST', url: h.url(), headers: { 'x-other': 'value' } }],
		});
		// Same node (same URL), but n8n lost the static data.
		const again = await trigger({ events: ['order.paid'] }, { webhookId: h.node.webhookId, listen: false, webhookBaseUrl: h.url().replace(/\/webhook\/.*$/, '/webhook') });
		expect(again.url()).toBe(h.url());
		sim().clearRequests();
		expect(await again.activate()).toEqual({ existed: false });
		expect(lines(sim().apiRequests)).toEqual([
			`GET /webhooks/list/${sim().credentials.businessId}`,
			'POST /webhooks',
			`DELETE /webhooks/delete/${orphan}`,
		]);
		const all = await simWebhooks();
		expect(all.map((w) => w.id).sort()).toEqual([String(again.nodeStaticData.webhookId), 'by-hand-1'].sort());
		expect(again.logs).toEqual([{ level: 'warn', message: expect.stringContaining('left 1 other webhook(s) in place') }]);
		expect(again.logs[0].message).toContain('webhook by-hand-1 ("registered by hand") also calls this node\'s URL but was not made by this node');
		expect(again.logs[0].message).toContain('Webhook > Delete, ID by-hand-1');
	});

	it('checkExists only reads, and says false while this node has strays (so n8n calls create, which removes them, even after a restart); delete removes them too', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const stored = h.nodeStaticData.webhookId;
		const duplicate = (n: number) => sim().state.col('webhooks').push({ ...(sim().state.col('webhooks')[0] as JsonObject), id: `dup-${n}` });
		duplicate(0);
		duplicate(1);
		sim().clearRequests();
		await h.restart();
		expect(await h.checkExists({ activation: 'init' })).toBe(false);
		expect(lines(sim().apiRequests)).toEqual([`GET /webhooks/details/${String(stored)}`, `GET /webhooks/list/${sim().credentials.businessId}`]);
		expect(await simWebhooks()).toHaveLength(3);
		// n8n calls create when checkExists says false: the stored one is kept, the strays go.
		expect(await h.create({ activation: 'init' })).toBe(true);
		expect((await simWebhooks()).map((w) => w.id)).toEqual([stored]);
		expect(sim().requestsTo('POST', '/webhooks')).toHaveLength(0);
		expect(await h.checkExists({ activation: 'init' })).toBe(true);
		duplicate(2);
		await h.delete();
		expect(await simWebhooks()).toHaveLength(0);
		expect(h.logs).toEqual([]);
	});

	it('trusts the stored URL when the platform hides dispatchers', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		delete (sim().state.col('webhooks')[0] as JsonObject).dispatchers;
		expect(await h.activate()).toEqual({ existed: true });
		expect(await simWebhooks()).toHaveLength(1);
	});

	it('a copy of the workflow (another workflow id) holding the same static data leaves the original alone', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const original = String(h.nodeStaticData.webhookId);
		const copy = await trigger(
			{ events: ['order.paid'] },
			{ staticData: h.savedStaticData(), workflowId: 'wf-copy-2', listen: false, webhookBaseUrl: 'http://127.0.0.1:1/webhook' },
		);
		expect(await copy.activate()).toEqual({ existed: false });
		expect((await simWebhooks()).map((w) => w.id)).toEqual([original, copy.nodeStaticData.webhookId]);
		await copy.delete();
		expect((await simWebhooks()).map((w) => w.id)).toEqual([original]);
		expect(sim().requestsTo('DELETE', `/webhooks/delete/${original}`)).toHaveLength(0);
		expect(await h.checkExists()).toBe(true);
	});

	it('after WEBHOOK_URL changed, the webhook of the old address is left in place and named in the log (a stale one beats a live one deleted)', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const original = String(h.nodeStaticData.webhookId);
		const before = (await simWebhooks())[0];
		// The same workflow and node on the same n8n, after WEBHOOK_URL changed: new base URL.
		const moved = await trigger(
			{ events: ['order.paid'] },
			{ staticData: h.savedStaticData(), webhookId: h.node.webhookId, listen: false, webhookBaseUrl: 'http://127.0.0.1:2/webhook' },
		);
		sim().clearRequests();
		expect(await moved.checkExists()).toBe(false);
		expect(lines(sim().apiRequests)).toEqual([`GET /webhooks/details/${original}`]);
		sim().clearRequests();
		expect(await moved.create()).toBe(true);
		expect(lines(sim().apiRequests)).toEqual([`GET /webhooks/list/${sim().credentials.businessId}`, 'POST /webhooks']);
		const fresh = String(moved.nodeStaticData.webhookId);
		const all = await simWebhooks();
		expect(all.map((w) => w.id)).toEqual([original, fresh]);
		expect(all[0]).toEqual(before);
		expect((all[1].dispatchers as IDataObject[])[0].url).toBe(moved.url());
		expect(moved.logs).toHaveLength(1);
		const message = moved.logs[0].message;
		expect(message).toContain(
			`webhook ${original} ("n8n: Paid orders to CRM (wf-trigger-1)") was made for this workflow's trigger but calls ${h.url()}, not this node's URL ${moved.url()}`,
		);
		expect(message).toContain('If that address is gone, delete it with the Sales & Payments node (Webhook > Delete, ID');
		expect(message).not.toContain(String(h.nodeStaticData.webhookSecret));
		// Deactivation deletes the new webhook only.
		sim().clearRequests();
		await moved.delete();
		expect(lines(sim().apiRequests)).toEqual([`GET /webhooks/list/${sim().credentials.businessId}`, `DELETE /webhooks/delete/${fresh}`]);
		expect((await simWebhooks()).map((w) => w.id)).toEqual([original]);
	});

	it('a webhook this node made that also calls another URL (a dispatcher added by hand) is never changed or deleted', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const id = String(h.nodeStaticData.webhookId);
		const record = sim().state.col('webhooks')[0] as JsonObject;
		(record.dispatchers as JsonObject[]).push({ type: 'http', method: 'POST', url: 'https://erp.example/hook', headers: {} });
		const before = (await simWebhooks())[0];
		h.setParameters({ events: ['order.paid', 'order.refunded'] });
		expect(await h.activate()).toEqual({ existed: false });
		await h.delete();
		expect(await simWebhooks()).toEqual([before]);
		expect(sim().requestsTo('PATCH', `/webhooks/${id}`)).toHaveLength(0);
		expect(sim().requestsTo('DELETE', `/webhooks/delete/${id}`)).toHaveLength(0);
		expect(h.logs.map((l) => l.level)).toEqual(['warn', 'warn']);
		for (const log of h.logs) expect(log.message).toContain(`webhook ${id} ("n8n: Paid orders to CRM (wf-trigger-1)") was made for this workflow's trigger but calls https://erp.example/hook`);
	});

	it('a stored webhook whose secret header changed on the platform is replaced', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const record = sim().state.col('webhooks')[0] as JsonObject;
		((record.dispatchers as JsonObject[])[0].headers as JsonObject)[SECRET_HEADER] = 'tampered';
		const oldId = record.id;
		expect(await h.activate()).toEqual({ existed: false });
		const all = await simWebhooks();
		expect(all).toHaveLength(1);
		expect(all[0].id).not.toBe(oldId);
		expect(((all[0].dispatchers as IDataObject[])[0].headers as IDataObject)[SECRET_HEADER]).toBe(h.nodeStaticData.webhookSecret);
	});

	it('changed events update the stored webhook in place (PATCH), and an inactive one is activated', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const id = String(h.nodeStaticData.webhookId);
		(sim().state.col('webhooks')[0] as JsonObject).status = 'inactive';
		h.setParameters({ events: ['order.paid', 'subscription.created'], options: { notifyOnFailEmail: 'ops@acme.example' } });
		sim().clearRequests();
		// checkExists reads and says false; create updates our own webhook in place.
		expect(await h.activate()).toEqual({ existed: false });
		expect(lines(sim().apiRequests)).toEqual([
			`GET /webhooks/details/${id}`,
			`GET /webhooks/list/${sim().credentials.businessId}`,
			`PATCH /webhooks/${id}`,
			`PATCH /webhooks/activate/${id}`,
		]);
		expect(sim().apiRequests[2].body).toEqual({
			events: ['order.paid', 'subscription.created'],
			notifyOnFail: { email: 'ops@acme.example' },
		});
		for (const r of sim().apiRequests) expectAuth(sim(), r, 'keys');
		const [hook] = await simWebhooks();
		expect(hook).toMatchObject({ id, status: 'active', events: ['order.paid', 'subscription.created'] });
		expect(h.nodeStaticData.webhookEvents).toEqual(['order.paid', 'subscription.created']);
	});

	it('sends notifyOnFail when set, and refuses no events or a bad email before any request', async () => {
		const h = await trigger({ events: ['order.paid'], options: { notifyOnFailEmail: 'ops@acme.example', notifyOnFailName: 'Ops' } });
		await h.activate();
		expect((sim().requestsTo('POST', '/webhooks')[0].body as IDataObject).notifyOnFail).toEqual({ email: 'ops@acme.example', name: 'Ops' });
		await h.delete();
		sim().clearRequests();
		h.setParameters({ events: [] });
		await expect(h.checkExists()).rejects.toThrow('Events: choose at least one event');
		await expect(h.create()).rejects.toThrow('Events: choose at least one event');
		h.setParameters({ events: ['order.paid'], options: { notifyOnFailEmail: 'nope' } });
		await expect(h.create()).rejects.toThrow('Notify on Fail Email must be a valid email address');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('the editor test URL gets its own webhook, never touches the production one, and leaves no duplicate', async () => {
		const prod = await trigger({ events: ['order.paid'] });
		await prod.activate();
		const base = prod.url().replace(/\/webhook\/.*$/, '/webhook');
		// n8n runs test webhooks with empty static data.
		const test1 = await trigger({ events: ['order.paid'] }, { webhookId: prod.node.webhookId, listen: false, webhookBaseUrl: base });
		await test1.activate({ isTest: true });
		let all = await simWebhooks();
		expect(all).toHaveLength(2);
		const testHook = all.find((w) => w.id === test1.testStaticData.webhookId)!;
		expect((testHook.dispatchers as IDataObject[])[0].url).toBe(prod.url(true));
		expect(testHook.name).toBe('n8n: Paid orders to CRM (wf-trigger-1) [test]');
		// A test run that ended without delete (editor closed): the next test run replaces it.
		const test2 = await trigger({ events: ['order.paid'] }, { webhookId: prod.node.webhookId, listen: false, webhookBaseUrl: base });
		await test2.activate({ isTest: true });
		all = await simWebhooks();
		expect(all.map((w) => w.id).sort()).toEqual([prod.nodeStaticData.webhookId, test2.testStaticData.webhookId].sort());
		await test2.delete({ isTest: true });
		expect((await simWebhooks()).map((w) => w.id)).toEqual([prod.nodeStaticData.webhookId]);
		expect(await prod.checkExists()).toBe(true);
	});
});

describe('Trigger: a staging copy on another n8n that shares the encryption key', () => {
	// n8n derives its instance id from the encryption key: a copied .n8n folder or environment gives the
	// staging n8n production's instance id. The workflow is exported with its static data and imported
	// there (same workflow id, node and webhook path), and runs at another WEBHOOK_URL.
	const instanceId = 'c0ffee'.repeat(10) + 'c0ff';

	it.each([
		['marked with its owner', false],
		['made by the previous version (no owner mark, the raw owner in static data)', true],
	])("production's webhook (%s) is kept and still starts production's workflow; staging registers its own", async (_label, legacy) => {
		const prod = await trigger({ events: ['order.paid'] }, { instanceId });
		await prod.activate();
		const prodId = String(prod.nodeStaticData.webhookId);
		if (legacy) {
			const dispatcher = ((sim().state.col('webhooks')[0] as JsonObject).dispatchers as JsonObject[])[0];
			delete (dispatcher.headers as JsonObject)[OWNER_HEADER];
			prod.nodeStaticData.webhookOwner = `${instanceId}/wf-trigger-1/trigger-node`;
			// The upgrade itself: production's restart keeps its webhook.
			await prod.restart();
			expect(await prod.activate({ activation: 'init' })).toEqual({ existed: true });
		}
		const before = (await simWebhooks())[0];
		const staging = await trigger({ events: ['order.paid'] }, { instanceId, staticData: prod.savedStaticData(), webhookId: prod.node.webhookId });
		expect(staging.url()).not.toBe(prod.url());
		sim().clearRequests();
		expect(await staging.activate()).toEqual({ existed: false });
		expect(lines(sim().apiRequests)).toEqual([
			`GET /webhooks/details/${prodId}`,
			`GET /webhooks/list/${sim().credentials.businessId}`,
			'POST /webhooks',
		]);
		const stagingId = String(staging.nodeStaticData.webhookId);
		expect(stagingId).not.toBe(prodId);
		const all = await simWebhooks();
		expect(all.map((w) => w.id)).toEqual([prodId, stagingId]);
		expect(all[0]).toEqual(before);
		expect(staging.nodeStaticData.webhookSecret).not.toBe(prod.nodeStaticData.webhookSecret);
		// Activation names the webhook it left, where it calls, and how to delete it if that address is gone.
		expect(staging.logs).toHaveLength(1);
		expect(staging.logs[0]).toMatchObject({ level: 'warn' });
		expect(staging.logs[0].message).toContain(`webhook ${prodId} ("n8n: Paid orders to CRM (wf-trigger-1)") was made for this workflow's trigger but calls ${prod.url()}, not this node's URL ${staging.url()}`);
		expect(staging.logs[0].message).toContain(`If that address is gone, delete it with the Sales & Payments node (Webhook > Delete, ID ${prodId}) or on the platform.`);
		expect(staging.logs[0].message).not.toContain(String(prod.nodeStaticData.webhookSecret));

		// A paid order starts production's workflow (and staging's, through its own webhook).
		const order = newOrder();
		await simPost(`/__sim/orders/${String(order.id)}/pay`);
		await sim().settle();
		expect(prod.received.map((r) => r.result.httpStatus)).toEqual([200]);
		expect(prod.executions).toHaveLength(1);
		expect(prod.executions[0][0].json).toMatchObject({ event: 'order.paid', data: { id: order.id, status: 'paid' } });
		expect(staging.executions).toHaveLength(1);

		// Production restarts: its webhook is still its own. Staging is deactivated: only its own goes.
		await prod.restart();
		expect(await prod.activate({ activation: 'init' })).toEqual({ existed: true });
		await staging.delete();
		expect(sim().requestsTo('DELETE', /^\/webhooks\/delete\//).map((r) => r.path)).toEqual([`/webhooks/delete/${stagingId}`]);
		expect(await simWebhooks()).toEqual([before]);
		await simPost(`/__sim/orders/${String(newOrder().id)}/pay`);
		await sim().settle();
		expect(prod.executions).toHaveLength(2);
		expect(staging.executions).toHaveLength(1);
	});

	it('staging activated twice (its own webhook lost from static data) replaces its own and still leaves production alone', async () => {
		const prod = await trigger({ events: ['order.paid'] }, { instanceId });
		await prod.activate();
		const prodId = String(prod.nodeStaticData.webhookId);
		const staging = await trigger({ events: ['order.paid'] }, { instanceId, staticData: prod.savedStaticData(), webhookId: prod.node.webhookId });
		await staging.activate();
		const firstStaging = String(staging.nodeStaticData.webhookId);
		// Staging imported again from production: static data names production's webhook again.
		const again = await trigger(
			{ events: ['order.paid'] },
			{ instanceId, staticData: prod.savedStaticData(), webhookId: prod.node.webhookId, listen: false, webhookBaseUrl: staging.url().replace(/\/webhook\/.*$/, '/webhook') },
		);
		expect(again.url()).toBe(staging.url());
		sim().clearRequests();
		await again.activate();
		expect(sim().requestsTo('DELETE', /^\/webhooks\/delete\//).map((r) => r.path)).toEqual([`/webhooks/delete/${firstStaging}`]);
		expect((await simWebhooks()).map((w) => w.id)).toEqual([prodId, again.nodeStaticData.webhookId]);
		expect(await prod.checkExists()).toBe(true);
	});
});

describe('Trigger: activation behind a proxy (WEBHOOK_URL)', () => {
	async function harness(webhookBaseUrl: string, baseUrl?: string) {
		const h = await TriggerHarness.start({
			parameters: { events: ['order.paid'] },
			credentials: dataCredentials(sim(), baseUrl ? { baseUrl } : {}),
			listen: false,
			webhookBaseUrl,
		});
		harnesses.push(h);
		return h;
	}

	it.each(['http://localhost:5678/webhook', 'http://127.0.0.1:5678/webhook', 'http://[::1]:5678/webhook', 'http://n8n.localhost/webhook'])(
		'refuses to register %s for a platform that is not local, telling to set WEBHOOK_URL; nothing is sent',
		async (webhookBaseUrl) => {
			const h = await harness(webhookBaseUrl, 'https://api.sales-platform.example');
			const refusal = await h.create().then(
				() => undefined,
				(error: Error & { description?: string }) => error,
			);
			expect(refusal?.name).toBe('NodeOperationError');
			expect(refusal?.message).toMatch(/^n8n's webhook URL \(http:\/\/[^)]+\) points at this machine, so the platform at https:\/\/api\.sales-platform\.example could not deliver events to it\. Set WEBHOOK_URL to the public address of n8n and restart n8n\.$/);
			expect(refusal?.description).toContain('WEBHOOK_URL=https://n8n.example.com/');
			expect(h.nodeStaticData).toEqual({});
			// n8n asks checkExists first on every activation: it refuses the same way, before any request.
			await expect(h.checkExists()).rejects.toThrow(/Set WEBHOOK_URL to the public address of n8n/);
			expect(sim().apiRequests).toHaveLength(0);
		},
	);

	it('registers a local URL for a local platform (both on this machine), and a public URL for any platform', async () => {
		const local = await harness('http://localhost:5678/webhook');
		await local.create();
		const publicUrl = await harness('https://n8n.example.com/webhook');
		await publicUrl.create();
		const urls = sim()
			.requestsTo('POST', '/webhooks')
			.map((r) => ((r.body as IDataObject).dispatchers as IDataObject[])[0].url);
		expect(urls).toEqual([local.url(), publicUrl.url()]);
		expect(urls[0]).toMatch(/^http:\/\/localhost:5678\/webhook\//);
	});
});

describe('Trigger: deactivation (delete)', () => {
	it('DELETEs /webhooks/delete/{id} (KEYS only), clears the static data, and tolerates a webhook already gone', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const id = String(h.nodeStaticData.webhookId);
		const saved = h.savedStaticData();
		sim().clearRequests();
		expect(await h.delete()).toBe(true);
		// The business's webhooks are read first: only those this node made for its URL are deleted.
		expect(lines(sim().apiRequests)).toEqual([`GET /webhooks/list/${sim().credentials.businessId}`, `DELETE /webhooks/delete/${id}`]);
		for (const r of sim().apiRequests) expectAuth(sim(), r, 'keys');
		expect(sim().apiRequests[1].body).toBeUndefined();
		expect(h.nodeStaticData).toEqual({});
		expect(await simWebhooks()).toHaveLength(0);

		// Already gone on the platform (static data saved before someone deleted it there): 404 is fine.
		const stale = await trigger({ events: ['order.paid'] }, { staticData: saved, webhookId: h.node.webhookId });
		sim().clearRequests();
		expect(await stale.delete()).toBe(true);
		expect(sim().apiRequests.map((r) => [r.method, r.path, r.status])).toEqual([
			['GET', `/webhooks/list/${sim().credentials.businessId}`, 200],
			['GET', `/webhooks/details/${id}`, 404],
		]);
		expect(stale.nodeStaticData).toEqual({});
	});

	it('other failures are reported (and the id kept for a later attempt)', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		sim().addFault({ kind: 'status', status: 500, method: 'DELETE', path: '/webhooks/delete/', times: 10 });
		try {
			await expect(h.delete()).rejects.toThrow('Internal server error');
		} finally {
			sim().faults.clear();
		}
		expect(h.nodeStaticData.webhookId).toBeDefined();
		expect(await h.delete()).toBe(true);
		expect(await simWebhooks()).toHaveLength(0);
	});

	it('20 activate/deactivate cycles (with restarts) leave 0 webhooks', async () => {
		const h = await trigger({ events: ['order.paid', 'order.refunded'] });
		const ids = new Set<unknown>();
		for (let n = 0; n < 20; n++) {
			await h.activate();
			ids.add(h.nodeStaticData.webhookId);
			if (n % 5 === 0) {
				await h.restart();
				expect(await h.activate({ activation: 'init' })).toEqual({ existed: true });
			}
			expect(await simWebhooks()).toHaveLength(1);
			await h.delete();
			expect(await simWebhooks()).toHaveLength(0);
		}
		expect(ids.size).toBe(20);
		expect(sim().requestsTo('POST', '/webhooks')).toHaveLength(20);
		expect(sim().requestsTo('DELETE', /^\/webhooks\/delete\//)).toHaveLength(20);
	});
});

describe('Trigger: deliveries', () => {
	it('a simulator delivery with the right secret starts one execution with the event', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const order = newOrder();
		await simPost(`/__sim/orders/${String(order.id)}/pay`);
		await sim().settle();
		expect(h.received).toHaveLength(1);
		expect(h.received[0].headers[SECRET_HEADER]).toBe(h.nodeStaticData.webhookSecret);
		expect(h.received[0].result.httpStatus).toBe(200);
		expect(h.received[0].result.httpBody).toEqual({ message: 'Workflow was started' });
		expect(h.executions).toHaveLength(1);
		const [items] = h.executions;
		expect(items).toHaveLength(1);
		const json = items[0].json;
		expect(json).toMatchObject({
			event: 'order.paid',
			businessId: sim().credentials.businessId,
			data: { id: order.id, status: 'paid' },
		});
		expect(Object.keys(json).sort()).toEqual(['businessId', 'createdAt', 'data', 'event', 'id']);
		expect(JSON.stringify(h.executions)).not.toContain(String(h.nodeStaticData.webhookSecret));
		const [delivery] = sim().state.col('webhookDeliveries').slice(-1);
		expect(delivery).toMatchObject({ ok: true, status: 200, event: 'order.paid', url: h.url() });
	});

	it('POST /__sim/orders (created, then paid) reaches a trigger subscribed to both', async () => {
		const h = await trigger({ events: ['order.created', 'order.paid'] });
		await h.activate();
		const { order } = (await simPost('/__sim/orders', { valueInCents: 12345 })) as { order: IDataObject };
		await sim().settle();
		const events = h.executions.map((items) => items[0].json.event).sort();
		expect(events).toEqual(['order.created', 'order.paid']);
		for (const items of h.executions) expect((items[0].json.data as IDataObject).id).toBe(order.id);
	});

	it('a forged delivery (wrong, missing or differently sized secret) gets 401 and starts nothing', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const secret = String(h.nodeStaticData.webhookSecret);
		const body = JSON.stringify({ id: 'n-1', event: 'order.paid', data: { id: 'o-1' } });
		const wrong = `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
		const attempts: Array<Record<string, string>> = [{ [SECRET_HEADER]: wrong }, {}, { [SECRET_HEADER]: 'short' }, { 'x-other': secret }];
		for (const headers of attempts) {
			const res = await fetch(h.url(), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
			expect(res.status).toBe(401);
			expect(await res.json()).toEqual({ message: 'Unauthorized' });
		}
		expect(h.executions).toHaveLength(0);
		expect(h.received.every((r) => r.result.response.noWebhookResponse === true && !r.result.response.workflowData)).toBe(true);
		// The genuine secret passes.
		const ok = await fetch(h.url(), { method: 'POST', headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret }, body });
		expect(ok.status).toBe(200);
		expect(h.executions).toHaveLength(1);
	});

	it('without stored secret (never activated) every delivery is refused', async () => {
		const h = await trigger({ events: ['order.paid'] });
		const result = await h.deliver({ headers: { [SECRET_HEADER]: '' }, body: { event: 'order.paid' } });
		expect(result.httpStatus).toBe(401);
		expect(result.items).toBeUndefined();
	});

	it('an event outside the chosen list is answered 200 and starts nothing; an unsubscribed kind is never sent', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const order = newOrder();
		await simPost(`/__sim/orders/${String(order.id)}/refund`);
		await sim().settle();
		expect(h.received).toHaveLength(0); // the platform filters by the webhook's events
		const secret = String(h.nodeStaticData.webhookSecret);
		const res = await h.deliver({ headers: { [SECRET_HEADER]: secret }, body: { id: 'n-2', event: 'order.refunded', data: {} } });
		expect(res.httpStatus).toBe(200);
		expect(res.httpBody).toEqual({ received: true, ignored: 'Event order.refunded is not one of the chosen events' });
		expect(res.items).toBeUndefined();
		expect(h.executions).toHaveLength(0);
	});

	it('reads the event kind tolerantly and maps catalogue kinds to registrable names', async () => {
		const h = await trigger({ events: ['order.paid', 'order.chargeback', 'order.partiallyPaid'] });
		await h.activate();
		const headers = { [SECRET_HEADER]: String(h.nodeStaticData.webhookSecret) };
		const cases: Array<[unknown, IDataObject]> = [
			[{ type: 'ORDER_PAID', order: { id: 'o-1' } }, { event: 'order.paid', type: 'ORDER_PAID', order: { id: 'o-1' } }],
			[{ event: 'ORDER_CHARGEDBACK', x: 1 }, { event: 'order.chargeback', deliveredEvent: 'ORDER_CHARGEDBACK', x: 1 }],
			[{ eventType: 'ORDER_PARTIALLY_PAID' }, { event: 'order.partiallyPaid', eventType: 'ORDER_PARTIALLY_PAID' }],
			[{ event: { type: 'order.paid' }, id: 'n' }, { event: 'order.paid', deliveredEvent: { type: 'order.paid' }, id: 'n' }],
			// No readable kind: let through (the platform only sends what the webhook subscribed to).
			[{ hello: 'world' }, { event: null, hello: 'world' }],
			[[1, 2], { event: null, data: [1, 2] }],
			// A `__proto__` key of the body is data, kept as the item's own field (issue 52).
			[JSON.parse('{"event":"order.paid","__proto__":{"admin":true}}'), { event: 'order.paid', ['__proto__']: { admin: true } }],
		];
		for (const [body, expected] of cases) {
			const res = await h.deliver({ headers, body });
			expect(res.items?.map((i) => i.json)).toEqual([expected]);
		}
		const ignored = await h.deliver({ headers, body: { type: 'PAYMENT_PAID' } });
		expect(ignored.items).toBeUndefined();
	});

	it('Ignore Duplicate Deliveries drops a body this process accepted, and after a restart one among the last 200 saved, and only then', async () => {
		const h = await trigger({ events: ['order.paid'], options: { ignoreDuplicates: true } });
		await h.activate();
		const headers = { [SECRET_HEADER]: String(h.nodeStaticData.webhookSecret) };
		const body = (n: number) => ({ id: `n-${n}`, event: 'order.paid', data: { n } });
		expect((await h.deliver({ headers, body: body(0) })).items).toHaveLength(1);
		const dup = await h.deliver({ headers, body: body(0) });
		expect(dup.items).toBeUndefined();
		expect(dup.httpStatus).toBe(200);
		expect(dup.httpBody).toEqual({ received: true, ignored: 'Duplicate delivery' });
		for (let n = 1; n <= 200; n++) await h.deliver({ headers, body: body(n) });
		expect(h.nodeStaticData.recentDeliveries).toHaveLength(200);
		// This process still remembers body(0) (it keeps 10,000 keys of the last 24 hours).
		expect((await h.deliver({ headers, body: body(0) })).items).toBeUndefined();
		// A new process has only the static data: body(1) is among its last 200, body(0) has left them.
		await h.restart({ newProcess: true });
		expect((await h.deliver({ headers, body: body(1) })).items).toBeUndefined();
		expect((await h.deliver({ headers, body: body(0) })).items).toHaveLength(1);
		expect(h.executions).toHaveLength(202);

		// Switched off: every delivery runs.
		const off = await trigger({ events: ['order.paid'], options: { ignoreDuplicates: false } });
		await off.activate();
		const offHeaders = { [SECRET_HEADER]: String(off.nodeStaticData.webhookSecret) };
		await off.deliver({ headers: offHeaders, body: body(0) });
		await off.deliver({ headers: offHeaders, body: body(0) });
		expect(off.executions).toHaveLength(2);
	});

	it('a failed delivery is queued; Resume Failed Deliveries on Activation redelivers it; Flush discards one', async () => {
		const h = await trigger({ events: ['order.paid'], options: { resumeOnActivation: true } });
		await h.activate();
		const id = String(h.nodeStaticData.webhookId);
		const order = newOrder();

		h.outage = 503; // n8n is down
		await simPost(`/__sim/orders/${String(order.id)}/pay`);
		await sim().settle();
		expect(h.executions).toHaveLength(0);
		expect(await queueSize(id)).toBe(1);

		h.outage = undefined; // n8n restarts: checkExists says false (a resume is asked for), create resumes the queue
		await h.restart();
		sim().clearRequests();
		expect(await h.activate({ activation: 'init' })).toEqual({ existed: false });
		expect(lines(sim().apiRequests)).toEqual([
			`GET /webhooks/details/${id}`,
			`GET /webhooks/list/${sim().credentials.businessId}`,
			`PATCH /webhooks/resume/${id}`,
		]);
		await sim().settle();
		expect(h.executions).toHaveLength(1);
		expect(h.executions[0][0].json).toMatchObject({ event: 'order.paid', data: { id: order.id, status: 'paid' } });
		expect(await queueSize(id)).toBe(0);

		// Another failure, discarded with the action node's Flush Queue.
		h.outage = 500;
		await simPost(`/__sim/orders/${String(order.id)}/pay`);
		await sim().settle();
		expect(await queueSize(id)).toBe(1);
		h.outage = undefined;
		const flushed = await runNode(
			{ parameters: { resource: 'webhook', operation: 'flush', webhookId: { __rl: true, mode: 'id', value: id } } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(flushed.items[0].json).toEqual({ id, flushed: 1, messagesAvailable: 0 });
		expect(await queueSize(id)).toBe(0);
		await h.restart();
		await h.activate({ activation: 'init' });
		await sim().settle();
		expect(h.executions).toHaveLength(1);
	});

	it('a deactivated webhook receives nothing and queues nothing', async () => {
		const h = await trigger({ events: ['order.paid'] });
		await h.activate();
		const id = String(h.nodeStaticData.webhookId);
		(sim().state.col('webhooks')[0] as JsonObject).status = 'inactive';
		await simPost(`/__sim/orders/${String(newOrder().id)}/pay`);
		await sim().settle();
		expect(h.received).toHaveLength(0);
		expect(await queueSize(id)).toBe(0);
	});
});

/**
 * The hooks in exactly the sequences n8n 2.8.4 runs them (dist/ of the n8n package; the harness
 * makes each context as n8n does, see TriggerHarness.hookContext):
 * - a test listen: TestWebhooks.needsWebhook (webhooks/test-webhooks.js:251) calls
 *   createWebhookIfNotExists(workflow, webhook, 'manual', 'manual') on a workflow with staticData {}
 *   (toWorkflow, :342); stopping it, its timeout (:224, TEST_WEBHOOK_TIMEOUT) and the end of the
 *   test event's execution (:145) all run deactivateWebhooks (:307-333): deleteWebhook(workflow,
 *   webhook, 'internal', 'update') with the registration's cached static data (:252, :328-329);
 * - a production activation: ActiveWorkflowManager.add (active-workflow-manager.js:445) ->
 *   addWebhooks(workflow, additionalData, 'trigger', activationMode) with the database's static
 *   data; a throw (:153-172) runs clearWebhooks (:180-213): a workflow rebuilt from the database,
 *   deleteWebhook(..., 'internal', 'update'), saveStaticData; at start (init) the activation is
 *   queued again (:391, addQueuedWorkflowActivation, first retry after 1 s);
 * - a deactivation: remove (:556-591) -> clearWebhooks, the same call as that cleanup.
 */
describe("Trigger: n8n's own call sequences", () => {
	const paid = { events: ['order.paid'] };

	async function production() {
		const h = await trigger(paid);
		await h.activate();
		return { h, id: String(h.nodeStaticData.webhookId) };
	}

	/** The editor's "Listen for test event" of the same workflow (n8n's test URL, its own static data). */
	async function editorOf(prod: TriggerHarness) {
		return await trigger(paid, { webhookId: prod.node.webhookId, listen: false, webhookBaseUrl: prod.url().replace(/\/webhook\/.*$/, '/webhook') });
	}

	async function deliverPaid(): Promise<void> {
		await simPost(`/__sim/orders/${String(newOrder().id)}/pay`);
		await sim().settle();
	}

	it('stopping a test listen (delete in mode internal) removes the test webhook and only it; the production webhook still delivers', async () => {
		const { h: prod, id } = await production();
		for (const end of ['stopped in the editor', 'timed out', 'after the test event']) {
			const editor = await editorOf(prod);
			await editor.activate({ isTest: true });
			const testId = String(editor.testStaticData.webhookId);
			expect((await simWebhooks()).map((w) => w.id).sort()).toEqual([id, testId].sort());
			sim().clearRequests();
			// All three ends are the same call in n8n: deactivateWebhooks -> delete (internal, update).
			expect(await editor.delete({ isTest: true })).toBe(true);
			expect({ end, requests: lines(sim().apiRequests) }).toEqual({ end, requests: [`GET /webhooks/list/${sim().credentials.businessId}`, `DELETE /webhooks/delete/${testId}`] });
			expect({ end, left: (await simWebhooks()).map((w) => w.id) }).toEqual({ end, left: [id] });
			expect({ end, logs: editor.logs }).toEqual({ end, logs: [] });
		}
		await deliverPaid();
		expect(prod.executions).toHaveLength(1);
		// Production's own deactivation still removes production's webhook.
		await prod.delete();
		expect(await simWebhooks()).toEqual([]);
	});

	it('a test listen whose create fails is deactivated by n8n and leaves no webhook behind', async () => {
		const { h: prod, id } = await production();
		const editor = await editorOf(prod);
		// The new webhook's id can't be read from the answer nor found by its secret: create throws after the POST.
		sim().addFault({ kind: 'malformed', status: 201, body: '{"statusCode":201,"data":{"id":"not a valid id!"}}', method: 'POST', path: '/webhooks' });
		await expect(editor.activate({ isTest: true })).rejects.toThrow('not a valid ID');
		sim().faults.clear();
		expect((await simWebhooks()).map((w) => w.id)).toEqual([id]);
	});

	it.each([
		['a transient 500 (retried)', { kind: 'status', status: 500, times: 1 }, false],
		['a 500 that outlasts the retries', { kind: 'status', status: 500, times: 4 }, true],
		['an empty object', { kind: 'malformed', status: 200, body: '{}', times: 1 }, true],
		['data: null', { kind: 'malformed', status: 200, body: '{"statusCode":200,"data":null}', times: 1 }, true],
		['a string', { kind: 'malformed', status: 200, body: '"ok"', times: 1 }, true],
		['an HTML page', { kind: 'malformed', status: 200, body: '<html><body>Bad gateway</body></html>', times: 1 }, true],
		['another webhook', { kind: 'malformed', status: 200, body: '{"statusCode":200,"data":{"id":"someone-else"}}', times: 1 }, true],
		['dropped connections', { kind: 'drop', times: 4 }, true],
	] as const)('n8n starts while GET /webhooks/details answers %s: the working webhook, its queue and its deliveries survive', async (_what, rule, fails) => {
		const { h, id } = await production();
		h.outage = 503; // a delivery fails while n8n is down: the platform queues it
		await deliverPaid();
		expect(await queueSize(id)).toBe(1);
		h.outage = undefined;
		await h.restart();
		sim().addFault({ ...rule, method: 'GET', path: '/webhooks/details/' });
		sim().clearRequests();
		const started = h.activate({ activation: 'init' });
		if (fails) {
			await expect(started).rejects.toThrow();
			// n8n's cleanup ran (delete in mode internal) and deleted nothing.
			expect(h.cleanups).toBe(1);
			expect(sim().requestsTo('DELETE', /^\/webhooks\/delete\//)).toHaveLength(0);
			expect(h.logs.map((l) => l.message).join('\n')).toContain(`left webhook ${id} and its queue of failed deliveries in place`);
			sim().faults.clear();
			// n8n's retry of the init activation, once the platform answers again: the same webhook.
			expect(await h.activate({ activation: 'init' })).toEqual({ existed: true });
		} else {
			expect(await started).toEqual({ existed: true });
			expect(h.cleanups).toBe(0);
		}
		sim().faults.clear();
		expect((await simWebhooks()).map((w) => w.id)).toEqual([id]);
		expect(h.nodeStaticData.webhookId).toBe(id);
		expect(sim().requestsTo('POST', '/webhooks')).toHaveLength(0);
		expect(await queueSize(id)).toBe(1);
		await deliverPaid();
		expect(h.executions).toHaveLength(1);
		// The deactivation that follows is a deactivation again: the webhook goes.
		await h.delete();
		expect(await simWebhooks()).toEqual([]);
	});

	it('a failed create (a PATCH of changed events answered 500 every time) keeps the webhook; a deactivation after the cleanup deletes it', async () => {
		const { h, id } = await production();
		h.setParameters({ events: ['order.paid', 'order.refunded'] });
		await h.restart();
		sim().addFault({ kind: 'status', status: 500, method: 'PATCH', path: `/webhooks/${id}` });
		await expect(h.activate({ activation: 'init' })).rejects.toThrow('Internal server error');
		sim().faults.clear();
		expect((await simWebhooks()).map((w) => w.id)).toEqual([id]);
		expect(await h.activate({ activation: 'init' })).toEqual({ existed: false });
		expect((await simWebhooks())[0]).toMatchObject({ id, events: ['order.paid', 'order.refunded'] });
		await h.delete();
		expect(await simWebhooks()).toEqual([]);
	});

	it('at most one webhook of this node per kind after any sequence of n8n calls, restarts and failures included', async () => {
		const prod = await trigger(paid);
		const editor = await editorOf(prod);
		const kinds = async () => {
			const all = await simWebhooks();
			const urls = all.map((w) => String((w.dispatchers as IDataObject[])[0].url));
			return { production: urls.filter((u) => u === prod.url()).length, test: urls.filter((u) => u === prod.url(true)).length };
		};
		// A fixed pseudo-random walk over the calls n8n makes.
		let seed = 7;
		const next = () => (seed = (seed * 48271) % 2147483647) % 8;
		let active = false;
		for (let step = 0; step < 60; step++) {
			const move = next();
			if (move === 0) {
				await prod.activate({ activation: active ? 'update' : 'activate' }).catch(() => undefined);
				active = true;
			} else if (move === 1 && active) {
				await prod.restart();
				await prod.activate({ activation: 'init' });
			} else if (move === 2 && active) {
				await prod.restart();
				sim().addFault({ kind: 'status', status: 500, method: 'GET', path: '/webhooks/', times: 4 });
				await expect(prod.activate({ activation: 'init' })).rejects.toThrow();
				sim().faults.clear();
				await prod.activate({ activation: 'init' });
			} else if (move === 3) await editor.activate({ isTest: true });
			else if (move === 4) await editor.delete({ isTest: true });
			else if (move === 5 && active) {
				await prod.delete();
				active = false;
			} else if (move === 6) {
				// A test listen that n8n never stopped (n8n killed): the next listen replaces it.
				editor.testWorkflow = undefined;
				await editor.activate({ isTest: true });
			} else if (move === 7 && active) {
				// A stray of this node (left by a crash between POST and saving static data): gone after a restart.
				const own = sim().state.col('webhooks').find((w) => w.id === prod.nodeStaticData.webhookId) as JsonObject;
				sim().state.col('webhooks').push({ ...own, id: `stray-${step}` });
				await prod.restart();
				await prod.activate({ activation: 'init' });
			}
			const count = await kinds();
			expect({ step, move, ...count }).toEqual({ step, move, production: active ? 1 : 0, test: Math.min(count.test, 1) });
		}
		await editor.delete({ isTest: true });
		if (active) await prod.delete();
		expect(await simWebhooks()).toEqual([]);
	});
});
