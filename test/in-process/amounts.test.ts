/**
 * Add Decimal Amounts (Output of the read operations): next to each `...InCents` number the same
 * amount as money (`valueInCents: 4959` -> `value: 49.59`), at every depth, never replacing a field.
 */
import type { IDataObject } from 'n8n-workflow';

import { withDecimalAmounts } from '../../nodes/SalesPayments/fields/simplify';
import { runNode } from '../support/harness/n8n-core';
import { jsonOf, listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator();

beforeEach(() => sim().clearRequests());

async function run(resource: string, operation: string, parameters: Record<string, unknown>) {
	const result = await runNode(
		{ parameters: { resource, operation, ...parameters } as never },
		{ credentials: dataCredentials(sim()) },
	);
	expect(result.error).toBeUndefined();
	return jsonOf(result.items) as IDataObject[];
}

/** The record as expected: each `xInCents` number followed by `x` = cents / 100, recursively. */
function expectedWithAmounts(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(expectedWithAmounts);
	if (value === null || typeof value !== 'object') return value;
	const out: Record<string, unknown> = {};
	for (const [key, inner] of Object.entries(value)) {
		out[key] = expectedWithAmounts(inner);
		const match = /^(.+)InCents$/.exec(key);
		if (match && typeof inner === 'number') out[match[1]] = Math.round(inner) / 100;
	}
	return out;
}

describe('Add Decimal Amounts', () => {
	it('adds value next to valueInCents on every movement, keeping every field and their order', async () => {
		const plain = await run('movement', 'getMany', { limit: 30 });
		const withAmounts = await run('movement', 'getMany', { limit: 30, decimalAmounts: true });
		expect(withAmounts).toEqual(expectedWithAmounts(plain));
		for (const [n, movement] of withAmounts.entries()) {
			expect(movement.valueInCents).toBe(plain[n].valueInCents);
			expect(movement.value).toBe(Number(movement.valueInCents) / 100);
			const keys = Object.keys(movement);
			expect(keys[keys.indexOf('valueInCents') + 1]).toBe('value');
		}
		// Debits are negative: -1500 cents is -15.
		expect(withAmounts.some((m) => Number(m.value) < 0)).toBe(true);
	});

	it('is off by default: the output is what the platform sent', async () => {
		const items = await run('movement', 'getMany', { limit: 5 });
		expect(items.every((m) => !('value' in m))).toBe(true);
	});

	it('works in nested records: an order\'s items and payments, a subscription\'s order item', async () => {
		const order = sim().state.col('orders').find((o) => o.businessId === sim().credentials.businessId)!;
		const [plain] = await run('order', 'get', { orderId: order.id, simplify: false });
		const [simple] = await run('order', 'get', { orderId: order.id, decimalAmounts: true });
		expect(simple.items).toEqual(expectedWithAmounts(plain.items));
		expect(simple.payments).toEqual(expectedWithAmounts(plain.payments));
		const item = (simple.items as IDataObject[])[0];
		expect(item.price).toBe(Number(item.priceInCents) / 100);

		const subscription = listed(sim(), 'subscriptions')[0] as JsonObject;
		const [sub] = await run('subscription', 'get', { subscriptionId: { __rl: true, mode: 'id', value: subscription.id }, simplify: false, decimalAmounts: true });
		expect(sub.recurrenceValue).toBe(Number(sub.recurrenceValueInCents) / 100);
		const orderItem = sub.orderItem as IDataObject;
		expect(orderItem.unitValue).toBe(Number(orderItem.unitValueInCents) / 100);
	});

	it('adds the balance in money units', async () => {
		const [plain] = await run('business', 'getBalance', {});
		const [balance] = await run('business', 'getBalance', { decimalAmounts: true });
		expect(balance).toEqual(expectedWithAmounts(plain));
		expect(balance.totalFunds).toBe(Number(plain.totalFundsInCents) / 100);
	});

	it('never overwrites a field the record already has, and leaves null or text amounts alone', async () => {
		expect(
			withDecimalAmounts({
				value: 'kept',
				valueInCents: 4959,
				feeInCents: null,
				taxInCents: '120',
				lines: [{ priceInCents: 1 }, { priceInCents: 123456789012 }],
			}),
		).toEqual({
			value: 'kept',
			valueInCents: 4959,
			valueDecimal: 49.59,
			feeInCents: null,
			taxInCents: '120',
			lines: [
				{ priceInCents: 1, price: 0.01 },
				{ priceInCents: 123456789012, price: 1234567890.12 },
			],
		});
	});

	it('is offered on read operations only', async () => {
		const { nodeDescription } = await import('../support/helpers/operations');
		const shownFor = nodeDescription()
			.properties.filter((p) => p.name === 'decimalAmounts')
			.flatMap((p) => (p.displayOptions?.show?.resource as string[]).map((r) => `${r}.${String((p.displayOptions?.show?.operation as string[])[0])}`));
		expect(shownFor).toEqual(expect.arrayContaining(['movement.getMany', 'order.get', 'business.getBalance', 'subscription.getMany', 'refund.getMany']));
		expect(shownFor.some((key) => /create|update|delete|redeem|cancel|publish|upload/i.test(key))).toBe(false);
	});
});
