/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The demo as a newcomer gets it, in a real n8n 2.8.4: the package loads, the credential test
 * works, the shop workflow's trigger registers its webhook on activation, runs on order.paid,
 * refuses forged deliveries, and deletes its webhook on deactivation (20 cycles leave none).
 * Then headless Chromium opens the editor and checks what a user sees of the nodes.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import axios from 'axios';
import { chromium } from 'playwright-core';

import type { Demo } from '../support/demo';
import { DATA_CREDENTIAL_ID, SHOP_WORKFLOW_ID, startDemo } from '../support/demo';
import { ensureChromium } from '../support/chromium';
import { startElsewhere } from '../support/simulator/elsewhere';
import { DEFAULT_OWNER, REPO_DIR, sleep } from '../support/n8n';
import { INSTALL_TIMEOUT } from './setup';

const SECRET_HEADER = 'x-sp-webhook-secret';
const SHOP_TRIGGER_WEBHOOK_ID = '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f';

let demo: Demo;

beforeAll(async () => {
	demo = await startDemo({
		port: 0,
		simulatorPort: 0,
		orderEverySeconds: 0,
		dataDir: mkdtempSync(path.join(os.tmpdir(), 'sp-demo-test-')),
		skipBuild: true,
		log: () => undefined,
	});
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await demo?.stop();
}, 60_000);

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const value = await probe();
		if (value !== undefined) return value;
		await sleep(250);
	}
	throw new Error(`timed out waiting for ${what}`);
}

function simWebhooks(): Promise<Array<Record<string, unknown>>> {
	return axios.get(`${demo.sim.url}/__sim/webhooks`).then((r) => r.data as Array<Record<string, unknown>>);
}

describe('demo in a real n8n 2.8.4', () => {
	const productionUrl = () => `${demo.n8n.baseUrl}/webhook/${SHOP_TRIGGER_WEBHOOK_ID}/webhook`;

	it('activating the trigger registered one webhook: business, node URL, event, 32-byte secret', async () => {
		const creates = demo.sim.requestsTo('POST', '/webhooks');
		expect(creates).toHaveLength(1);
		const body = creates[0].body as {
			externalAccountId: string;
			events: string[];
			dispatchers: Array<{ type: string; method: string; url: string; headers: Record<string, string> }>;
		};
		expect(body.externalAccountId).toBe(demo.sim.credentials.businessId);
		expect(body.events).toEqual(['order.paid']);
		expect(body.dispatchers).toHaveLength(1);
		expect(body.dispatchers[0]).toMatchObject({ type: 'http', method: 'POST', url: productionUrl() });
		expect(body.dispatchers[0].headers[SECRET_HEADER]).toMatch(/^[0-9a-f]{64}$/);
		expect(creates[0].headers['business-id']).toBeUndefined();
		expect(await simWebhooks()).toHaveLength(1);
	});

	it('tests the credential through n8n: OK with the demo keys, the platform message with a wrong key', async () => {
		const base = { id: DATA_CREDENTIAL_ID, name: 'Sales & Payments (simulator)', type: 'salesPaymentsApi' };
		const ok = await demo.n8n.rest<{ data: { status: string; message: string } }>('POST', '/credentials/test', {
			credentials: { ...base, data: demo.sim.credentials },
		});
		expect(ok.data.data.status).toBe('OK');
		const bad = await demo.n8n.rest<{ data: { status: string; message: string } }>('POST', '/credentials/test', {
			credentials: { ...base, data: { ...demo.sim.credentials, apiKey: 'spk_wrong_for_test_42' } },
		});
		expect(bad.data.data.status).toBe('Error');
		expect(JSON.stringify(bad.data)).not.toContain('spk_wrong_for_test_42');
		expect(JSON.stringify(bad.data)).not.toContain(demo.sim.credentials.apiSecret);
	});

	it('the credential test does not follow a redirect to another origin with the keys', async () => {
		const elsewhere = await startElsewhere();
		try {
			demo.sim.addFault({ kind: 'redirect', status: 302, location: `${elsewhere.url}/business/balance`, path: '/business/balance', times: 1 });
			const base = { id: DATA_CREDENTIAL_ID, name: 'Sales & Payments (simulator)', type: 'salesPaymentsApi' };
			const moved = await demo.n8n.rest<{ data: { status: string; message: string } }>('POST', '/credentials/test', {
				credentials: { ...base, data: demo.sim.credentials },
			});
			expect(moved.data.data.status).toBe('Error');
			expect(elsewhere.requests).toEqual([]);
		} finally {
			demo.sim.faults.clear();
			await elsewhere.close();
		}
	});

	it('an order.paid on the platform runs the workflow: trigger, Get Order, summary posted', async () => {
		const before = (await demo.n8n.executions(SHOP_WORKFLOW_ID)).length;
		const created = await axios.post(`${demo.sim.url}/__sim/orders`, {});
		const orderId = (created.data as { order: { id: string } }).order.id;
		const execution = await waitFor('the shop execution', async () => {
			const list = await demo.n8n.executions(SHOP_WORKFLOW_ID);
			return list.length > before && list[0].status !== 'running' && list[0].status !== 'new' ? list[0] : undefined;
		});
		expect(execution.status).toBe('success');
		const detail = await demo.n8n.rest<{ data: { data: string } }>('GET', `/executions/${execution.id}`);
		expect(detail.data.data.data).toContain('order.paid');
		expect(detail.data.data.data).toContain(orderId);
		const inbox = (await axios.get(`${demo.sim.url}/__sim/inbox`)).data as Array<{ body: { orderId: string; status: string } }>;
		expect(inbox.map((m) => m.body.orderId)).toContain(orderId);
		expect(demo.sim.requestsTo('GET', `/orders/${orderId}`)).toHaveLength(1);
	});

	it('a forged or unsigned delivery gets 401 and starts no execution', async () => {
		const before = (await demo.n8n.executions(SHOP_WORKFLOW_ID)).length;
		const payload = { id: 'evt-forged', event: 'order.paid', data: { id: 'forged-order' } };
		const forged = await axios.post(productionUrl(), payload, {
			headers: { [SECRET_HEADER]: 'f'.repeat(64) },
			validateStatus: () => true,
		});
		expect(forged.status).toBe(401);
		const unsigned = await axios.post(productionUrl(), payload, { validateStatus: () => true });
		expect(unsigned.status).toBe(401);
		await sleep(2_000);
		expect((await demo.n8n.executions(SHOP_WORKFLOW_ID)).length).toBe(before);
		expect(demo.sim.requestsTo('GET', '/orders/forged-order')).toHaveLength(0);
	});

	it('deactivating through n8n deletes the webhook; 20 activate/deactivate cycles leave none', async () => {
		const [webhook] = await simWebhooks();
		await demo.n8n.deactivate(SHOP_WORKFLOW_ID);
		expect(demo.sim.requestsTo('DELETE', `/webhooks/delete/${String(webhook.id)}`)).toHaveLength(1);
		expect(await simWebhooks()).toHaveLength(0);

		const createsBefore = demo.sim.requestsTo('POST', '/webhooks').length;
		for (let cycle = 0; cycle < 20; cycle++) {
			await demo.n8n.activate(SHOP_WORKFLOW_ID);
			expect(await simWebhooks()).toHaveLength(1);
			await demo.n8n.deactivate(SHOP_WORKFLOW_ID);
		}
		expect(await simWebhooks()).toHaveLength(0);
		expect(demo.sim.requestsTo('POST', '/webhooks').length - createsBefore).toBe(20);
		// Leave it active again, as the demo has it.
		await demo.n8n.activate(SHOP_WORKFLOW_ID);
		expect(await simWebhooks()).toHaveLength(1);
	}, 180_000);
});

