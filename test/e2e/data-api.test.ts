/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Real n8n 2.8.4: the packed package loads as a community package, credentials are saved, and
 * workflows run as *Execute workflow* runs them (the run's shared n8n, through its REST API)
 * against the simulator. The example workflows are run as shipped in examples.test.ts.
 */
import { nodeOutput } from '../support/n8n-process';
import { PRIMARY_BUSINESS_COUNT } from '../support/simulator/routes/00-accounts';
import { startElsewhere } from '../support/simulator/elsewhere';
import type { E2eSession } from './setup';
import { closeSession, dataCredential, INSTALL_TIMEOUT, manualWorkflow, openSession } from './setup';

let ctx: E2eSession;

beforeAll(async () => {
	ctx = await openSession();
	const { session, sim } = ctx;
	await session.addCredentials([
		dataCredential(sim, 'spGood'),
		dataCredential(sim, 'spBadKey', { apiKey: 'spk_e2e_wrong_key_777', apiSecret: 'sps_e2e_wrong_secret_888' }),
	]);
	await session.addWorkflows([
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
		manualWorkflow('wfMovements', [
			{ name: 'All Movements', parameters: { resource: 'movement', operation: 'getMany', returnAll: true }, credentialId: 'spGood' },
		]),
		manualWorkflow('wfBadKey', [
			{ name: 'Balance', parameters: { resource: 'business', operation: 'getBalance' }, credentialId: 'spBadKey' },
		]),
	]);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await closeSession(ctx);
}, 60_000);

describe('real n8n 2.8.4', () => {
	it('runs Business Get Balance and Get Many (Return All over 5 pages, Limit 7)', async () => {
		ctx.sim.clearRequests();
		const run = await ctx.session.runOk('wfBusiness');

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
		const { status, run, log } = await ctx.session.run('wfBadKey');
		expect(status).toBe('error');
		expect(run.data.resultData.runData.Balance[0].error?.message).toBe('Unauthorized');
		// The saved execution and what n8n printed meanwhile.
		const everything = JSON.stringify(run) + log;
		expect(everything).toContain('Unauthorized');
		for (const secret of ['spk_e2e_wrong_key_777', 'sps_e2e_wrong_secret_888', ctx.sim.credentials.apiSecret]) {
			expect(everything).not.toContain(secret);
		}
	});
});

describe('real n8n 2.8.4 and a platform that caps its page size at 100', () => {
	it('Movement > Get Many with Return All gives every movement once, going on at the answered size', async () => {
		const { sim } = ctx;
		const movements = sim.state.col('movements');
		const model = movements.find((m) => m._businessId === sim.credentials.businessId)!;
		for (let n = 0; n < 300; n++) {
			movements.push({ ...model, id: `e2e-cap-${n}`, hash: `e2e-cap-${n}`, createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString() });
		}
		const expected = movements.filter((m) => m._businessId === sim.credentials.businessId).length;
		expect(expected).toBeGreaterThan(300);
		sim.clearRequests();
		sim.paging.add({ mode: 'cap', cap: 100 });
		try {
			const run = await ctx.session.runOk('wfMovements');
			const all = nodeOutput(run, 'All Movements');
			expect(all).toHaveLength(expected);
			expect(new Set(all.map((m) => m.id)).size).toBe(expected);
			const asked = sim.requestsTo('POST', '/movement/filter').map((r) => Number(r.query.limit));
			expect(asked[0]).toBe(1000);
			expect(asked.slice(1)).toEqual(Array<number>(Math.ceil(expected / 100) - 1).fill(100));
		} finally {
			sim.paging.clear();
		}
	});
});

describe('real n8n 2.8.4 and redirects', () => {
	it('a redirect to another origin is refused in real n8n too: an error, and nothing reaches the other origin', async () => {
		const elsewhere = await startElsewhere();
		try {
			ctx.sim.clearRequests();
			ctx.sim.addFault({ kind: 'redirect', status: 307, location: `${elsewhere.url}/business/balance`, path: '/business/balance', times: 1 });
			const { status, run } = await ctx.session.run('wfBusiness');
			expect(status).toBe('error');
			expect(run.data.resultData.runData.Balance[0].error?.message).toContain(`The platform answered with a redirect (HTTP 307) to ${elsewhere.origin}, which was not followed`);
			expect(elsewhere.requests).toEqual([]);
		} finally {
			ctx.sim.faults.clear();
			await elsewhere.close();
		}
	});
});
