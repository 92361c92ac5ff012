/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- not shipped: n8n's rules for node code do not apply to tests and scripts */
import { runNode } from '../support/harness/n8n-core';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { PRIMARY_BUSINESS_COUNT } from '../support/simulator/routes/00-accounts';

const sim = useSimulator();

beforeEach(() => sim().clearRequests());

describe('Business', () => {
	it('Get Balance sends KEYS+BIZ and returns the unwrapped balance', async () => {
		const { items, error } = await runNode(
			{ parameters: { resource: 'business', operation: 'getBalance' } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const balance = items[0].json;
		expect(Object.keys(balance).sort()).toEqual(
			['accountFundsInCents', 'blockedFundsInCents', 'lastTimeBalanceWasCalculated', 'toBeReleasedFundsInCents', 'totalFundsInCents'].sort(),
		);
		expect(balance.totalFundsInCents).toBe(
			Number(balance.accountFundsInCents) + Number(balance.toBeReleasedFundsInCents) + Number(balance.blockedFundsInCents),
		);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const [req] = sim().apiRequests;
		expect(req.method).toBe('GET');
		expect(req.path).toBe('/business/balance');
		expect(req.headers['x-api-key']).toBe(sim().credentials.apiKey);
		expect(req.headers['x-api-secret']).toBe(sim().credentials.apiSecret);
		expect(req.headers['business-id']).toBe(sim().credentials.businessId);
	});

	it('Get Many with Return All walks every page (3+ pages) and sends KEYS only', async () => {
		const { items, error } = await runNode(
			{ parameters: { resource: 'business', operation: 'getMany', returnAll: true, pagination: { pageSize: 5 } } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(PRIMARY_BUSINESS_COUNT);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(PRIMARY_BUSINESS_COUNT);
		const reqs = sim().apiRequests;
		expect(reqs.map((r) => r.query.page)).toEqual(['1', '2', '3', '4', '5']);
		for (const r of reqs) {
			expect(r.path).toBe('/business/list-businesses-by-owner');
			expect(r.query.limit).toBe('5');
			expect(r.headers['business-id']).toBeUndefined();
		}
	});

	it('Get Many with Limit 7 returns exactly 7', async () => {
		const { items } = await runNode(
			{ parameters: { resource: 'business', operation: 'getMany', returnAll: false, limit: 7 } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(items).toHaveLength(7);
		expect(sim().apiRequests).toHaveLength(1);
		expect(sim().apiRequests[0].query).toEqual({ page: '1', limit: '7' });
	});

	it('Limit 7 over pages of 3 stops after the third page', async () => {
		const { items } = await runNode(
			{ parameters: { resource: 'business', operation: 'getMany', limit: 7, pagination: { pageSize: 3 } } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(items).toHaveLength(7);
		expect(sim().apiRequests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
	});

	it('a wrong API key gives the platform message and leaks no secret', async () => {
		const creds = dataCredentials(sim(), { apiKey: 'spk_wrong_key_123456', apiSecret: 'sps_wrong_secret_abcdef' });
		const { error, items } = await runNode(
			{ parameters: { resource: 'business', operation: 'getBalance' } },
			{ credentials: creds },
		);
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('Unauthorized');
		expect(error?.httpCode).toBe('401');
		const dump = JSON.stringify(error, Object.getOwnPropertyNames(error)) + String(error?.stack) + String(error?.description);
		for (const secret of ['spk_wrong_key_123456', 'sps_wrong_secret_abcdef', sim().credentials.apiSecret]) {
			expect(dump).not.toContain(secret);
		}
	});

	it('a business the key does not own gives 403 Forbidden resource', async () => {
		const { error } = await runNode(
			{ parameters: { resource: 'business', operation: 'getBalance' } },
			{ credentials: dataCredentials(sim(), { businessId: '00000000-0000-4000-8000-000000000000' }) },
		);
		expect(error?.message).toBe('Forbidden resource');
		expect(error?.httpCode).toBe('403');
	});

	it('continueOnFail yields an error item per failed input item, with pairedItem', async () => {
		const { items, error } = await runNode(
			{ parameters: { resource: 'business', operation: 'getBalance' }, continueOnFail: true },
			{
				credentials: dataCredentials(sim(), { apiKey: 'nope-nope' }),
				input: [{ json: { a: 1 } }, { json: { a: 2 } }],
			},
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items.map((i) => i.json.error)).toEqual(['Unauthorized', 'Unauthorized']);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('with "Continue (using error output)" failed items go to the error output, good ones stay', async () => {
		const { outputs, error } = await runNode(
			{
				parameters: { resource: 'business', operation: 'getMany', limit: '={{ $json.limit }}' },
				errorOutput: true,
			},
			{ credentials: dataCredentials(sim()), input: [{ json: { limit: 2 } }, { json: { limit: -1 } }] },
		);
		expect(error).toBeUndefined();
		const [ok, failed] = outputs['Sales & Payments'];
		expect(ok).toHaveLength(2);
		expect(ok.every((i) => i.json.id && i.pairedItem && (i.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(failed).toHaveLength(1);
		expect(String(failed[0].json.error)).toContain('Limit');
	});
});
