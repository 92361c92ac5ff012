/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The example workflows as shipped: the raw files of examples/workflows, imported byte for byte
 * into a real n8n 2.8.4 (as Import from File does) and executed against the simulator with the
 * demo's data. No placeholder is filled in; the settings the README explains keep their shipped
 * values, then the demo's values (a folder, a summary URL) are set as a user would.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import axios from 'axios';

import {
	DATA_CREDENTIAL_ID,
	DEMO_MONTH_MOVEMENTS,
	demoExamples,
	EXAMPLE_MONTH,
	EXAMPLE_MONTH_UTC,
	EXAMPLES_DIR,
	FINANCE_CSV_NODE,
	financeAsCsv,
	REFUNDS_WORKFLOW_ID,
	SAMPLE_VOUCHER_CODE,
	seedDemoData,
	SHOP_WORKFLOW_ID,
} from '../support/demo';
import { excelProblems } from '../support/helpers/ooxml';
import { readXlsx } from '../support/helpers/xlsx';
import { calcRendered, calcSheetsAsFods, pdftotextForTests, sofficeForTests } from '../support/libreoffice';
import type { ExecutedRun } from '../support/n8n-process';
import { nodeOutput, sleep, waitFor } from '../support/n8n-process';
import type { E2eSession } from './setup';
import { closeSession, dataCredential, INSTALL_TIMEOUT, openSession } from './setup';

const SHOP_ONCE_WORKFLOW_ID = 'spExampleShopOnce';
const SHOP_ONCE_WEBHOOK_ID = '4e8f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';

let ctx: E2eSession;
const soffice = sofficeForTests();
/** LibreOffice's CSV import: `;`, `"`, UTF-8, from line 1, pt-BR (decimal comma). */
const PT_BR_CSV = 'CSV:59,34,76,1,,1046';
/** Folders of this file's in the one n8n's file nodes may write to (set once the session is open). */
let filesDir = '';
let csvDir = '';
const FILES = readdirSync(EXAMPLES_DIR)
	.filter((f) => f.endsWith('.json'))
	.sort()
	.map((f) => path.join(EXAMPLES_DIR, f));

