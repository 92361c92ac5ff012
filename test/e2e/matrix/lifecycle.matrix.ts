/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The compatibility matrix (`npm run test:matrix`): for every n8n release of MATRIX
 * (test/support/n8n-install.ts), each on its own Node.js, the packed package goes through what a user
 * does with it: n8n loads the nodes and credentials, the credential test answers through
 * n8n's REST API, a data-API workflow runs with `n8n execute`, activating the trigger's workflow
 * registers a webhook on the platform, an order.paid delivery runs the workflow, a forged
 * delivery gets 401 and runs nothing, and deactivating deletes the webhook.
 * SP_N8N_VERSIONS=1.123.81,2.41.1 narrows it to some versions.
 */
import axios from 'axios';

import type { N8nTarget } from '../../support/n8n-install';
import { ensureN8n, matrixTargets, packPackage } from '../../support/n8n-install';
import { N8nInstance, nodeOutput, sleep, waitFor } from '../../support/n8n-process';
import type { Simulator } from '../../support/simulator/server';
import { startSimulator } from '../../support/simulator/server';
import { dataCredential, executeOk, INSTALL_TIMEOUT, manualWorkflow, teardown } from '../setup';

const SECRET_HEADER = 'x-sp-webhook-secret';
const TRIGGER_WORKFLOW = 'wfMatrixTrigger';
const DATA_WORKFLOW = 'wfMatrixData';
const WEBHOOK_ID = '5b0c6f1e-2d3a-4b5c-9d8e-7f6a5b4c3d2e';
const CREDENTIAL = 'spMatrix';

