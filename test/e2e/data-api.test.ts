/**
 * Real n8n 2.8.4: the packed package loads as a community package, credentials import, and
 * workflows run through `n8n execute` against the simulator.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DATA_CREDENTIAL_ID, exampleValues, loadExamples, sampleVoucherCode } from '../support/demo';
import { nodeOutput } from '../support/n8n';
import { PRIMARY_BUSINESS_COUNT } from '../support/simulator/routes/00-accounts';
import type { E2eContext } from './setup';
import { dataCredential, INSTALL_TIMEOUT, manualWorkflow, prepareN8n, teardown } from './setup';

let ctx: E2eContext;
const filesDir = mkdtempSync(path.join(os.tmpdir(), 'sp-e2e-files-'));
let voucherCode = '';

beforeAll(async () => {
	ctx = await prepareN8n();
	const { n8n, sim } = ctx;
	n8n.extraEnv.N8N_RESTRICT_FILE_ACCESS_TO = filesDir;
	await n8n.importCredentials([
		dataCredential(sim, 'spGood'),
		dataCredential(sim, 'spBadKey', { apiKey: 'spk_e2e_wrong_key_777', apiSecret: 'sps_e2e_wrong_secret_888' }),
		{ ...dataCredential(sim, DATA_CREDENTIAL_ID), name: 'Sales & Payments (simulator)' },
	]);
	voucherCode = sampleVoucherCode(sim);
	// The example workflows the demo imports (the shop trigger is covered by demo.test.ts).
	await n8n.importWorkflows(loadExamples(exampleValues(sim, filesDir)).filter((w) => w.id !== 'spExampleShop'));
	await n8n.importWorkflows([
		manualWorkflow('wfBusiness', [
			{ name: 'Balance', parameters: { resource: 'business', operation: 'getBalance' }, credentialId: 'spGood' },
			{
				name: 'All Businesses',
				// One request at a time: the pages' arrival order is asserted below.
				parameters: { resource: 'business', operation: 'getMany', returnAll: true, pagination: { pageSize: 5, maxConcurrency: 1 } },
				credentialId: 'spGood',
			},
			{ name: 'Seven Businesses', parameters: { resource: 'business', operation: 'getMany', limit: 7 }, credentialId: 'spGood' },
		]),
		manualWorkflow('wfBadKey', [
			{ name: 'Balance', parameters: { resource: 'business', operation: 'getBalance' }, credentialId: 'spBadKey' },
		]),
	]);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await teardown(ctx);
});

describe('real n8n 2.8.4', () => {
	it('runs Business Get Balance and Get Many (Return All over 5 pages, Limit 7)', async () => {
		ctx.sim.clearRequests();
		const { code, run, stderr } = await ctx.n8n.execute('wfBusiness');
		expect({ code, status: run?.status, stderr: code ? stderr : '' }).toEqual({ code: 0, status: 'success', stderr: '' });

		const [balance] = nodeOutput(run, 'Balance');
		expect(typeof balance.totalFundsInCents).toBe('number');
		const all = nodeOutput(run, 'All Businesses');
		expect(all).toHaveLength(PRIMARY_BUSINESS_COUNT);
		expect(new Set(all.map((b) => b.id)).size).toBe(PRIMARY_BUSINESS_COUNT);
		expect(nodeOutput(run, 'Seven Businesses')).toHaveLength(7);

		const listCalls = ctx.sim.requestsTo('GET', '/business/list-businesses-by-owner');
		expect(listCalls.filter((r) => r.query.limit === '5').map((r) => r.query.page)).toEqual(['1', '2', '3', '4', '5']);
		expect(listCalls.every((r) => r.headers['business-id'] === undefined)).toBe(true);
		expect(ctx.sim.requestsTo('GET', '/business/balance')[0].headers['business-id']).toBe(ctx.sim.credentials.businessId);
	});

	it('reports a wrong API key with the platform message and without the secrets', async () => {
		const { code, run, stdout, stderr } = await ctx.n8n.execute('wfBadKey');
		expect(code).not.toBe(0);
		expect(run?.status).toBe('error');
		expect(run?.data.resultData.runData.Balance[0].error?.message).toBe('Unauthorized');
		const everything = stdout + stderr;
		expect(everything).toContain('Unauthorized');
		for (const secret of ['spk_e2e_wrong_key_777', 'sps_e2e_wrong_secret_888', ctx.sim.credentials.apiSecret]) {
			expect(everything).not.toContain(secret);
		}
	});
});

describe('example workflows in real n8n 2.8.4', () => {
	it('finance: exports every movement of the month to a CSV file', async () => {
		ctx.sim.clearRequests();
		const { code, run, stderr } = await ctx.n8n.execute('spExampleFinance');
		expect({ code, stderr: code ? stderr.slice(-2000) : '' }).toEqual({ code: 0, stderr: '' });
		const movements = nodeOutput(run, 'Every movement of the month');
		expect(movements.length).toBeGreaterThan(0);
		for (const m of movements) expect(String(m.createdAt).startsWith('2025-06')).toBe(true);
		const file = path.join(filesDir, 'movements-2025-06.csv');
		expect(existsSync(file)).toBe(true);
		const lines = readFileSync(file, 'utf8').trim().split('\n');
		expect(lines).toHaveLength(movements.length + 1);
		const [filter] = ctx.sim.requestsTo('POST', '/movement/filter');
		expect(filter.body).toEqual({ initialDate: '2025-06-01T00:00:00.000Z', endDate: '2025-06-30T23:59:59.999Z' });
	});

	it('marketing: looks up the sample voucher code and redeems it once', async () => {
		ctx.sim.clearRequests();
		const first = await ctx.n8n.execute('spExampleMarketing');
		expect(first.code).toBe(0);
		const [redeemed] = nodeOutput(first.run, 'Redeem it');
		expect(redeemed).toBeDefined();
		expect(ctx.sim.requestsTo('GET', `/vouchers/voucher-code/${voucherCode}`)).toHaveLength(1);
		expect(ctx.sim.requestsTo('PATCH', /^\/vouchers\/redeem\//)).toHaveLength(1);
		// A second run finds it redeemed: the error branch answers, nothing is redeemed again.
		const second = await ctx.n8n.execute('spExampleMarketing');
		expect(second.code).toBe(0);
		expect(nodeOutput(second.run, 'Redeemed')).toHaveLength(0);
		expect(nodeOutput(second.run, 'Not redeemed')).toHaveLength(1);
	});
});
