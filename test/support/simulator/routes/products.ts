/**
 * Products and their offers (spec 4.5): POST /products/filter (KEYS+BIZ) and
 * GET /offers/list-by-product/{productId} (KEYS). Refunds, sales, subscriptions and financial
 * records refer to these products: whichever module seeds first seeds the products (once).
 */
import type { JsonObject } from '../core';
import { pageOf, SimError } from '../core';
import {
	filterBody,
	inDateRange,
	ofBusiness,
	ownedBy,
	publicView,
	readDate,
	readEnum,
	readObject,
	readStringArray,
	seedDate,
	seedLater,
	seedTargets,
	sortRecords,
	weighted,
} from '../filtering';
import type { SimModule, Simulator } from '../server';

export const PRODUCT_STATUSES = ['draft', 'available', 'unavailable'] as const;
export const PRODUCT_TYPES = [
	'Online-Course',
	'Mentoring',
	'Consultancy',
	'Subscription',
	'Community',
	'Online-Event',
	'Face-to-face-Event',
	'E-Book',
	'Downloadable-File',
	'App',
	'Physical-Product',
	'Others',
	'Services',
] as const;

const TOPICS = ['Sales Mastery', 'Healthy Cooking', 'Guitar Basics', 'Personal Finance', 'Digital Marketing', 'Yoga Flow', 'Python Bootcamp', 'Photography', 'Public Speaking', 'Home Garden'];


function makeProduct(sim: Simulator, businessId: string, n: number): JsonObject {
	const s = sim.state;
	const type = s.pick(PRODUCT_TYPES);
	const createdAt = seedDate(sim, 0, 600);
	return {
		id: s.id(),
		name: `${s.pick(TOPICS)} ${type.replace(/-/g, ' ')} ${n}`,
		description: `Seeded ${type} number ${n}`,
		type,
		status: weighted(sim, [
			['available', 6],
			['draft', 2],
			['unavailable', 2],
		]),
		priceInCents: s.int(9, 999) * 100 + s.pick([0, 90, 97]),
		createdAt,
		updatedAt: seedLater(sim, createdAt, 120),
		_businessId: businessId,
	};
}

function makeOffer(sim: Simulator, product: JsonObject, n: number): JsonObject {
	const s = sim.state;
	return {
		id: s.id(),
		productId: product.id,
		name: n === 1 ? 'Default offer' : `Offer ${n}`,
		valueInCents: Math.max(100, Number(product.priceInCents) - s.int(0, 50) * 100),
		status: weighted(sim, [
			['active', 8],
			['inactive', 2],
		]),
		paymentMethods: s.pick([['pix'], ['credit-card', 'pix'], ['credit-card', 'pix', 'bank-billet']]),
		maxInstallments: s.pick([1, 3, 6, 12]),
		createdAt: seedLater(sim, String(product.createdAt), 30),
		_businessId: product._businessId,
	};
}

const seeded = new WeakSet<Simulator>();

/** Seeds the products and their offers once per simulator, whichever module asks first. */
function seedProducts(sim: Simulator): void {
	if (seeded.has(sim)) return;
	seeded.add(sim);
	const products = sim.state.col('products');
	const offers = sim.state.col('offers');
	for (const { businessId, count } of seedTargets(sim)) {
		for (let n = 1; n <= count; n++) products.push(makeProduct(sim, businessId, n));
	}
	// The primary business's first product has a long offer list (to page through);
	// every other product a few offers.
	const primaryFirst = products.find((p) => p._businessId === seedTargets(sim)[0].businessId);
	for (const product of products) {
		const count = product === primaryFirst ? sim.state.options.size : sim.state.int(0, 3);
		for (let n = 1; n <= count; n++) offers.push(makeOffer(sim, product, n));
	}
}

/** The seeded products of a business, in the order they were made. */
export function productsOf(sim: Simulator, businessId: string): JsonObject[] {
	seedProducts(sim);
	return ofBusiness(sim.state.col('products'), businessId);
}

export const simModule: SimModule = {
	seed(sim) {
		seedProducts(sim);
	},
	routes(router, sim) {
		router.add('POST', '/products/filter', 'keys+biz', (ctx) => {
			const body = filterBody(ctx);
			const status = readEnum(body, 'status', PRODUCT_STATUSES);
			const type = readEnum(body, 'type', PRODUCT_TYPES);
			const ids = readStringArray(body, 'productIds');
			const ranges = (['createdAt', 'updatedAt'] as const).map((name) => {
				const range = readObject(body, name) ?? {};
				return {
					name,
					from: readDate(range, 'startsAt', `${name}.startsAt`),
					to: readDate(range, 'endsAt', `${name}.endsAt`),
				};
			});
			const found = productsOf(sim, ctx.businessId!).filter(
				(p) =>
					(!status || p.status === status) &&
					(!type || p.type === type) &&
					(!ids || ids.includes(String(p.id))) &&
					ranges.every((r) => inDateRange(p[r.name], r.from, r.to)),
			);
			return { data: pageOf(sortRecords(found, 'createdAt', 'DESC').map(publicView), ctx.query, sim.maxLimit) };
		});
		router.add('GET', '/offers/list-by-product/:productId', 'keys', (ctx) => {
			const product = sim.state.col('products').find((p) => p.id === ctx.params.productId);
			if (!ownedBy(sim, product, ctx.accountId)) throw new SimError(404, 'Product not found');
			const offers = sim.state.col('offers').filter((o) => o.productId === product!.id);
			return { data: pageOf(sortRecords(offers, 'createdAt', 'ASC').map(publicView), ctx.query, sim.maxLimit) };
		});
	},
};
