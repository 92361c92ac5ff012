/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The demo as a newcomer gets it, in a real n8n 2.8.4: the package loads, the credential test
 * works, the shop workflow's trigger registers its webhook on activation, runs on order.paid,
 * refuses forged deliveries, and deletes its webhook on deactivation (20 cycles leave none).
 * Then headless Chromium opens the editor and checks what a user sees of the nodes.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import axios from 'axios';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import type { Demo } from '../support/demo';
import { DATA_CREDENTIAL_ID, SAMPLE_VOUCHER_CODE, SHOP_WORKFLOW_ID, startDemo } from '../support/demo';
import { chromiumForTests } from '../support/chromium';
import { startElsewhere } from '../support/simulator/elsewhere';
import { readSchemaFile, schemaFiles } from '../support/schemas/files';
import { REPO_DIR } from '../support/n8n-install';
import { DEFAULT_OWNER, sleep, waitFor } from '../support/n8n-process';
import { INSTALL_TIMEOUT } from './setup';

const SECRET_HEADER = 'x-sp-webhook-secret';
const SHOP_TRIGGER_WEBHOOK_ID = '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f';

let demo: Demo;
/** Temporary folders the demo's start made and left (the tarball it packed is to be gone once unpacked). */
let leftByStart: string[] = [];

/**
 * The temporary folder while the demo starts: one of this file's own, so that what other test
 * files make there meanwhile (jest runs two side by side) is not taken for what the start left.
 */
const startTmp = mkdtempSync(path.join(os.tmpdir(), 'sp-demo-tmp-'));

