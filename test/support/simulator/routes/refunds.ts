/**
 * Refund requests (order revert requests, spec 4.2): GET /order-revert-requests/list (KEYS+BIZ)
 * with the literal query keys `createdAt[startsAt]`, `createdAt[endsAt]`, `updatedAt[startsAt]`,
 * `updatedAt[endsAt]`, plus `orderByField` (createdAt) and `orderDirection` (ASC, DESC).
 */
import type { JsonObject } from '../core';
import { pageOf } from '../core';
import {
	hex,
	inDateRange,
	ofBusiness,
	publicView,
	readDate,
	readEnum,
	seedDate,
	seedLater,
	seedPerson,
	seedRecords,
	sortRecords,
	weighted,
} from '../filtering';
import type { SimModule, Simulator } from '../server';
import { productsOf } from './products';

export const REFUND_STATUSES = ['requested', 'delayed', 'confirmed', 'canceled', 'failed'] as const;

const MOTIVES: Array<[string, string]> = [
	['Product not as described', 'The content is different from what the sales page promised.'],
	['Purchased by mistake', 'I bought the same product twice.'],
	['Did not receive access', 'I never received the access e-mail.'],
	['Changed my mind', 'I no longer need this product.'],
	['Technical problems', 'The platform does not work on my device.'],
];

export function makeRefund(sim: Simulator, businessId: string): JsonObject {
	const s = sim.state;
	const buyer = seedPerson(sim);
	const products = productsOf(sim, businessId);
	const product = products.length ? s.pick(products) : undefined;
	const paidAt = seedDate(sim, 0, 600);
	const createdAt = seedLater(sim, paidAt, 7);
	const status = weighted(sim, [
		['requested', 4],
		['confirmed', 3],
		['delayed', 1],
		['canceled', 1],
		['failed', 1],
	]);
	const updatedAt = status === 'requested' ? createdAt : seedLater(sim, createdAt, 20);
	const [motive, description] = s.pick(MOTIVES);
	const method = s.pick(['pix', 'credit-card', 'bank-billet']);
	const history = [{ status: 'requested', date: createdAt }];
	if (status === 'delayed' || status === 'confirmed' || status === 'failed') {
		if (status !== 'delayed' && s.random() < 0.3) history.push({ status: 'delayed', date: createdAt });
		history.push({ status, date: updatedAt });
	} else if (status === 'canceled') history.push({ status, date: updatedAt });
	return {
		id: s.id(),
		orderId: s.id(),
		buyerEmail: buyer.email,
		paidAt,
		productName: product ? String(product.name) : 'Digital product',
		supportEmail: 'support@acme-shop.example',
		valueInCents: product ? Number(product.priceInCents) : s.int(1_000, 50_000),
		requestAt: createdAt,
		createdAt,
		updatedAt,
		motive,
		description,
		status,
		userId: s.id(),
		paymentMethod: [method],
		buyerRevertPix: method === 'pix' ? { pixKey: buyer.email, pixType: 'email' } : { pixKey: hex(sim, 32), pixType: 'random' },
		statusHistory: history,
		_businessId: businessId,
	};
}

export const simModule: SimModule = {
	seed(sim) {
		seedRecords(sim, 'refunds', (businessId) => makeRefund(sim, businessId));
	},
	routes(router, sim) {
		router.add('GET', '/order-revert-requests/list', 'keys+biz', (ctx) => {
			const q = ctx.query;
			const orderByField = readEnum(q, 'orderByField', ['createdAt'] as const) ?? 'createdAt';
			const orderDirection = readEnum(q, 'orderDirection', ['ASC', 'DESC'] as const) ?? 'DESC';
			const createdFrom = readDate(q, 'createdAt[startsAt]');
			const createdTo = readDate(q, 'createdAt[endsAt]');
			const updatedFrom = readDate(q, 'updatedAt[startsAt]');
			const updatedTo = readDate(q, 'updatedAt[endsAt]');
			const found = ofBusiness(sim.state.col('refunds'), ctx.businessId).filter(
				(r) => inDateRange(r.createdAt, createdFrom, createdTo) && inDateRange(r.updatedAt, updatedFrom, updatedTo),
			);
			const sorted = sortRecords(found, orderByField, orderDirection).map(publicView);
			return { data: pageOf(sorted, ctx.query, sim.maxLimit) };
		});
	},
};
