/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The staging copy, with two real n8n 2.8.4 processes: production runs a workflow with the
 * webhook trigger; staging shares production's encryption key (so n8n gives it the same instance
 * id), imports the same workflow with production's static data, and runs at another WEBHOOK_URL.
 * Staging's activation registers its own webhook and leaves production's alone (it names it in
 * its log); a paid order still starts production's workflow; deactivating staging deletes only
 * staging's webhook.
 */
import { randomBytes } from 'node:crypto';

import axios from 'axios';

import { ensureN8n, packPackage } from '../support/n8n-install';
import { DEFAULT_OWNER, N8nInstance, waitFor } from '../support/n8n-process';
import type { Simulator } from '../support/simulator/server';
import { startSimulator } from '../support/simulator/server';
import { dataCredential, INSTALL_TIMEOUT, triggerWorkflow } from './setup';

const WORKFLOW_ID = 'spStagingCopy';
const CREDENTIAL_ID = 'spStagingCred';
const WEBHOOK_ID = '6d1f3c1e-5b7a-4e0c-9d55-1c2b3a4d5e6f';
const TRIGGER = 'Paid orders';

let sim: Simulator;
let production: N8nInstance;
let staging: N8nInstance;
const key = randomBytes(24).toString('hex');

function workflow(staticData?: unknown) {
	return triggerWorkflow({
		id: WORKFLOW_ID,
		name: 'Paid orders (staging copy test)',
		nodeId: 'trigger-node-1',
		nodeName: TRIGGER,
		webhookId: WEBHOOK_ID,
		credentialId: CREDENTIAL_ID,
		staticData,
	});
}

async function simWebhooks(): Promise<Array<Record<string, unknown>>> {
	return (await axios.get(`${sim.url}/__sim/webhooks`)).data as Array<Record<string, unknown>>;
}

async function instance(tgz: string): Promise<N8nInstance> {
	const n8n = new N8nInstance();
	n8n.extraEnv = { N8N_ENCRYPTION_KEY: key };
	await n8n.installPackage(tgz);
	await n8n.importCredentials([dataCredential(sim, CREDENTIAL_ID)]);
	return n8n;
}

beforeAll(async () => {
	await ensureN8n((line) => process.stderr.write(`${line}\n`));
	const tgz = await packPackage();
	sim = await startSimulator();
	production = await instance(tgz);
	await production.importWorkflows([workflow()]);
	await production.publish(WORKFLOW_ID);
	await production.start();
	await production.setupOwner(DEFAULT_OWNER);
	await waitFor("production's webhook", () => (sim.requestsTo('POST', '/webhooks').length === 1 ? true : undefined), 60_000);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	for (const n8n of [staging, production]) {
		await n8n?.stop();
		n8n?.cleanup();
	}
	await sim?.close();
}, 120_000);

describe('a staging copy of production (same encryption key, other WEBHOOK_URL), in real n8n 2.8.4', () => {
	it("registers its own webhook, leaves production's alone and names it in its log; production's deliveries go on", async () => {
		const [productionHook] = await simWebhooks();
		const productionUrl = `${production.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
		expect((productionHook.dispatchers as Array<{ url: string }>)[0].url).toBe(productionUrl);
		// Exported with its static data, as copying a workflow between instances does.
		const saved = await production.rest<{ data: { staticData?: Record<string, unknown> } }>('GET', `/workflows/${WORKFLOW_ID}`);
		const staticData = saved.data.data.staticData;
		expect((staticData?.[`node:${TRIGGER}`] as { webhookId?: string } | undefined)?.webhookId).toBe(productionHook.id);

		staging = await instance(await packPackage());
		await staging.importWorkflows([workflow(staticData)]);
		await staging.publish(WORKFLOW_ID);
		sim.clearRequests();
		await staging.start();
		await waitFor("staging's webhook", () => (sim.requestsTo('POST', '/webhooks').length === 1 ? true : undefined), 60_000);
		const stagingUrl = `${staging.baseUrl}/webhook/${WEBHOOK_ID}/webhook`;
		// It looked at production's webhook (named in the copied static data), then touched nothing but its own.
		expect(sim.requestsTo('GET', `/webhooks/details/${String(productionHook.id)}`).length).toBeGreaterThan(0);
		expect(sim.apiRequests.filter((r) => r.method === 'DELETE' || r.method === 'PATCH')).toEqual([]);
		const hooks = await simWebhooks();
		expect(hooks).toHaveLength(2);
		expect(hooks.find((h) => h.id === productionHook.id)).toEqual(productionHook);
		const stagingHook = hooks.find((h) => h.id !== productionHook.id)!;
		expect((stagingHook.dispatchers as Array<{ url: string }>)[0].url).toBe(stagingUrl);
		const log = await waitFor("staging's log line", () => {
			const text = staging.output.join('');
			return text.includes('other webhook(s) in place') ? text : undefined;
		}, 60_000);
		expect(log).toContain(`webhook ${String(productionHook.id)}`);
		expect(log).toContain(`calls ${productionUrl}, not this node's URL ${stagingUrl}`);

		// A paid order: production's workflow runs.
		await staging.setupOwner(DEFAULT_OWNER);
		await axios.post(`${sim.url}/__sim/orders`, {});
		await waitFor("production's execution", async () => ((await production.executions(WORKFLOW_ID)).length > 0 ? true : undefined), 60_000);

		// Deactivating staging deletes staging's webhook only; production's still delivers.
		await staging.deactivate(WORKFLOW_ID);
		expect(sim.requestsTo('DELETE', /^\/webhooks\/delete\//).map((r) => r.path)).toEqual([`/webhooks/delete/${String(stagingHook.id)}`]);
		expect(await simWebhooks()).toEqual([productionHook]);
		const before = (await production.executions(WORKFLOW_ID)).length;
		await axios.post(`${sim.url}/__sim/orders`, {});
		await waitFor(
			'a second production execution',
			async () => ((await production.executions(WORKFLOW_ID)).length > before ? true : undefined),
			60_000,
		);
	}, 300_000);
});