function triggerWorkflow() {
	const credentials = { salesPaymentsApi: { id: CREDENTIAL, name: `Sales & Payments ${CREDENTIAL}` } };
	return {
		id: TRIGGER_WORKFLOW,
		name: 'matrix: order.paid',
		active: false,
		nodes: [
			{
				id: 'mt-1',
				name: 'Order paid',
				type: 'n8n-nodes-sales-payments.salesPaymentsTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: WEBHOOK_ID,
				parameters: { events: ['order.paid'] },
				credentials,
			},
			{
				id: 'mt-2',
				name: 'Get the order',
				type: 'n8n-nodes-sales-payments.salesPayments',
				typeVersion: 1,
				position: [240, 0],
				parameters: { resource: 'order', operation: 'get', orderId: '={{ $json.data.id }}' },
				credentials,
			},
		],
		connections: { 'Order paid': { main: [[{ node: 'Get the order', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const log = (line: string) => process.stderr.write(`${line}\n`);
let tgz: string;

beforeAll(async () => {
	tgz = await packPackage();
}, 120_000);

describe.each(matrixTargets().map((t) => [t.version, t.node, t] as [string, string, N8nTarget]))('n8n %s on Node %s', (_version, _node, target) => {
	let n8n: N8nInstance;
	let sim: Simulator;
	const productionUrl = () => `${n8n.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
	const simWebhooks = async () => (await axios.get(`${sim.url}/__sim/webhooks`)).data as Array<Record<string, unknown>>;
	const executions = async () => await n8n.executions(TRIGGER_WORKFLOW);

	beforeAll(async () => {
		await ensureN8n(log, target);
		sim = await startSimulator();
		n8n = new N8nInstance(undefined, target);
		await n8n.installPackage(tgz);
		await n8n.importCredentials([dataCredential(sim, CREDENTIAL)]);
		await n8n.importWorkflows([
			manualWorkflow(DATA_WORKFLOW, [
				{ name: 'Balance', parameters: { resource: 'business', operation: 'getBalance' }, credentialId: CREDENTIAL },
				{
					name: 'All Businesses',
					parameters: { resource: 'business', operation: 'getMany', returnAll: true, pagination: { pageSize: 5 } },
					credentialId: CREDENTIAL,
				},
			]),
			triggerWorkflow(),
		]);
	}, INSTALL_TIMEOUT);

	afterAll(async () => {
		await teardown({ n8n, sim });
	}, 60_000);

	it('execute: a data-API workflow runs with `n8n execute` (Get Balance, Return All over pages)', async () => {
		sim.clearRequests();
		const run = await executeOk(n8n, DATA_WORKFLOW, undefined, { readOnly: true });
		expect(typeof nodeOutput(run, 'Balance')[0]?.totalFundsInCents).toBe('number');
		const pages = sim.requestsTo('GET', '/business/list-businesses-by-owner').filter((r) => r.query.limit === '5');
		expect(pages.length).toBeGreaterThan(1);
		expect(nodeOutput(run, 'All Businesses').length).toBeGreaterThan(5);
		const balance = sim.requestsTo('GET', '/business/balance')[0];
		expect(balance.headers['x-api-key']).toBe(sim.credentials.apiKey);
		expect(balance.headers['business-id']).toBe(sim.credentials.businessId);
	}, 180_000);

	it('register: activating the trigger workflow registers one webhook for the production URL', async () => {
		await n8n.publish(TRIGGER_WORKFLOW);
		sim.clearRequests();
		await n8n.start();
		await n8n.setupOwner();
		const [create] = await waitFor('POST /webhooks', async () => {
			const creates = sim.requestsTo('POST', '/webhooks');
			return creates.length ? creates : undefined;
		}, 60_000);
		const body = create.body as { events: string[]; dispatchers: Array<{ url: string; headers: Record<string, string> }> };
		expect(body.events).toEqual(['order.paid']);
		expect(body.dispatchers).toHaveLength(1);
		expect(body.dispatchers[0].url).toBe(productionUrl());
		expect(body.dispatchers[0].headers[SECRET_HEADER]).toMatch(/^[0-9a-f]{64}$/);
		expect(await simWebhooks()).toHaveLength(1);
	}, 180_000);

	it('load: n8n lists the three nodes (and the AI tool it derives from the action node) and both credentials', async () => {
		const nodes = await n8n.request<Array<{ name: string; displayName: string }>>('GET', '/types/nodes.json');
		expect(nodes.status).toBe(200);
		const ours = nodes.data.filter((n) => n.name.startsWith('n8n-nodes-sales-payments.'));
		expect(ours.map((n) => [n.name, n.displayName]).sort()).toEqual([
			['n8n-nodes-sales-payments.salesPayments', 'Sales & Payments'],
			['n8n-nodes-sales-payments.salesPaymentsPollingTrigger', 'Sales & Payments Polling Trigger'],
			['n8n-nodes-sales-payments.salesPaymentsTool', 'Sales & Payments Tool'],
			['n8n-nodes-sales-payments.salesPaymentsTrigger', 'Sales & Payments Trigger'],
		]);
		const credentials = await n8n.request<Array<{ name: string }>>('GET', '/types/credentials.json');
		expect(credentials.status).toBe(200);
		const names = credentials.data.map((c) => c.name);
		expect(names).toEqual(expect.arrayContaining(['salesPaymentsApi', 'salesPaymentsIdentityApi']));
	});

	it('credentials: the credential test answers OK with the keys and Error with a wrong key, without secrets', async () => {
		const base = { id: CREDENTIAL, name: `Sales & Payments ${CREDENTIAL}`, type: 'salesPaymentsApi' };
		const ok = await n8n.rest<{ data: { status: string; message: string } }>('POST', '/credentials/test', {
			credentials: { ...base, data: sim.credentials },
		});
		expect(ok.status).toBe(200);
		expect(ok.data.data.status).toBe('OK');
		const bad = await n8n.rest<{ data: { status: string; message: string } }>('POST', '/credentials/test', {
			credentials: { ...base, data: { ...sim.credentials, apiKey: 'spk_matrix_wrong_key_31' } },
		});
		expect(bad.status).toBe(200);
		expect(bad.data.data.status).toBe('Error');
		expect(JSON.stringify(bad.data)).not.toContain('spk_matrix_wrong_key_31');
		expect(JSON.stringify(bad.data)).not.toContain(sim.credentials.apiSecret);
	});

	it('deliver: an order.paid from the platform runs the workflow successfully', async () => {
		const before = (await executions()).length;
		const created = await axios.post(`${sim.url}/__sim/orders`, {});
		const orderId = (created.data as { order: { id: string } }).order.id;
		const execution = await waitFor('the execution of the delivery', async () => {
			const list = await executions();
			return list.length > before && !['running', 'new', 'waiting'].includes(list[0].status) ? list[0] : undefined;
		}, 60_000);
		expect(execution.status).toBe('success');
		const detail = await n8n.rest<{ data: { data: string } }>('GET', `/executions/${execution.id}`);
		expect(detail.data.data.data).toContain(orderId);
		expect(sim.requestsTo('GET', `/orders/${orderId}`)).toHaveLength(1);
	});

	it('reject forged: a delivery with a wrong or no secret gets 401 and runs nothing', async () => {
		const before = (await executions()).length;
		const payload = { id: 'evt-matrix-forged', event: 'order.paid', data: { id: 'forged-order' } };
		const forged = await axios.post(productionUrl(), payload, { headers: { [SECRET_HEADER]: 'f'.repeat(64) }, validateStatus: () => true });
		const unsigned = await axios.post(productionUrl(), payload, { validateStatus: () => true });
		expect([forged.status, unsigned.status]).toEqual([401, 401]);
		await sleep(2_000);
		expect((await executions()).length).toBe(before);
		expect(sim.requestsTo('GET', '/orders/forged-order')).toHaveLength(0);
	});

	it('delete: deactivating the workflow deletes its webhook on the platform', async () => {
		const [webhook] = await simWebhooks();
		await n8n.deactivate(TRIGGER_WORKFLOW);
		// n8n 2.41 answers the deactivation before the trigger's delete() has run: wait for it.
		const deletes = await waitFor('DELETE /webhooks/delete/<id>', async () => {
			const list = sim.requestsTo('DELETE', `/webhooks/delete/${String(webhook.id)}`);
			return list.length ? list : undefined;
		}, 30_000);
		expect(deletes).toHaveLength(1);
		expect(await simWebhooks()).toHaveLength(0);
	});
});
