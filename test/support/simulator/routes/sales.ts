/**
 * Sales (spec 4.3): POST /sales/filter. The spec shows neither headers, body nor response; this
 * module answers the way the other filter endpoints do: KEYS+BIZ (sales belong to a business),
 * PAGE in the query, `docs` with the pagination fields. Body filters: `initialDate`, `endDate`
 * (on createdAt), `status`, `email` (the buyer's), `productIds`, and two further fields the
 * platform might accept (`paymentMethod`, `orderId`), which prove that extra fields get through.
 * Unknown fields are ignored.
 */
import type { JsonObject } from '../core';
import { pageOf } from '../core';
import {
	filterBody,
	inDateRange,
	ofBusiness,
	publicView,
	readDate,
	readEnum,
	readStringArray,
	readText,
	seedDate,
	seedLater,
	seedPerson,
	seedRecords,
	sortRecords,
	weighted,
} from '../filtering';
import type { SimModule, Simulator } from '../server';
import { productsOf } from './products';

export const SALE_STATUSES = ['paid', 'pending', 'canceled', 'refunded', 'chargedback'] as const;
export const SALE_METHODS = ['pix', 'credit-card', 'bank-billet'] as const;

function makeSale(sim: Simulator, businessId: string): JsonObject {
	const s = sim.state;
	const buyer = seedPerson(sim);
	const products = productsOf(sim, businessId);
	const product = s.pick(products);
	const quantity = weighted(sim, [
		[1, 9],
		[2, 1],
	]);
	const status = weighted(sim, [
		['paid', 6],
		['pending', 2],
		['canceled', 1],
		['refunded', 1],
		['chargedback', 0.3],
	]);
	const paymentMethod = s.pick(SALE_METHODS);
	const createdAt = seedDate(sim, 0, 700);
	const paid = status === 'paid' || status === 'refunded' || status === 'chargedback';
	return {
		id: s.id(),
		orderId: s.id(),
		status,
		paymentMethod,
		installments: paymentMethod === 'credit-card' ? s.pick([1, 1, 3, 6, 12]) : 1,
		valueInCents: Number(product.priceInCents) * quantity,
		customer: { name: buyer.name, email: buyer.email },
		product: { id: product.id, name: product.name, quantity },
		createdAt,
		paidAt: paid ? seedLater(sim, createdAt, 3) : null,
		_businessId: businessId,
	};
}

export const simModule: SimModule = {
	seed(sim) {
		seedRecords(sim, 'sales', (businessId) => makeSale(sim, businessId));
	},
	routes(router, sim) {
		router.add('POST', '/sales/filter', 'keys+biz', (ctx) => {
			const body = filterBody(ctx);
			const from = readDate(body, 'initialDate');
			const to = readDate(body, 'endDate');
			const status = readEnum(body, 'status', SALE_STATUSES);
			const email = readText(body, 'email')?.toLowerCase();
			const ids = readStringArray(body, 'productIds');
			const method = readEnum(body, 'paymentMethod', SALE_METHODS);
			const orderId = readText(body, 'orderId');
			const found = ofBusiness(sim.state.col('sales'), ctx.businessId).filter((r) => {
				const customer = r.customer as JsonObject;
				const product = r.product as JsonObject;
				return (
					inDateRange(r.createdAt, from, to) &&
					(!status || r.status === status) &&
					(!email || String(customer.email).toLowerCase() === email) &&
					(!ids || ids.includes(String(product.id))) &&
					(!method || r.paymentMethod === method) &&
					(!orderId || r.orderId === orderId)
				);
			});
			return { data: pageOf(sortRecords(found, 'createdAt', 'DESC').map(publicView), ctx.query, sim.maxLimit) };
		});
	},
};
