import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf, primaryRecords } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';
import { publicView } from '../support/simulator/filtering';
import { CANCEL_WINDOW_MS } from '../support/simulator/routes/vouchers';

const sim = useSimulator();

beforeEach(() => sim().clearRequests());

async function run(operation: string, parameters: Record<string, unknown>) {
	return await runNode(
		{ parameters: { resource: 'voucher', operation, ...parameters } as never },
		{ credentials: dataCredentials(sim()) },
	);
}

/** The n-th still available voucher of the primary business (each test takes its own). */
function available(n: number): JsonObject {
	const list = primaryRecords(sim(), 'vouchers').filter((v) => v.status === 'available');
	return list[n];
}

function stored(id: unknown): JsonObject {
	return sim().state.col('vouchers').find((v) => v.id === id)!;
}

describe('Voucher: Get by Code', () => {
	it('looks the code up with KEYS+BIZ and outputs the voucher', async () => {
		const voucher = available(0);
		const { items, error } = await run('getByCode', { code: String(voucher.code).toLowerCase() });
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect([req.method, req.path]).toEqual(['GET', `/vouchers/voucher-code/${String(voucher.code).toLowerCase()}`]);
		expectAuth(sim(), req, 'keys+biz');
		expect(jsonOf(items)).toEqual([publicView(voucher)]);
	});

	it('refuses a code with characters a code cannot hold (slashes, dots, spaces...) before any request', async () => {
		for (const code of ['A/B C?', '..', '%2e%2e', 'A\\B', 'WELCOME.7F3K']) {
			const { error } = await run('getByCode', { code });
			expect(error?.name).toBe('NodeOperationError');
			expect(error?.message).toBe(
				`Voucher Code ${JSON.stringify(code)} is not a valid code (letters, digits, "-" and "_" only, at most 64)`,
			);
		}
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('an unknown code gets the platform 404 in plain words', async () => {
		const { error } = await run('getByCode', { code: 'NO-SUCH-CODE' });
		expect(sim().apiRequests[0].path).toBe('/vouchers/voucher-code/NO-SUCH-CODE');
		expect(error?.httpCode).toBe('404');
		expect(error?.description).toContain('No voucher with this code exists');
	});

	it('a blank code is refused before any request', async () => {
		const { error } = await run('getByCode', { code: '  ' });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe('Voucher Code is required');
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Voucher: Redeem', () => {
	it('redeems with KEYS+BIZ and outputs the redeemed voucher', async () => {
		const voucher = available(1);
		const { items, error } = await run('redeem', { voucherId: voucher.id });
		expect(error).toBeUndefined();
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect([req.method, req.path, req.body]).toEqual(['PATCH', `/vouchers/redeem/${String(voucher.id)}`, undefined]);
		expectAuth(sim(), req, 'keys+biz');
		const after = stored(voucher.id);
		expect(after.status).toBe('redeemed');
		expect(Math.abs(sim().state.clock.now() - Date.parse(String(after.redeemedAt)))).toBeLessThan(5_000);
		expect(jsonOf(items)).toEqual([publicView(after)]);
	});

	it('passes Extra Fields (JSON) through as the body', async () => {
		const voucher = available(2);
		const { error } = await run('redeem', { voucherId: voucher.id, additionalFields: { extraFields: '{"orderId":"o-1"}' } });
		expect(error).toBeUndefined();
		expect(sim().apiRequests[0].body).toEqual({ orderId: 'o-1' });
	});

	it('a second redemption is refused by the platform, in plain words, and not retried', async () => {
		const voucher = available(3);
		await run('redeem', { voucherId: voucher.id });
		sim().clearRequests();
		const { error } = await run('redeem', { voucherId: voucher.id });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('409');
		expect(error?.message).toBe('Voucher already redeemed');
		expect(error?.description).toContain('This voucher has already been redeemed; a voucher can be redeemed only once.');
		expect(sim().apiRequests).toHaveLength(1);
	});

	it('a blank or malformed Voucher ID is refused before any request', async () => {
		const blank = await run('redeem', { voucherId: ' ' });
		expect(blank.error?.message).toBe('Voucher ID is required');
		const bad = await run('redeem', { voucherId: '../x' });
		expect(bad.error?.message).toBe('Voucher ID "../x" is not a valid ID (letters, digits, "-" and "_" only, at most 128)');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('its action and description cannot be read as a mere lookup', async () => {
		const { loadPackage, ACTION_TYPE } = await import('../support/harness/n8n-core');
		const { nodeTypes } = await loadPackage();
		const operation = nodeTypes
			.getByNameAndVersion(ACTION_TYPE, 1)
			.description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('voucher'));
		const options = operation?.options as Array<{ value: string; action?: string; description?: string }>;
		const redeem = options.find((o) => o.value === 'redeem')!;
		expect(redeem.action).toMatch(/uses it up for real/);
		expect(redeem.description).toMatch(/cannot be used again/);
		const cancel = options.find((o) => o.value === 'cancelRedemption')!;
		expect(cancel.action).toMatch(/within 15 minutes/);
	});
});

describe('Voucher: Cancel Redemption', () => {
	it('within 15 minutes it makes the voucher usable again (KEYS+BIZ)', async () => {
		const voucher = available(4);
		await run('redeem', { voucherId: voucher.id });
		sim().state.clock.advance(CANCEL_WINDOW_MS - 60_000);
		sim().clearRequests();
		const { items, error } = await run('cancelRedemption', { voucherId: voucher.id });
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect([req.method, req.path, req.body]).toEqual(['PATCH', `/vouchers/cancel-redeem/${String(voucher.id)}`, undefined]);
		expectAuth(sim(), req, 'keys+biz');
		expect(items[0].json).toMatchObject({ id: voucher.id, status: 'available', redeemedAt: null });
		// Usable again: a new redemption succeeds.
		const again = await run('redeem', { voucherId: voucher.id });
		expect(again.error).toBeUndefined();
	});

	it('after the 15-minute window it is refused by the platform, in plain words', async () => {
		const voucher = available(5);
		await run('redeem', { voucherId: voucher.id });
		sim().state.clock.advance(CANCEL_WINDOW_MS + 1_000);
		sim().clearRequests();
		const { error } = await run('cancelRedemption', { voucherId: voucher.id });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('422');
		expect(error?.message).toBe('The redemption can only be cancelled within 15 minutes after it was made');
		expect(error?.description).toContain(
			'The redemption can no longer be cancelled: the platform allows cancelling only within 15 minutes after the redemption.',
		);
		expect(stored(voucher.id).status).toBe('redeemed');
		expect(sim().apiRequests).toHaveLength(1);
	});

	it('a voucher that is not redeemed has nothing to cancel', async () => {
		const voucher = available(6);
		const { error } = await run('cancelRedemption', { voucherId: voucher.id });
		expect(error?.httpCode).toBe('409');
		expect(error?.message).toBe('Voucher is not redeemed');
		expect(error?.description).toContain('This voucher is not redeemed, so there is no redemption to cancel.');
	});

	it('a voucher of another business is not found', async () => {
		const other = sim().state.col('vouchers').find((v) => v._businessId !== sim().credentials.businessId)!;
		const { error } = await run('cancelRedemption', { voucherId: other.id });
		expect(error?.httpCode).toBe('404');
		expect(error?.description).toContain('No voucher with this ID exists');
	});
});

describe('Voucher: warnings in the panel', () => {
	it('Redeem and Cancel Redemption open with a notice that the 15-minute window makes a redemption final; Get by Code has none', async () => {
		const { loadPackage, ACTION_TYPE } = await import('../support/harness/n8n-core');
		const { nodeTypes } = await loadPackage();
		const properties = nodeTypes.getByNameAndVersion(ACTION_TYPE, 1).description.properties;
		const panel = (operation: string) =>
			properties.filter((p) => p.displayOptions?.show?.resource?.includes('voucher') && p.displayOptions?.show?.operation?.includes(operation));
		for (const operation of ['redeem', 'cancelRedemption']) {
			const [first, second] = panel(operation);
			expect(first.type).toBe('notice');
			expect(first.displayName).toMatch(/15 minutes/);
			expect(second.name).toBe('voucherId');
		}
		expect(panel('redeem')[0].displayName).toMatch(/cannot be used again/);
		expect(panel('cancelRedemption')[0].displayName).toMatch(/cannot be undone/);
		expect(panel('getByCode').some((p) => p.type === 'notice')).toBe(false);
	});
});