beforeAll(async () => {
	ctx = await openSession();
	filesDir = ctx.session.filesDir('sp-e2e-files-');
	csvDir = ctx.session.filesDir('sp-e2e-csv-');
	seedDemoData(ctx.sim);
	// The credential the examples name; a user picks their own after importing.
	await ctx.session.addCredentials([{ ...dataCredential(ctx.sim, DATA_CREDENTIAL_ID), name: 'Sales & Payments (simulator)' }]);
	await ctx.session.addWorkflowFiles(FILES);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await closeSession(ctx);
	for (const dir of [filesDir, csvDir]) if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Items of a node's first output, with their binary metadata. */
function outputItems(run: ExecutedRun | undefined, node: string): Array<{ json: Record<string, unknown>; binary?: Record<string, Record<string, unknown>> }> {
	return (run?.data.resultData.runData[node]?.[0]?.data?.main?.[0] ?? []) as never;
}

/** The movements of the example month in São Paulo, the example's time zone. */
function juneMovements(): Array<Record<string, unknown>> {
	const { businessId } = ctx.sim.credentials;
	const [from, to] = [Date.parse(EXAMPLE_MONTH_UTC.from), Date.parse(EXAMPLE_MONTH_UTC.to)];
	return ctx.sim.state.col('movements').filter((m) => m._businessId === businessId && Date.parse(String(m.createdAt)) >= from && Date.parse(String(m.createdAt)) < to);
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The columns the example chooses, under their names. */
const HEADERS = ['Data', 'Tipo', 'Assunto', 'Descrição', 'Valor (R$)', 'Origem', 'Referência', 'ID do movimento'];

describe('the example files', () => {
	it('hold no placeholder: every {{ }} is an n8n expression', () => {
		expect(FILES.map((f) => path.basename(f))).toEqual([
			'1-finance-movements.json',
			'2-marketing-redeem-voucher.json',
			'3-shop-order-paid.json',
			'4-finance-refund-requests.json',
			'5-shop-fulfil-once.json',
			'6-agent-sales-assistant.json',
		]);
		for (const file of FILES) {
			const text = readFileSync(file, 'utf8');
			expect({ file, placeholders: text.match(/\{\{\s*[A-Z_]+\s*\}\}/g) ?? [] }).toEqual({ file, placeholders: [] });
			const workflow = JSON.parse(text) as { nodes: Array<{ parameters: Record<string, unknown> }> };
			const strings = JSON.stringify(workflow.nodes.map((n) => n.parameters)).match(/"[^"]*\{\{[^"]*"/g) ?? [];
			for (const s of strings) expect(s.startsWith('"=')).toBe(true);
		}
	});
});

describe('the raw example files in real n8n 2.8.4', () => {
	it('finance: pages through every movement of the São Paulo month into one Excel file that adds up (no folder set: nothing written)', async () => {
		ctx.sim.clearRequests();
		const run = await ctx.session.runOk('spExampleFinance');
		const expected = juneMovements().length;
		expect(expected).toBeGreaterThanOrEqual(DEMO_MONTH_MOVEMENTS);
		// One item: the file, with what it holds; its name follows the Output (Excel by default).
		const [exported, ...more] = outputItems(run, 'Every movement of the month');
		expect(more).toHaveLength(0);
		expect(exported.json).toMatchObject({
			fileName: 'movements-2025-06.xlsx',
			records: expected,
			repeatedRecordsSkipped: 0,
			columns: ['createdAt', 'type', 'subject', 'description', 'value', 'originType', 'referenceId', 'id'],
			headers: HEADERS,
			fieldsNotFound: [],
			totals: { count: expected },
			reconciled: true,
		});
		expect(exported.json).not.toHaveProperty('fileNameNote');
		expect(exported.binary?.data).toMatchObject({ fileName: 'movements-2025-06.xlsx', fileExtension: 'xlsx', mimeType: XLSX_MIME });
		// Oldest First at 250 per page: the month read in date windows within its range in São Paulo (UTC-3),
		// about twice the pages of As Listed, and one request of one record for the month's figures.
		const requests = ctx.sim.requestsTo('POST', '/movement/filter');
		const needed = Math.ceil(expected / 250);
		expect(requests.length).toBeGreaterThanOrEqual(needed);
		expect(requests.length).toBeLessThanOrEqual(2 * needed + 4);
		expect(exported.json.pages).toBe(requests.length);
		for (const r of requests) {
			expect(['250', '1']).toContain(r.query.limit);
			const { initialDate, endDate } = r.body as { initialDate: string; endDate: string };
			expect(initialDate >= '2025-06-01T03:00:00.000Z' && endDate <= '2025-07-01T02:59:59.999Z' && initialDate <= endDate).toBe(true);
		}
		expect(requests.filter((r) => r.query.limit === '1').map((r) => r.body)).toContainEqual({ initialDate: '2025-06-01T03:00:00.000Z', endDate: '2025-07-01T02:59:59.999Z' });
		// It adds up: on to the folder check, which finds no folder.
		expect(outputItems(run, 'Adds up?')).toHaveLength(1);
		expect(run?.data.resultData.runData['Stop: the file does not add up']).toBeUndefined();
		expect(run?.data.resultData.runData['Write the file']).toBeUndefined();
	});

	it('marketing: Execute redeems the sample code once; a second run answers that it is used', async () => {
		ctx.sim.clearRequests();
		const first = await ctx.session.runOk('spExampleMarketing');
		const [redeemed] = nodeOutput(first, 'Redeem it');
		expect(redeemed).toMatchObject({ code: SAMPLE_VOUCHER_CODE, status: 'redeemed' });
		expect(ctx.sim.requestsTo('GET', `/vouchers/voucher-code/${SAMPLE_VOUCHER_CODE}`)).toHaveLength(1);
		expect(ctx.sim.requestsTo('PATCH', /^\/vouchers\/redeem\//)).toHaveLength(1);
		const second = await ctx.session.runOk('spExampleMarketing');
		expect(nodeOutput(second, 'Redeemed')).toHaveLength(0);
		expect(nodeOutput(second, 'Not redeemed')).toHaveLength(1);
		expect(ctx.sim.requestsTo('PATCH', /^\/vouchers\/redeem\//)).toHaveLength(2);
	});

	it("finance with the demo's folder setting writes the .xlsx with the chosen columns (read back by exceljs, a valid workbook)", async () => {
		await ctx.session.addWorkflows(demoExamples(ctx.sim, filesDir).filter((w) => w.id === 'spExampleFinance'));
		const run = await ctx.session.runOk('spExampleFinance');
		expect(nodeOutput(run, 'Write the file')).toHaveLength(1);
		const file = path.join(filesDir, 'movements-2025-06.xlsx');
		expect(existsSync(file)).toBe(true);
		expect(excelProblems(readFileSync(file))).toEqual([]);
		const june = juneMovements();
		const [sheet] = await readXlsx(readFileSync(file));
		expect({ name: sheet.name, frozen: sheet.frozenRows, header: sheet.rows[0] }).toEqual({ name: 'Movimentos', frozen: 1, header: HEADERS });
		expect(sheet.rows).toHaveLength(june.length + 1);
	}, 300_000);

	it('finance as CSV (the Excel node disabled, the CSV node enabled): a ; CSV for Excel in Brazil, with a byte order mark, named .csv', async () => {
		const [finance] = demoExamples(ctx.sim, csvDir).filter((w) => w.id === 'spExampleFinance');
		await ctx.session.addWorkflows([financeAsCsv(finance)]);
		const run = await ctx.session.runOk('spExampleFinance');
		const [exported] = outputItems(run, FINANCE_CSV_NODE);
		expect(exported.binary?.data).toMatchObject({ fileName: 'movements-2025-06.csv', fileExtension: 'csv', mimeType: 'text/csv' });
		const text = readFileSync(path.join(csvDir, 'movements-2025-06.csv'), 'utf8');
		expect(text.startsWith(`\uFEFF${HEADERS.join(';')}\r\n`)).toBe(true);
		const june = juneMovements();
		expect(text.trimEnd().split('\r\n')).toHaveLength(june.length + 1);
	}, 300_000);

	(soffice.path ? describe : describe.skip)(`LibreOffice Calc headless${soffice.path ? '' : ` (skipped: ${soffice.reason})`}`, () => {
		it('opens the finance .xlsx: the chosen columns, the dates date cells of the São Paulo month, the amounts numbers', async () => {
			const june = juneMovements();
			const rows = [...(await calcSheetsAsFods(soffice.path!, path.join(filesDir, 'movements-2025-06.xlsx'))).values()][0];
			expect(rows[0].map((c) => c.value)).toEqual(HEADERS);
			const body = rows.slice(1);
			expect(body).toHaveLength(june.length);
			// Oldest first: June 1 at the top.
			const dates = body.map((row) => row[0].value);
			expect(dates.every((d, k) => k === 0 || d >= dates[k - 1])).toBe(true);
			const byId = new Map(june.map((m) => [String(m.id), m]));
			for (const row of body) {
				const movement = byId.get(row[7].value)!;
				expect(movement).toBeDefined();
				// The wall time in São Paulo (UTC-3), a date cell, to the second.
				const wall = new Date(Date.parse(String(movement.createdAt)) - 3 * 3_600_000).toISOString().slice(0, 19);
				expect([row[0], row[0].value.slice(0, 7)]).toEqual([{ type: 'date', value: wall }, EXAMPLE_MONTH]);
				expect(row[4]).toEqual({ type: 'float', value: String(Number(movement.valueInCents) / 100) });
				expect(row[1]).toEqual({ type: 'string', value: movement.type });
			}
		});

		it('prints the finance .xlsx readable: no ### (every date and amount fits its column), the dates whole, oldest first', async () => {
			const pdftotext = pdftotextForTests();
			if (!pdftotext.path) throw new Error(`cannot read what Calc prints: ${pdftotext.reason}`);
			const printed = await calcRendered(soffice.path!, pdftotext.path, path.join(filesDir, 'movements-2025-06.xlsx'));
			const lines = printed.split('\n');
			expect(lines.filter((line) => line.includes('###')).slice(0, 3)).toEqual([]);
			// Whole date-times as the cells show them (yyyy-mm-dd hh:mm:ss), June's first ones first.
			const dates = [...printed.matchAll(/\b2025-0[67]-\d\d \d\d:\d\d:\d\d\b/g)].map((m) => m[0]);
			expect(dates.length).toBeGreaterThanOrEqual(juneMovements().length);
			expect(dates[0].startsWith('2025-06-01')).toBe(true);
			// Amounts with two decimals, never cut.
			expect(printed).toMatch(/-?\d+\.\d\d\b/);
		});

		it('opens the ; CSV in pt-BR: the amounts numbers whose sum is the month\'s, the dates dates', async () => {
			const june = juneMovements();
			const rows = [...(await calcSheetsAsFods(soffice.path!, path.join(csvDir, 'movements-2025-06.csv'), PT_BR_CSV)).values()][0];
			expect(rows[0].map((c) => c.value)).toEqual(HEADERS);
			const body = rows.slice(1);
			expect(body).toHaveLength(june.length);
			expect(body.map((r) => r[4].type).filter((t) => t !== 'float')).toEqual([]);
			expect(body.map((r) => r[0].type).filter((t) => t !== 'date')).toEqual([]);
			expect(Math.round(body.reduce((sum, r) => sum + Number(r[4].value), 0) * 100)).toBe(june.reduce((sum, m) => sum + Number(m.valueInCents), 0));
		});
	});

	it('finance stops before writing a file that does not add up: a value changed while the list is read', async () => {
		const stopDir = ctx.session.filesDir('sp-e2e-stop-');
		await ctx.session.addWorkflows(demoExamples(ctx.sim, stopDir).filter((w) => w.id === 'spExampleFinance'));
		// When the month's figures are asked for (one record: every movement is written by then), the oldest
		// movement gets R$ 1,00 more: the sum written no longer matches totalValue.
		const first = [...juneMovements()].sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)))[0];
		let changed = false;
		ctx.sim.onRequest = (request) => {
			if (changed || request.path !== '/movement/filter' || request.query.limit !== '1') return;
			changed = true;
			first.valueInCents = Number(first.valueInCents) + 100;
			// The simulator keeps its last answers by the collection's length and last id: a record of another business makes it look again.
			ctx.sim.state.col('movements').push({ id: `elsewhere-${Date.now()}`, _businessId: 'another-business', createdAt: new Date(0).toISOString() });
		};
		try {
			const { run } = await ctx.session.run('spExampleFinance');
			expect(changed).toBe(true);
			expect(run?.status).toBe('error');
			const [exported] = outputItems(run, 'Every movement of the month');
			expect(exported.json).toMatchObject({ reconciled: false });
			expect((exported.json.reconciliation as { reasons: string[] }).reasons).toEqual([expect.stringMatching(/^the valueInCents written add up to [\d,]+, the platform's totalValue is [\d,]+ \(-100\)/)]);
			const error = run?.data.resultData.runData['Stop: the file does not add up']?.[0]?.error as { message?: string } | undefined;
			expect(error?.message).toMatch(/^The file movements-2025-06\.xlsx does not add up to the platform's totals, so it was not written: the valueInCents written add up to/);
			expect(run?.data.resultData.runData['Write the file']).toBeUndefined();
			expect(readdirSync(stopDir)).toEqual([]);
		} finally {
			ctx.sim.onRequest = undefined;
			first.valueInCents = Number(first.valueInCents) - 100;
		}
	}, 300_000);

	it('shop and refunds: activated as shipped, a paid order and a refund request run them to their message; nothing is posted without a summary URL', async () => {
		ctx.sim.clearRequests();
		// Activated as the editor's toggle does (the files as shipped: no summary URL).
		await ctx.n8n.activate(SHOP_WORKFLOW_ID);
		await ctx.n8n.activate(REFUNDS_WORKFLOW_ID);
		const deadline = Date.now() + 60_000;
		while (Date.now() < deadline && ctx.sim.requestsTo('POST', '/webhooks').length === 0) await sleep(250);
		expect(ctx.sim.requestsTo('POST', '/webhooks')).toHaveLength(1);

		// The marketing file kept its pinned sample (Execute workflow in the editor uses it).
		const marketing = await ctx.n8n.rest<{ data: { pinData?: Record<string, Array<{ json: { body: { code: string } } }>> } }>(
			'GET',
			'/workflows/spExampleMarketing',
		);
		expect(marketing.data.data.pinData?.['Voucher form']?.[0].json.body.code).toBe(SAMPLE_VOUCHER_CODE);

		const created = await axios.post(`${ctx.sim.url}/__sim/orders`, { valueInCents: 4959 });
		const orderId = (created.data as { order: { id: string } }).order.id;
		let execution: { id: string; status: string } | undefined;
		while (Date.now() < deadline + 30_000 && !execution) {
			const [latest] = await ctx.n8n.executions(SHOP_WORKFLOW_ID);
			if (latest && latest.status !== 'running' && latest.status !== 'new') execution = latest;
			else await sleep(250);
		}
		expect(execution?.status).toBe('success');
		const detail = await ctx.n8n.rest<{ data: { data: string } }>('GET', `/executions/${String(execution?.id)}`);
		expect(detail.data.data.data).toContain(`Order ${orderId} paid by Demo Buyer: 49.59`);
		expect(detail.data.data.data).not.toContain('"Post the summary"');
		expect((await axios.get(`${ctx.sim.url}/__sim/inbox`)).data).toEqual([]);
		expect(ctx.sim.requestsTo('GET', `/orders/${orderId}`)).toHaveLength(1);

		// The polling trigger polls on the minute: a refund request made now is picked up by the next poll.
		const refund = (await axios.post(`${ctx.sim.url}/__sim/records/refunds`, { motive: 'Purchased by mistake', valueInCents: 4990 })).data as {
			record: { id: string };
		};
		let refundRun: { id: string; status: string } | undefined;
		const refundDeadline = Date.now() + 90_000;
		while (Date.now() < refundDeadline && !refundRun) {
			const [latest] = await ctx.n8n.executions(REFUNDS_WORKFLOW_ID);
			if (latest && latest.status !== 'running' && latest.status !== 'new') refundRun = latest;
			else await sleep(500);
		}
		expect(refundRun?.status).toBe('success');
		const refundDetail = await ctx.n8n.rest<{ data: { data: string } }>('GET', `/executions/${String(refundRun?.id)}`);
		expect(refundDetail.data.data.data).toContain(refund.record.id);
		expect(refundDetail.data.data.data).toContain('New refund request: 49.90 for ');
		expect(refundDetail.data.data.data).not.toContain('"Message the finance team"');
		expect((await axios.get(`${ctx.sim.url}/__sim/inbox`)).data).toEqual([]);
	}, 300_000);

	it('shop, fulfil once: each paid order fulfilled once, whether its notification comes twice, never comes (the catch-up poll), or both', async () => {
		await ctx.n8n.activate(SHOP_ONCE_WORKFLOW_ID);
		const url = `${ctx.n8n.baseUrl}/webhook/${SHOP_ONCE_WEBHOOK_ID}/webhook`;
		const webhook = await waitFor('its webhook', () => ctx.sim.state.col('webhooks').find((w) => (w.dispatchers as Array<{ url: string }>)[0].url === url));
		const secret = (webhook.dispatchers as Array<{ headers: Record<string, string> }>)[0].headers['x-sp-webhook-secret'];

		// A paid order, notified by the webhook; then the same notification again, byte for byte.
		const delivered = ((await axios.post(`${ctx.sim.url}/__sim/orders`, { valueInCents: 2590 })).data as { order: { id: string } }).order.id;
		await ctx.sim.settle();
		const [first] = (ctx.sim.state.col('webhookDeliveries') as Array<{ url: string; event: string; body: string }>).filter((d) => d.url === url && d.event === 'order.paid');
		const again = await axios.post(url, first.body, { headers: { 'content-type': 'application/json', 'x-sp-webhook-secret': secret } });
		expect(again.data).toEqual({ received: true, ignored: 'Duplicate delivery' });

		// A paid order whose notification never came (n8n answered "starting up" during a restart),
		// and the platform's sales of both orders: the poll brings them the next minute.
		const lost = { id: ctx.sim.state.id(), businessId: ctx.sim.credentials.businessId, status: 'paid', date: ctx.sim.state.clock.iso(), paidAt: ctx.sim.state.clock.iso() };
		ctx.sim.state.col('orders').push({ ...lost, orderBuyer: { name: 'Late Buyer', email: 'late@mail.example' }, items: [], payments: [{ method: 'pix', numberInstallments: 1, valueInCents: 1000 }] });
		for (const orderId of [delivered, lost.id]) await axios.post(`${ctx.sim.url}/__sim/records/sales`, { orderId, status: 'paid', valueInCents: 1000 });

		const fulfilled = async () => {
			const runs = await ctx.n8n.executions(SHOP_ONCE_WORKFLOW_ID);
			const out: Array<{ orderId: string; via: string }> = [];
			for (const run of runs) {
				const detail = await ctx.n8n.rest<{ data: { data: string; status: string } }>('GET', `/executions/${run.id}`);
				for (const id of [delivered, lost.id]) {
					if (detail.data.data.data.includes(`Fulfil order ${id}`)) out.push({ orderId: id, via: detail.data.data.data.includes('"poll"') ? 'poll' : 'webhook' });
				}
			}
			return { runs: runs.length, out };
		};
		// The webhook's run, and the poll's run of the two sales (one minute at most).
		const done = await waitFor('the catch-up poll', async () => {
			const now = await fulfilled();
			return now.out.some((f) => f.orderId === lost.id) ? now : undefined;
		}, 90_000);
		expect(done.out.sort((a, b) => a.orderId.localeCompare(b.orderId))).toEqual(
			[
				{ orderId: delivered, via: 'webhook' },
				{ orderId: lost.id, via: 'poll' },
			].sort((a, b) => a.orderId.localeCompare(b.orderId)),
		);
		// Nothing posted without a fulfilment URL.
		expect((await axios.get(`${ctx.sim.url}/__sim/inbox`)).data).toEqual([]);
		await ctx.n8n.deactivate(SHOP_ONCE_WORKFLOW_ID);
	}, 300_000);
});