beforeAll(async () => {
	const outer = process.env.TMPDIR;
	process.env.TMPDIR = startTmp;
	try {
		demo = await startDemo({
			port: 0,
			simulatorPort: 0,
			orderEverySeconds: 0,
			dataDir: mkdtempSync(path.join(os.tmpdir(), 'sp-demo-test-')),
			skipBuild: true,
			log: () => undefined,
		});
	} finally {
		if (outer === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = outer;
	}
	leftByStart = readdirSync(startTmp).filter((name) => !name.startsWith('sp-demo-test-'));
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await demo?.stop();
	rmSync(startTmp, { recursive: true, force: true });
}, 60_000);

function simWebhooks(): Promise<Array<Record<string, unknown>>> {
	return axios.get(`${demo.sim.url}/__sim/webhooks`).then((r) => r.data as Array<Record<string, unknown>>);
}

describe('demo in a real n8n 2.8.4', () => {
	it('leaves no packed tarball in the temporary folder once started (the rest goes with `npm run demo`\'s own folder: temp-cleanup.test.ts)', () => {
		expect(leftByStart.filter((name) => name.startsWith('sp-pack-'))).toEqual([]);
	});

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

	it('serves the schema preview of every operation of the installed package (GET /schemas/...), and 404 for none', async () => {
		const url = (node: string, file: string) => `${demo.n8n.baseUrl}/schemas/n8n-nodes-sales-payments.${node}/${file}`;
		const files = [...schemaFiles().keys()];
		expect(files.length).toBeGreaterThanOrEqual(52);
		for (const file of files) {
			// v1.0.0/order/createCharge.json -> /schemas/<package>.salesPayments/1.0.0/order/createCharge.json
			const res = await axios.get(url('salesPayments', file.slice(1)), { validateStatus: () => true });
			expect({ file, status: res.status, type: String(res.headers['content-type']) }).toEqual({ file, status: 200, type: expect.stringContaining('json') });
			expect(res.data).toEqual(JSON.parse(readSchemaFile(file)));
		}
		for (const missing of [url('salesPayments', '1.0.0/order/refund.json'), url('salesPayments', '2.0.0/order/createCharge.json'), url('salesPaymentsTrigger', '2.0.0.json')]) {
			expect({ missing, status: (await axios.get(missing, { validateStatus: () => true })).status }).toEqual({ missing, status: 404 });
		}
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

// Resolved while jest collects tests, so a missing browser shows as a skip with its reason. The
// e2e global setup installed it if it could (test/e2e/global-setup.ts).
const browser = chromiumForTests();
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

/** Where the editor test saves its screenshots (listed in the closing note of issue 14). */
const OUT_DIR = path.join(REPO_DIR, 'test-output');
/** Order › Create Charge of one pix payment, as the editor tests open it. */
const PIX_CHARGE = {
	resource: 'order',
	operation: 'createCharge',
	buyerName: 'Maria Silva',
	buyerEmail: 'maria@mail.example',
	items: { item: [{ name: 'Sourdough Masterclass', quantity: 1, priceInCents: 4990 }] },
	payments: { payment: [{ method: 'pix', valueInCents: 4990 }] },
};
const DEMO_CREDENTIAL = { salesPaymentsApi: { id: DATA_CREDENTIAL_ID, name: 'Sales & Payments (simulator)' } };
/** A real 1x1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

(browser.path ? describe : describe.skip)(
	browser.path ? 'the nodes in the n8n editor (headless Chromium)' : `the nodes in the n8n editor: SKIPPED, ${browser.reason}`,
	() => {
		let instance: Browser;
		let page: Page;
		let browserId = '';

		beforeAll(async () => {
			mkdirSync(OUT_DIR, { recursive: true });
			instance = await chromium.launch({ executablePath: browser.path, args: ['--no-sandbox'] });
			page = await instance.newPage({ viewport: { width: 1400, height: 1100 } });
			await page.goto(`${demo.n8n.baseUrl}/signin`);
			await page.fill('input[name=emailOrLdapLoginId]', DEFAULT_OWNER.email);
			await page.fill('input[name=password]', DEFAULT_OWNER.password);
			await page.click('[data-test-id=form-submit-button]');
			await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
			// The editor's own requests carry this id with the session cookie; ours do too.
			browserId = String(await page.evaluate('localStorage.getItem("n8n-browserId")'));
		}, 90_000);

		afterAll(async () => {
			await instance?.close();
		});

		const shot = async (name: string) => await page.screenshot({ path: path.join(OUT_DIR, name) });
		const nodes = () => page.locator('[data-test-id=canvas-node]');
		const visibleOptions = async () =>
			(await page.locator('.el-select-dropdown__item:visible').allTextContents()).map((t) => t.trim());

		/** Saves a workflow through n8n's REST API (as the editor does) and opens it. */
		async function openWorkflow(name: string, workflowNodes: Array<Record<string, unknown>>, connections: Record<string, unknown> = {}) {
			const res = await page.request.post(`${demo.n8n.baseUrl}/rest/workflows`, {
				data: { name, nodes: workflowNodes, connections, settings: { executionOrder: 'v1' } },
				headers: { 'browser-id': browserId },
			});
			expect(res.status()).toBe(200);
			const { data } = (await res.json()) as { data: { id: string } };
			await page.goto(`${demo.n8n.baseUrl}/workflow/${data.id}`);
			await nodes().first().waitFor({ timeout: 30_000 });
		}

		async function openNode(name: string, waitFor: string) {
			await nodes().filter({ hasText: name }).first().dblclick();
			await page.locator(`[data-test-id=${waitFor}]`).first().waitFor({ timeout: 15_000 });
		}

		async function closeNode() {
			await page.locator('[data-test-id=ndv-close-button]').click();
			await page.locator('[data-test-id=ndv]').waitFor({ state: 'hidden' }).catch(() => undefined);
		}

		const action = (name: string, parameters: Record<string, unknown>, position: [number, number]) => ({
			id: `${name}-${position.join('-')}`,
			name,
			type: 'n8n-nodes-sales-payments.salesPayments',
			typeVersion: 1,
			position,
			parameters,
			credentials: DEMO_CREDENTIAL,
		});
		const start = { id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };

		it('the shop workflow: trigger events, every resource described in the Resource list, readable subtitles', async () => {
			await page.goto(`${demo.n8n.baseUrl}/workflow/${SHOP_WORKFLOW_ID}`);
			await nodes().first().waitFor({ timeout: 30_000 });
			await shot('editor-canvas.png');
			const texts = await nodes().allTextContents();
			expect(texts).toEqual(expect.arrayContaining([expect.stringContaining('Order paid'), expect.stringContaining('Get the order')]));
			// The subtitle as people read it, not the values ("get: order").
			expect(texts.find((t) => t.includes('Get the order'))).toContain('Get: Order');

			await openNode('Order paid', 'parameter-input-events');
			expect(await page.locator('[data-test-id=parameter-input-events]').textContent()).toContain('Order Paid');
			await closeNode();

			await openNode('Get the order', 'parameter-input-resource');
			await page.locator('[data-test-id=parameter-input-resource]').click();
			await page.locator('.el-select-dropdown__item:visible').first().waitFor();
			const listed = await visibleOptions();
			for (const name of RESOURCES) {
				const entry = listed.find((t) => t.startsWith(name));
				// Every resource has a description after its name.
				expect({ name, described: (entry ?? '').length > name.length + 10 }).toEqual({ name, described: true });
			}
			await shot('editor-resources.png');
			await page.locator('.el-select-dropdown__item:visible').filter({ hasText: /^Voucher/ }).first().click();
			await page.locator('[data-test-id=parameter-input-operation]').click();
			await page.waitForTimeout(500);
			const operations = await visibleOptions();
			for (const name of ['Cancel Redemption', 'Get by Code', 'Redeem']) expect(operations.some((t) => t.startsWith(name))).toBe(true);
			await shot('editor-node-panel.png');
			await page.keyboard.press('Escape');
			// Leave the demo's workflow as it was.
			await page.goto(`${demo.n8n.baseUrl}/home/workflows`);
		}, 120_000);

		it("the node picker's entry describes the action node, with the trigger's events among its actions", async () => {
			await page.goto(`${demo.n8n.baseUrl}/workflow/new`);
			await page.locator('[data-test-id=node-creator-plus-button]').click();
			await page.locator('[data-test-id=node-creator-search-bar]').waitFor();
			await page.keyboard.type('Sales & Payments');
			const entry = page.locator('[data-test-id=item-iterator-item]').filter({ hasText: 'Sales & Payments' }).first();
			await entry.waitFor();
			await entry.click();
			const details = page.locator('[data-test-id=node-creator]');
			await details.getByText('On order paid').waitFor();
			const text = await details.innerText();
			expect(text).toContain(
				'Products, subscriptions, refunds, orders, charges, customers, payment links, pixels, vouchers, financials, webhooks and identity of the Sales & Payments Platform',
			);
			expect(text).not.toContain('Starts the workflow when');
			await shot('editor-node-picker.png');
			await page.keyboard.press('Escape');
		}, 60_000);

		it('Create Charge: required item fields first, the payment method a list, the card only for card methods, the payment link a locator', async () => {
			await openWorkflow(
				'Editor: Create Charge',
				[
					start,
					action(
						'Charge',
						PIX_CHARGE,
						[300, 0],
					),
				],
				{ Start: { main: [[{ node: 'Charge', type: 'main', index: 0 }]] } },
			);
			expect(await nodes().allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Create Charge: Order')]));
			await openNode('Charge', 'fixed-collection-payments');
			const items = page.locator('[data-test-id=fixed-collection-items]');
			const labels = (await items.locator('[data-test-id=input-label]').allInnerTexts()).map((t) => t.trim().split('\n')[0]);
			expect(labels.slice(0, 3)).toEqual(['Name', 'Quantity', 'Price in Cents']);
			expect(await items.locator('[data-test-id=resource-locator-paymentLinkId]').count()).toBe(1);
			await page.locator('[data-test-id=resource-locator-paymentLinkId]').scrollIntoViewIfNeeded();
			await shot('editor-create-charge-item.png');

			// Pix: no card fields.
			expect(await page.locator('[data-test-id=fixed-collection-creditCard]').count()).toBe(0);
			await page.locator('[data-test-id=parameter-input-method]').click();
			await page.locator('.el-select-dropdown__item:visible').first().waitFor();
			expect(await visibleOptions()).toEqual(['Bank Billet', 'Credit Card', 'Crypto', 'Debit Card', 'Pix']);
			await shot('editor-create-charge-methods.png');
			await page.locator('.el-select-dropdown__item:visible').filter({ hasText: /^Credit Card$/ }).click();
			await page.locator('[data-test-id=fixed-collection-creditCard]').waitFor();
			await page.locator('[data-test-id=fixed-collection-creditCard]').scrollIntoViewIfNeeded();
			await shot('editor-create-charge-card.png');
			await closeNode();
		}, 120_000);

		it("the schema preview: before anything ran, the next node's input panel shows Create Charge's fields", async () => {
			const chargesBefore = demo.sim.requestsTo('POST', '/orders/create-charge').length;
			await openWorkflow(
				'Editor: schema preview',
				[
					start,
					action(
						'Charge',
						PIX_CHARGE,
						[300, 0],
					),
					action('Get the order', { resource: 'order', operation: 'get', orderId: '={{ $json.orderId }}' }, [600, 0]),
				],
				{
					Start: { main: [[{ node: 'Charge', type: 'main', index: 0 }]] },
					Charge: { main: [[{ node: 'Get the order', type: 'main', index: 0 }]] },
				},
			);
			await openNode('Get the order', 'parameter-input-orderId');
			const input = page.locator('[data-test-id=ndv-input-panel]');
			await input.locator('[data-test-id=schema-preview-warning]').waitFor({ timeout: 20_000 });
			const fields = await waitFor('the previewed fields', async () => {
				const names = (await input.locator('[data-test-id=run-data-schema-item]').allInnerTexts()).map((t) => t.trim());
				return names.some((n) => n.includes('orderId')) ? names : undefined;
			});
			expect(fields.join(' ')).toContain('orderId');
			expect(await input.innerText()).toContain('Usually outputs the following fields');
			await shot('editor-schema-preview.png');
			// Nobody was charged to see the fields.
			expect(demo.sim.requestsTo('POST', '/orders/create-charge').length).toBe(chargesBefore);
			await closeNode();
		}, 90_000);

		it('Redeem and Cancel Redemption open with the 15-minute notice', async () => {
			await openWorkflow('Editor: vouchers', [
				start,
				action('Redeem', { resource: 'voucher', operation: 'redeem' }, [300, -150]),
				action('Cancel', { resource: 'voucher', operation: 'cancelRedemption' }, [300, 150]),
			]);
			for (const [node, file, words] of [
				['Redeem', 'editor-voucher-redeem.png', 'a redeemed voucher cannot be used again'],
				['Cancel', 'editor-voucher-cancel-redemption.png', 'after that the redemption cannot be undone'],
			]) {
				await openNode(node, 'parameter-input-voucherId');
				const panel = await page.locator('[data-test-id=node-parameters]').innerText();
				expect(panel).toContain(words);
				expect(panel.indexOf('15 minutes')).toBeLessThan(panel.indexOf('Voucher ID'));
				await shot(file);
				await closeNode();
			}
		}, 90_000);

		it('the finance example as shipped: Execute exports 3,000+ movements to one Excel file that adds up; Date From / Date To, decimal amounts and the chosen columns', async () => {
			await page.goto(`${demo.n8n.baseUrl}/workflow/spExampleFinance`);
			await nodes().first().waitFor({ timeout: 30_000 });
			const before = demo.sim.requestsTo('POST', '/movement/filter').length;
			await page.locator('[data-test-id=execute-workflow-button]').click();
			const writer = nodes().filter({ hasText: 'Write the file' });
			await waitFor('the file written', async () => (((await writer.textContent()) ?? '').includes('1 item') ? true : undefined), 60_000);
			await shot('editor-finance-run.png');
			expect(demo.sim.requestsTo('POST', '/movement/filter').length - before).toBeGreaterThanOrEqual(12);

			await openNode('Every movement of the month', 'parameter-input-decimalAmounts');
			// The panel renders its collections after the first field: wait for the date filters.
			const filters = await waitFor('the date filters in the panel', async () => {
				const text = await page.locator('[data-test-id=node-parameters]').innerText();
				return text.includes('Date From') && text.includes('Date To') ? text : undefined;
			}, 20_000);
			expect(filters.indexOf('Date From')).toBeGreaterThan(-1);
			expect(filters.indexOf('Date From')).toBeLessThan(filters.indexOf('Date To'));
			// One item: the Excel file and its summary (the file's rows are checked in examples.test.ts).
			await page.locator('[data-test-id=radio-button-json]').last().click();
			const count = await waitFor('the exported record count', async () => (await page.locator('[data-test-id=ndv]').innerText()).match(/"records":\s*(\d+)/)?.[1]);
			expect(Number(count)).toBeGreaterThanOrEqual(3000);
			expect(filters).toContain('Add Decimal Amounts');
			// Output is fixed to Excel: the file's fields and only Excel's options (the CSV variant is another node, disabled).
			expect(await page.locator('[data-test-id=parameter-input-output] input').first().inputValue()).toBe('Excel File (.xlsx)');
			expect(filters).toContain('Put Output File in Field');
			expect(filters).toContain('Columns');
			expect(filters).toContain('Sheet Name');
			for (const csvOnly of ['Delimiter', 'Add Byte Order Mark', 'Decimal Separator']) expect(filters).not.toContain(csvOnly);
			await shot('editor-finance-movements.png');
			await closeNode();
		}, 180_000);

		it('date filters read in order: Date From above Date To, Created After above Created Before', async () => {
			await openWorkflow('Editor: filters', [
				start,
				action('Movements', { resource: 'movement', operation: 'getMany' }, [300, -150]),
				action('Customers', { resource: 'customer', operation: 'getMany' }, [300, 150]),
			]);
			const addFilter = page.locator('[data-test-id=collection-parameter-add]').filter({ has: page.locator('input[placeholder="Add filter"]') });
			for (const [node, file, pairs] of [
				['Movements', 'editor-date-filters.png', [['Date From', 'Date To'], ['Value From (Cents)', 'Value To (Cents)']]],
				['Customers', 'editor-date-filters-customer.png', [['Created After', 'Created Before'], ['Updated After', 'Updated Before']]],
			] as const) {
				await openNode(node, 'parameter-input-operation');
				await addFilter.click();
				await page.locator('.el-select-dropdown__item:visible').first().waitFor();
				const options = await visibleOptions();
				for (const [from, to] of pairs) {
					expect({ from, listed: options.includes(from) }).toEqual({ from, listed: true });
					expect(options.indexOf(from)).toBeLessThan(options.indexOf(to));
				}
				expect(options).not.toContain('Initial Date');
				expect(options).not.toContain('End Date');
				await shot(file);
				await page.keyboard.press('Escape');
				await closeNode();
			}
		}, 90_000);

		it('the marketing example as shipped: Execute workflow uses the pinned sample code and redeems it', async () => {
			await page.goto(`${demo.n8n.baseUrl}/workflow/spExampleMarketing`);
			await nodes().first().waitFor({ timeout: 30_000 });
			const button = page.locator('[data-test-id=execute-workflow-button]');
			expect(await button.innerText()).toContain('Voucher form');
			await button.click();
			const redeemed = nodes().filter({ hasText: 'Redeemed' }).filter({ hasNotText: 'Not redeemed' });
			await waitFor('the redemption', async () => (((await redeemed.textContent()) ?? '').includes('1 item') ? true : undefined), 60_000);
			expect(demo.sim.requestsTo('GET', `/vouchers/voucher-code/${SAMPLE_VOUCHER_CODE}`).length).toBeGreaterThanOrEqual(1);
			await shot('editor-marketing-run.png');
		}, 120_000);

		it('Upload Image in the editor: a PNG made by Convert to File goes to the payment link', async () => {
			const link = demo.sim.state
				.col('paymentLinks')
				.find((l) => l._businessId === demo.sim.credentials.businessId && l.salesCount === 0 && !l.image)!;
			await openWorkflow(
				'Editor: Upload Image',
				[
					start,
					{
						id: 'pic',
						name: 'Picture',
						type: 'n8n-nodes-base.set',
						typeVersion: 3.4,
						position: [200, 0],
						parameters: { assignments: { assignments: [{ id: 'b', name: 'b64', value: PNG_BASE64, type: 'string' }] }, options: {} },
					},
					{
						id: 'file',
						name: 'To file',
						type: 'n8n-nodes-base.convertToFile',
						typeVersion: 1.1,
						position: [400, 0],
						parameters: { operation: 'toBinary', sourceProperty: 'b64', options: { fileName: 'cover.png', mimeType: 'image/png' } },
					},
					action(
						'Upload',
						{ resource: 'paymentLink', operation: 'uploadImage', paymentLinkId: { __rl: true, mode: 'id', value: link.id }, binaryPropertyName: 'data' },
						[600, 0],
					),
				],
				{
					Start: { main: [[{ node: 'Picture', type: 'main', index: 0 }]] },
					Picture: { main: [[{ node: 'To file', type: 'main', index: 0 }]] },
					'To file': { main: [[{ node: 'Upload', type: 'main', index: 0 }]] },
				},
			);
			await page.locator('[data-test-id=execute-workflow-button]').click();
			await waitFor('the upload', async () => (demo.sim.requestsTo('PATCH', `/payment-links/upload-image/${String(link.id)}`).length ? true : undefined), 60_000);
			expect(demo.sim.requestsTo('PATCH', `/payment-links/upload-image/${String(link.id)}`)).toHaveLength(1);
			const [req] = demo.sim.requestsTo('PATCH', `/payment-links/upload-image/${String(link.id)}`);
			expect(req.files[0].data.equals(Buffer.from(PNG_BASE64, 'base64'))).toBe(true);
			await openNode('Upload', 'parameter-input-binaryPropertyName');
			await waitFor('the image in the output', async () => ((await page.locator('[data-test-id=ndv]').innerText()).includes('cover.png') ? true : undefined));
			await shot('editor-upload-image.png');
			await closeNode();
		}, 120_000);
	},
);
