/**
 * Trust under attack and faults (issue 12), through n8n-core's execution path against a hostile
 * simulator: redirects to another origin that records what reaches it, answers trickled byte by
 * byte, 2xx answers that cannot be read, answers of the wrong shape, crafted IDs in credentials
 * and in what the platform returns, lenient dates, replayed deliveries and copied workflows.
 * (Crafted IDs, lenient numbers and dates typed into every operation's fields are rows of the
 * validation table; hostile pagination has its own file.)
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../support/harness/n8n-core';
import type { RunResult } from '../support/harness/n8n-core';
import { TriggerHarness } from '../support/harness/trigger';
import { pixCharge } from '../support/helpers/fixtures';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { Elsewhere } from '../support/simulator/elsewhere';
import { startElsewhere } from '../support/simulator/elsewhere';
import type { FaultRule } from '../support/simulator/faults';
import { identityUrl, PLAIN_USER } from '../support/simulator/routes/identity';
import { ordersOf } from '../support/simulator/routes/orders';
import { vouchersOf } from '../support/simulator/routes/vouchers';

const sim = useSimulator();
let elsewhere: Elsewhere;

beforeAll(async () => {
	elsewhere = await startElsewhere();
});

afterAll(async () => {
	await elsewhere.close();
});

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
	elsewhere.requests.length = 0;
});

function fault(rule: FaultRule): void {
	sim().addFault(rule);
}

async function run(parameters: INodeParameters, options: { continueOnFail?: boolean; timezone?: string } = {}): Promise<RunResult> {
	return await runNode(
		{ parameters, continueOnFail: options.continueOnFail },
		{ credentials: dataCredentials(sim()), timezone: options.timezone },
	);
}

const balance: INodeParameters = { resource: 'business', operation: 'getBalance' };

function primaryOrders(): IDataObject[] {
	return ordersOf(sim(), sim().credentials.businessId);
}

describe('redirects: the keys and the body never leave the credential\'s origin', () => {
	it.each([301, 302, 303, 307, 308])('a read redirected with %i to another origin is refused, naming status and origin', async (status) => {
		fault({ kind: 'redirect', status, location: `${elsewhere.url}/business/balance`, path: '/business/balance' });
		const { error, items } = await run(balance);
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(`The platform answered with a redirect (HTTP ${status}) to ${elsewhere.origin}, which was not followed`);
		expect(error?.description).toContain(`Your keys and the request were sent only to ${new URL(sim().url).origin}`);
		expect(elsewhere.requests).toEqual([]);
		// A refused redirect is not retried either.
		expect(sim().apiRequests).toHaveLength(1);
	});

	it.each([301, 302, 303, 307, 308])('a charge redirected with %i to another origin is never re-sent there nor reported as a success', async (status) => {
		const before = primaryOrders().length;
		fault({ kind: 'redirect', status, location: `${elsewhere.url}/orders/create-charge`, path: '/orders/create-charge' });
		const { error, items } = await run(pixCharge(), { continueOnFail: true });
		expect(items).toHaveLength(1);
		expect(items[0].json.orderId).toBeUndefined();
		expect(items[0].json.error).toBe(`The platform answered with a redirect (HTTP ${status}) to ${elsewhere.origin}, which was not followed`);
		expect(error).toBeUndefined();
		expect(elsewhere.requests).toEqual([]);
		expect(sim().requestsTo('POST', '/orders/create-charge')).toHaveLength(1);
		expect(primaryOrders().length).toBe(before);
	});

	it('a redirect to the same host on another scheme or port is another origin too', async () => {
		const https = sim().url.replace('http://', 'https://');
		fault({ kind: 'redirect', status: 308, location: `${https}/business/balance`, path: '/business/balance' });
		const { error } = await run(balance);
		expect(error?.message).toContain(`to ${new URL(https).origin}, which was not followed`);
		expect(error?.description).toContain('change the Base URL');
		expect(elsewhere.requests).toEqual([]);
	});

	it('a relative redirect within the origin is followed for a read', async () => {
		fault({ kind: 'redirect', status: 301, location: '/business/balance?moved=1', path: '/business/balance', times: 1 });
		const { error, items } = await run(balance);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.totalFundsInCents).toEqual(expect.any(Number));
		const calls = sim().requestsTo('GET', '/business/balance');
		expect(calls.map((r) => r.query)).toEqual([{}, { moved: '1' }]);
		// The second request carried the credential: it went to the same origin.
		expect(calls[1].headers['x-api-key']).toBe(sim().credentials.apiKey);
	});

	it('a 307 within the origin re-sends the charge once, with its body; a 302 that would turn it into a GET is refused', async () => {
		const before = primaryOrders().length;
		fault({ kind: 'redirect', status: 307, location: '/orders/create-charge', path: '/orders/create-charge', times: 1 });
		const followed = await run(pixCharge());
		expect(followed.error).toBeUndefined();
		expect(followed.items[0].json.orderId).toEqual(expect.any(String));
		const sent = sim().requestsTo('POST', '/orders/create-charge');
		expect(sent).toHaveLength(2);
		expect(sent[1].body).toEqual(sent[0].body);
		expect(primaryOrders().length).toBe(before + 1);

		sim().clearRequests();
		fault({ kind: 'redirect', status: 302, location: '/orders/create-charge', path: '/orders/create-charge', times: 1 });
		const refused = await run(pixCharge());
		expect(refused.error?.message).toBe(`The platform answered with a redirect (HTTP 302) to ${new URL(sim().url).origin}, which was not followed`);
		expect(refused.error?.description).toContain('would turn this POST into a GET');
		expect(sim().requestsTo('POST', '/orders/create-charge')).toHaveLength(1);
		expect(sim().requestsTo('GET', '/orders/create-charge')).toHaveLength(0);
	});

	it('an endless redirect within the origin stops after 3', async () => {
		fault({ kind: 'redirect', status: 302, location: '/business/balance', path: '/business/balance' });
		const { error } = await run(balance);
		expect(error?.description).toContain('More than 3 redirects in a row');
		expect(sim().requestsTo('GET', '/business/balance')).toHaveLength(4);
	});

	it('identity calls: the password, fingerprint and tokens never reach another origin', async () => {
		fault({ kind: 'redirect', status: 307, location: `${elsewhere.url}/identity/sign-in`, path: '/identity/sign-in' });
		const { error } = await runNode(
			{ parameters: { resource: 'identity', operation: 'signIn' }, credentials: ['salesPaymentsIdentityApi'] },
			{
				credentials: {
					salesPaymentsIdentityApi: {
						identityUrl: identityUrl(sim()),
						username: PLAIN_USER.username,
						password: PLAIN_USER.password,
						fingerprint: 'trust-test',
					},
				},
			},
		);
		expect(error?.message).toContain('(HTTP 307)');
		expect(elsewhere.requests).toEqual([]);
	});

	it('a trigger activation behind a redirect hands neither the keys nor the webhook secret to the other origin, and stores nothing', async () => {
		fault({ kind: 'redirect', status: 307, location: `${elsewhere.url}/webhooks`, method: 'POST', path: '/webhooks' });
		const h = await TriggerHarness.start({ parameters: { events: ['order.paid'] }, credentials: dataCredentials(sim()) });
		await expect(h.activate()).rejects.toThrow(`to ${elsewhere.origin}, which was not followed`);
		expect(elsewhere.requests).toEqual([]);
		expect(h.nodeStaticData.webhookId).toBeUndefined();
		expect(h.nodeStaticData.webhookSecret).toBeUndefined();
	});
});

describe('Timeout is a deadline, from sending to the last byte', () => {
	it('a read whose answer trickles past the timeout fails, and is retried per the policy', async () => {
		fault({ kind: 'trickle', path: '/business/balance', chunkBytes: 4, intervalMs: 40 });
		const started = Date.now();
		const { error } = await run({ ...balance, requestOptions: { timeout: 300, maxRetries: 1 } });
		expect(error?.message).toBe('The platform did not answer within 300 ms');
		expect(error?.description).toBe('GET /business/balance (after 2 attempts)');
		expect(sim().requestsTo('GET', '/business/balance')).toHaveLength(2);
		// Two attempts of 300 ms and a backoff, not the seconds the trickle would take.
		expect(Date.now() - started).toBeLessThan(3_000);
	});

	it('the same trickle within the timeout succeeds', async () => {
		fault({ kind: 'trickle', path: '/business/balance', chunkBytes: 64, intervalMs: 5 });
		const { error, items } = await run({ ...balance, requestOptions: { timeout: 5_000 } });
		expect(error).toBeUndefined();
		expect(items[0].json.totalFundsInCents).toEqual(expect.any(Number));
	});

	it('a charge whose answer trickles past the timeout is sent once, and the error says it may have been processed', async () => {
		const before = primaryOrders().length;
		fault({ kind: 'trickle', path: '/orders/create-charge', chunkBytes: 2, intervalMs: 50 });
		const { error } = await run({ ...pixCharge(), requestOptions: { timeout: 300, maxRetries: 3 } });
		expect(error?.message).toBe('The platform did not answer within 300 ms');
		expect(error?.description).toContain('may have received and processed this request');
		expect(error?.description).toContain('Look for the order');
		expect(sim().requestsTo('POST', '/orders/create-charge')).toHaveLength(1);
		expect(primaryOrders().length).toBe(before + 1);
	});
});

describe('a write whose 2xx answer cannot be read never invites a blind retry', () => {
	const unreadable = ['{"statusCode":201,"data":{"orderId":', '<html>ok</html>', ''];

	it.each(unreadable)('Create Charge answered 201 with %j: "accepted", with what to check, sent once', async (body) => {
		const before = primaryOrders().length;
		fault({ kind: 'malformed', status: 201, body, afterProcessing: true, path: '/orders/create-charge' });
		const { error, items } = await run(pixCharge(), { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items[0].json.error).toBe('The platform accepted the request (HTTP 201) but its answer could not be read');
		expect(items[0].json.description).toContain('The request has probably taken effect');
		expect(items[0].json.description).toContain('Look for the order');
		expect(sim().requestsTo('POST', '/orders/create-charge')).toHaveLength(1);
		expect(primaryOrders().length).toBe(before + 1);
	});

	it('Redeem and Cancel Redemption answered 200 with a cut body: "accepted" and where to look, each sent once', async () => {
		const voucher = vouchersOf(sim(), sim().credentials.businessId).find((v) => v.status === 'available')!;
		fault({ kind: 'malformed', body: '{"statusCode":200,', afterProcessing: true, path: '/vouchers/' });
		for (const operation of ['redeem', 'cancelRedemption']) {
			sim().clearRequests();
			const { error } = await run({ resource: 'voucher', operation, voucherId: String(voucher.id) });
			expect(error?.message).toBe('The platform accepted the request (HTTP 200) but its answer could not be read');
			expect(error?.description).toContain('Voucher > Get by Code');
			expect(sim().apiRequests).toHaveLength(1);
			// The platform did take it: redeemed, then available again.
			expect(voucher.status).toBe(operation === 'redeem' ? 'redeemed' : 'available');
		}
	});

	it.each([
		['payment link', { resource: 'paymentLink', operation: 'create', name: 'Course', valueInCents: 4990 }, '/payment-links', 'Payment Link > Get Many'],
		['customer', { resource: 'customer', operation: 'create', name: 'Ana', email: 'ana@mail.example' }, '/customers', 'Customer > Get Many'],
		['pixel', { resource: 'pixel', operation: 'create', platform: 'meta', name: 'Main', platformPixelId: '123' }, '/pixels', 'Pixel > Get Many'],
		[
			'webhook',
			{ resource: 'webhook', operation: 'create', name: 'Hook', events: ['order.paid'], dispatchers: { http: [{ url: 'https://hooks.example.com/x' }] } },
			'/webhooks',
			'Webhook > Get Many',
		],
	])('creating a %s answered 201 with an unreadable body is reported as accepted', async (_name, parameters, path, hint) => {
		fault({ kind: 'malformed', status: 201, body: 'created', afterProcessing: true, method: 'POST', path: `^${path}$` });
		const { error } = await run(parameters as INodeParameters);
		expect(error?.message).toBe('The platform accepted the request (HTTP 201) but its answer could not be read');
		expect(error?.description).toContain(hint);
		expect(sim().apiRequests).toHaveLength(1);
	});
});

describe('answers of the wrong shape are clear errors, never a TypeError or a silent result', () => {
	it.each([
		['data: null', '{"statusCode":200,"data":null}', 'The platform\'s answer has an unexpected shape: it has null as its data, not an object'],
		['data: a number', '{"statusCode":200,"data":5}', 'The platform\'s answer has an unexpected shape: it has a number as its data, not an object'],
		['data: a list', '{"statusCode":200,"data":[1]}', 'The platform\'s answer has an unexpected shape: it has a list as its data, not an object'],
		['a bare string', '"ok"', 'The platform\'s answer has an unexpected shape: it is a string, not an object'],
		['a bare list', '[{"id":1}]', 'The platform\'s answer has an unexpected shape: it is a list, not an object'],
		['nothing', '', 'The platform\'s answer has an unexpected shape: it is empty'],
	])('a read answered with %s', async (_what, body, message) => {
		fault({ kind: 'malformed', body, path: '/business/balance' });
		const { error, items } = await run(balance);
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(message);
		expect(error?.description).toContain('GET /business/balance (business.getBalance)');
	});

	it('with Continue On Fail it is an error item of that input item', async () => {
		fault({ kind: 'malformed', body: '{"statusCode":200,"data":null}', path: '/orders/' });
		const { items } = await run({ resource: 'order', operation: 'get', orderId: 'order-1' }, { continueOnFail: true });
		expect(items).toEqual([
			{
				json: {
					error: "The platform's answer has an unexpected shape: it has null as its data, not an object",
					description: expect.stringContaining('(order.get)'),
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('an operation whose answer the spec does not show tolerates data: null (Publish)', async () => {
		fault({ kind: 'malformed', body: '{"statusCode":200,"data":null}', path: '/payment-links/publish/' });
		const { error, items } = await run({ resource: 'paymentLink', operation: 'publish', paymentLinkId: { __rl: true, mode: 'id', value: 'link-1' } });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: 'link-1', published: true });
	});
});

describe('IDs from the credential and from the platform are checked like typed ones', () => {
	it.each(['..', '../webhooks', '%2e%2e', 'a\\b'])('a credential Business ID %j is refused before any request (path and header)', async (businessId) => {
		for (const parameters of [{ resource: 'webhook', operation: 'getMany' }, balance]) {
			const { error } = await runNode({ parameters }, { credentials: dataCredentials(sim(), { businessId }) });
			expect(error?.name).toBe('NodeOperationError');
			expect(error?.message).toBe(
				`The credential's Business ID ${JSON.stringify(businessId)} is not a valid ID (letters, digits, "-" and "_" only, at most 128)`,
			);
		}
		expect(sim().apiRequests).toEqual([]);
	});

	it('a webhook id the platform returns that is not an ID is never stored or put into a path', async () => {
		fault({ kind: 'malformed', status: 201, body: '{"statusCode":201,"data":{"id":"../customers/remove/x"}}', afterProcessing: true, method: 'POST', path: '^/webhooks$' });
		const h = await TriggerHarness.start({ parameters: { events: ['order.paid'] }, credentials: dataCredentials(sim()) });
		await expect(h.activate()).rejects.toThrow('The platform returned a webhook id that is not a valid ID');
		expect(h.nodeStaticData.webhookId).toBeUndefined();
		expect(sim().apiRequests.some((r) => r.path.includes('customers'))).toBe(false);
	});

	it('a crafted webhook id in static data is ignored: a new webhook is registered, nothing else is touched', async () => {
		const h = await TriggerHarness.start({
			parameters: { events: ['order.paid'] },
			credentials: dataCredentials(sim()),
			staticData: { 'node:Sales & Payments Trigger': { webhookId: '../customers/remove/x', webhookSecret: 'a'.repeat(64) } },
		});
		expect(await h.activate()).toEqual({ existed: false });
		expect(sim().apiRequests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /webhooks/list/${sim().credentials.businessId}`,
			'POST /webhooks',
		]);
		await h.delete();
	});
});

describe('dates without a zone are read in the workflow\'s time zone', () => {
	const refunds = (filters: INodeParameters): INodeParameters => ({ resource: 'refund', operation: 'getMany', limit: 1, filters });

	it.each([
		['America/Sao_Paulo', '2026-03-01T00:00:00', '2026-03-01T03:00:00.000Z'],
		['America/Sao_Paulo', '2026-03-01', '2026-03-01T03:00:00.000Z'],
		['Asia/Tokyo', '2026-03-01T00:00:00', '2026-02-28T15:00:00.000Z'],
		['UTC', '2026-03-01T00:00:00', '2026-03-01T00:00:00.000Z'],
		// A zone given wins over the workflow's.
		['America/Sao_Paulo', '2026-03-01T00:00:00Z', '2026-03-01T00:00:00.000Z'],
		['Asia/Tokyo', '2026-03-01T00:00:00-03:00', '2026-03-01T03:00:00.000Z'],
		// Daylight saving: New York's 2026-03-08 02:30 does not exist, 2026-07-01 is on EDT.
		['America/New_York', '2026-07-01T00:00:00', '2026-07-01T04:00:00.000Z'],
	])('in %s, %s is sent as %s', async (timezone, given, sent) => {
		const { error } = await run(refunds({ createdAfter: given }), { timezone });
		expect(error).toBeUndefined();
		expect(sim().apiRequests[0].query['createdAt[startsAt]']).toBe(sent);
	});

	it('an n8n DateTime from an expression keeps its own zone', async () => {
		const { error } = await run(refunds({ createdAfter: "={{ DateTime.fromISO('2026-03-01T00:00:00', { zone: 'Europe/Berlin' }) }}" }), {
			timezone: 'America/Sao_Paulo',
		});
		expect(error).toBeUndefined();
		expect(sim().apiRequests[0].query['createdAt[startsAt]']).toBe('2026-02-28T23:00:00.000Z');
	});
});

describe('replayed deliveries and copied workflows', () => {
	const SECRET_HEADER = 'x-sp-webhook-secret';
	let harnesses: TriggerHarness[] = [];

	afterEach(async () => {
		for (const h of harnesses) {
			await h.delete().catch(() => undefined);
			await h.close();
		}
		harnesses = [];
	});

	async function trigger(extra: Partial<Parameters<typeof TriggerHarness.start>[0]> = {}): Promise<TriggerHarness> {
		const h = await TriggerHarness.start({ parameters: { events: ['order.paid'] }, credentials: dataCredentials(sim()), ...extra });
		harnesses.push(h);
		return h;
	}

	const paid = (id: string, updatedAt = '2026-03-01T10:00:00.000Z') => ({ event: 'order.paid', data: { id, status: 'paid', updatedAt } });

	it('a new trigger runs a delivery replayed 100 times once; distinct notifications each run', async () => {
		const h = await trigger();
		await h.activate();
		const headers = { [SECRET_HEADER]: String(h.nodeStaticData.webhookSecret) };
		for (let n = 0; n < 100; n++) await h.deliver({ headers, body: paid('order-1') });
		expect(h.executions).toHaveLength(1);
		// Same order, new status time: a new notification. Another order: a new one too.
		await h.deliver({ headers, body: paid('order-1', '2026-03-01T11:00:00.000Z') });
		await h.deliver({ headers, body: paid('order-2') });
		expect(h.executions).toHaveLength(3);
		// A redelivery that adds a field (an attempt counter) is another body: it runs (docs/triggers.md
		// says so), an eventId beside it or not. With the Notification ID Field `eventId` it is a repeat.
		await h.deliver({ headers, body: { ...paid('order-2'), attempt: 2 } });
		expect(h.executions).toHaveLength(4);
		await h.deliver({ headers, body: { ...paid('order-3'), eventId: 'n-3' } });
		await h.deliver({ headers, body: { ...paid('order-3'), eventId: 'n-3', attempt: 2 } });
		expect(h.executions).toHaveLength(6);
		h.setParameters({ ...h.node.parameters, options: { notificationIdField: 'eventId' } });
		await h.deliver({ headers, body: { ...paid('order-4'), eventId: 'n-4' } });
		await h.deliver({ headers, body: { ...paid('order-4'), eventId: 'n-4', attempt: 2 } });
		expect(h.executions).toHaveLength(7);
		// Bounded memory.
		for (let n = 0; n < 300; n++) await h.deliver({ headers, body: paid(`order-x${n}`) });
		expect((h.nodeStaticData.recentDeliveries as string[]).length).toBe(200);
	});

	it('existing (version 1) triggers keep their behaviour: every delivery runs unless the option is on', async () => {
		const h = await trigger({ typeVersion: 1 });
		await h.activate();
		const headers = { [SECRET_HEADER]: String(h.nodeStaticData.webhookSecret) };
		for (let n = 0; n < 5; n++) await h.deliver({ headers, body: paid('order-1') });
		expect(h.executions).toHaveLength(5);
	});

	it('a workflow copied to another n8n (same workflow id, node and static data) registers its own webhook and leaves production\'s alone', async () => {
		const production = await trigger({ listen: true, workflowId: 'wf-shop', webhookId: 'hook-node-1' });
		await production.activate();
		const prodId = String(production.nodeStaticData.webhookId);
		const staging = await trigger({
			workflowId: 'wf-shop',
			webhookId: 'hook-node-1',
			staticData: production.savedStaticData(),
			instanceId: 'another-n8n-instance',
			webhookBaseUrl: 'http://127.0.0.1:9/webhook',
		});
		sim().clearRequests();
		expect(await staging.activate()).toEqual({ existed: false });
		expect(sim().apiRequests.filter((r) => r.method === 'DELETE')).toEqual([]);
		const stagingId = String(staging.nodeStaticData.webhookId);
		expect(stagingId).not.toBe(prodId);
		// Deactivating the copy deletes only its own.
		await staging.delete();
		expect(sim().apiRequests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([`/webhooks/delete/${stagingId}`]);
		// Production still has its webhook and still receives paid orders.
		const hooks = (await (await fetch(`${sim().url}/__sim/webhooks`)).json()) as IDataObject[];
		expect(hooks.map((w) => w.id)).toContain(prodId);
		expect(hooks.map((w) => w.id)).not.toContain(stagingId);
		expect(await production.checkExists()).toBe(true);
	});

	it('deactivating a copy whose static data still names production\'s webhook deletes nothing', async () => {
		const production = await trigger({ listen: true, workflowId: 'wf-shop', webhookId: 'hook-node-1' });
		await production.activate();
		const copy = await trigger({
			workflowId: 'wf-shop',
			webhookId: 'hook-node-1',
			staticData: production.savedStaticData(),
			instanceId: 'another-n8n-instance',
			webhookBaseUrl: 'http://127.0.0.1:9/webhook',
		});
		sim().clearRequests();
		await copy.delete();
		expect(sim().apiRequests.filter((r) => r.method === 'DELETE')).toEqual([]);
		expect(await production.checkExists()).toBe(true);
	});
});
