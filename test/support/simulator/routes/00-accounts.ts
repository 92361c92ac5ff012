/**
 * Accounts (API keys), their businesses, and the business endpoints (spec 4.1).
 * Seeded first: other modules attach their records to these businesses.
 */
import type { JsonObject } from '../core';
import { pageOf } from '../core';
import type { SimModule, Simulator } from '../server';
import { OTHER_KEY, OTHER_SECRET, PRIMARY_KEY, PRIMARY_SECRET } from '../server';

/** The primary account owns this many businesses, enough to page through. */
export const PRIMARY_BUSINESS_COUNT = 23;

function makeBusiness(sim: Simulator, name: string, owner: { id: string; name: string; email: string }): JsonObject {
	const s = sim.state;
	const created = new Date(Date.UTC(2024, 0, 1) + s.int(0, 600) * 86_400_000).toISOString();
	return {
		id: s.id(),
		createdAt: created,
		name,
		document: { type: 'CNPJ', number: String(s.int(10_000_000, 99_999_999)) + '000190' },
		owner: { ...owner, document: { type: 'CPF', number: String(s.int(100_000_000, 999_999_999)) + '00' } },
		plan: { id: s.id(), description: 'Standard plan', name: 'Standard', status: 'active', isDefault: true },
		bankAccounts: [
			{
				agencyNumber: '0001',
				accountNumber: String(s.int(100_000, 999_999)),
				name: 'Main account',
				bankCode: '260',
				isDefault: true,
				externalReferenceId: s.id(),
				id: s.id(),
				pixKey: owner.email,
				pixType: 'email',
			},
		],
		// Balance, read by GET /business/balance.
		balance: {
			accountFundsInCents: s.int(0, 5_000_000),
			toBeReleasedFundsInCents: s.int(0, 2_000_000),
			blockedFundsInCents: s.int(0, 100_000),
			lastTimeBalanceWasCalculated: created,
		},
	};
}

export const simModule: SimModule = {
	seed(sim) {
		const s = sim.state;
		const owners = [
			{ key: PRIMARY_KEY, secret: PRIMARY_SECRET, name: 'Ana Souza', email: 'ana@acme-shop.example', count: PRIMARY_BUSINESS_COUNT },
			{ key: OTHER_KEY, secret: OTHER_SECRET, name: 'Bruno Lima', email: 'bruno@other.example', count: 2 },
		];
		for (const o of owners) {
			const owner = { id: s.id(), name: o.name, email: o.email };
			const ids: string[] = [];
			for (let n = 1; n <= o.count; n++) {
				const b = makeBusiness(sim, n === 1 ? `${o.name.split(' ')[0]}'s Shop` : `${o.name.split(' ')[0]} Venture ${n}`, owner);
				s.businesses.push(b);
				ids.push(b.id as string);
			}
			s.accounts.push({ id: owner.id, apiKey: o.key, apiSecret: o.secret, ownerName: o.name, ownerEmail: o.email, businessIds: ids });
		}
	},
	routes(router, sim) {
		router.add('GET', '/business/balance', 'keys+biz', (ctx) => {
			const b = sim.state.businesses.find((x) => x.id === ctx.businessId)!;
			const bal = b.balance as Record<string, number | string>;
			const total = Number(bal.accountFundsInCents) + Number(bal.toBeReleasedFundsInCents) + Number(bal.blockedFundsInCents);
			return {
				data: {
					accountFundsInCents: bal.accountFundsInCents,
					toBeReleasedFundsInCents: bal.toBeReleasedFundsInCents,
					lastTimeBalanceWasCalculated: bal.lastTimeBalanceWasCalculated,
					totalFundsInCents: total,
					blockedFundsInCents: bal.blockedFundsInCents,
				},
			};
		});
		router.add('GET', '/business/list-businesses-by-owner', 'keys', (ctx) => {
			const account = sim.state.accounts.find((a) => a.id === ctx.accountId)!;
			const docs = sim.state.businesses
				.filter((b) => account.businessIds.includes(b.id as string))
				.map((b) => {
					const shown = { ...b };
					delete shown.balance;
					return shown;
				});
			return { data: pageOf(docs, ctx.query, sim.maxLimit) };
		});
	},
};