// Resolved while jest collects tests, so a missing browser shows as a skip with its reason.
const browser = ensureChromium((line) => process.stderr.write(`${line}\n`));
const RESOURCES = [
	'Business',
	'Commission',
	'Customer',
	'Identity',
	'Movement',
	'Offer',
	'Order',
	'Payment Link',
	'Pixel',
	'Product',
	'Refund',
	'Sale',
	'Subscription',
	'Voucher',
	'Webhook',
	'Withdraw Request',
];

(browser.path ? describe : describe.skip)(
	browser.path ? 'the nodes in the n8n editor (headless Chromium)' : `the nodes in the n8n editor: SKIPPED, ${browser.reason}`,
	() => {
		it('logs in, opens the shop workflow, lists every resource and the voucher operations, saves a screenshot', async () => {
			const instance = await chromium.launch({ executablePath: browser.path, args: ['--no-sandbox'] });
			try {
				const page = await instance.newPage({ viewport: { width: 1400, height: 900 } });
				await page.goto(`${demo.n8n.baseUrl}/signin`);
				await page.fill('input[name=emailOrLdapLoginId]', DEFAULT_OWNER.email);
				await page.fill('input[name=password]', DEFAULT_OWNER.password);
				await page.click('[data-test-id=form-submit-button]');
				await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });

				await page.goto(`${demo.n8n.baseUrl}/workflow/${SHOP_WORKFLOW_ID}`);
				const nodes = page.locator('[data-test-id=canvas-node]');
				await nodes.first().waitFor({ timeout: 30_000 });
				const outDir = path.join(REPO_DIR, 'test-output');
				mkdirSync(outDir, { recursive: true });
				await page.screenshot({ path: path.join(outDir, 'editor-canvas.png') });
				expect(await nodes.allTextContents()).toEqual(
					expect.arrayContaining([expect.stringContaining('Order paid'), expect.stringContaining('Get the order')]),
				);

				// The trigger's panel shows its events.
				await nodes.filter({ hasText: 'Order paid' }).dblclick();
				await page.locator('[data-test-id=parameter-input-events]').waitFor({ timeout: 15_000 });
				expect(await page.locator('[data-test-id=parameter-input-events]').textContent()).toContain('Order Paid');
				await page.keyboard.press('Escape');

				// The action node's panel lists every resource, and the operations of one.
				await nodes.filter({ hasText: 'Get the order' }).dblclick();
				const resource = page.locator('[data-test-id=parameter-input-resource]');
				await resource.waitFor({ timeout: 15_000 });
				await resource.click();
				const options = page.locator('.el-select-dropdown__item:visible');
				await options.first().waitFor();
				const listed = (await options.allTextContents()).map((t) => t.trim());
				for (const name of RESOURCES) expect(listed.some((t) => t.startsWith(name))).toBe(true);
				await options.filter({ hasText: /^Voucher/ }).first().click();
				await page.locator('[data-test-id=parameter-input-operation]').click();
				await page.waitForTimeout(500);
				const operations = (await page.locator('.el-select-dropdown__item:visible').allTextContents()).map((t) => t.trim());
				for (const name of ['Cancel Redemption', 'Get by Code', 'Redeem']) {
					expect(operations.some((t) => t.startsWith(name))).toBe(true);
				}
				await page.screenshot({ path: path.join(outDir, 'editor-node-panel.png') });
			} finally {
				await instance.close();
			}
		}, 120_000);
	},
);
