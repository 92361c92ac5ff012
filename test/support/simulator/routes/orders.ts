/**
 * Orders (spec 4.6): GET /orders/{orderId} (KEYS+BIZ; an order of another business is not
 * found) and POST /orders/create-charge (KEYS; the business is `businessId` in the body, which
 * must be one of the API key's businesses, else 403).
 *
 * A charge creates an order in `sim.state.col('orders')` with `businessId` and `status`
 * 'pending' (the webhook module moves orders on and delivers their events) and emits
 * `order.created`. Card tokens are never stored or returned.
 */
import type { JsonObject } from '../core';
import { SimError } from '../core';
import type { Source } from '../checks';
import { Checker, objectBody } from '../checks';
import { seedDate, seedRecords } from '../filtering';
import type { SimModule, Simulator } from '../server';
import { customersOf } from './customers';

/** The order as the platform shows it (spec part 2): the owning business is not part of it. */
export function orderView(order: JsonObject): JsonObject {
	const rest = { ...order };
	delete rest.businessId;
	return rest;
}

export function ordersOf(sim: Simulator, businessId: string): JsonObject[] {
	return sim.state.col('orders').filter((o) => o.businessId === businessId);
}

function seedOrder(sim: Simulator, businessId: string): JsonObject {
	const s = sim.state;
	const customers = customersOf(sim, businessId);
	const c = customers.length ? s.pick(customers) : undefined;
	const date = seedDate(sim, 0, 600);
	const quantity = s.int(1, 3);
	const priceInCents = s.int(10, 500) * 100 - 10;
	const total = quantity * priceInCents;
	const paid = s.random() < 0.7;
	const paidAt = paid ? new Date(Date.parse(date) + s.int(1, 3600) * 1000).toISOString() : null;
	return {
		id: s.id(),
		businessId,
		date,
		paidAt,
		status: paid ? 'paid' : 'pending',
		orderBuyer: c
			? { customerId: c.id, name: c.name, email: c.email, document: c.document, phone: c.phone, address: c.address }
			: { name: 'Walk-in buyer', email: 'buyer@mail.example' },
		coupon: null,
		items: [{ name: `Course ${s.int(1, 40)}`, quantity, priceInCents }],
		payments: [{ method: 'pix', numberInstallments: 1, valueInCents: total, status: paid ? 'paid' : 'pending' }],
		metadata: [],
		statusHistory: paid
			? [
					{ status: 'pending', date },
					{ status: 'paid', date: paidAt },
				]
			: [{ status: 'pending', date }],
	};
}

function checkCharge(body: Source): void {
	const c = new Checker();
	c.str(body, 'businessId', 'businessId', true);
	const buyer = c.obj(body, 'buyer', 'buyer', true);
	if (buyer) {
		c.str(buyer, 'name', 'buyer.name', true);
		c.email(buyer, 'email', 'buyer.email', true);
		c.str(buyer, 'customerId', 'buyer.customerId');
		const document = c.obj(buyer, 'document', 'buyer.document');
		if (document) {
			c.str(document, 'type', 'buyer.document.type', true);
			c.str(document, 'number', 'buyer.document.number', true);
		}
		const phone = c.obj(buyer, 'phone', 'buyer.phone');
		if (phone) c.bool(phone, 'isMobile', 'buyer.phone.isMobile');
		c.obj(buyer, 'address', 'buyer.address');
		c.obj(buyer, 'deliveryAddress', 'buyer.deliveryAddress');
	}
	(c.list(body, 'items', 'items', true) ?? []).forEach((item, n) => {
		c.str(item, 'name', `items[${n}].name`, true);
		c.int(item, 'quantity', `items[${n}].quantity`, 1, true);
		c.int(item, 'priceInCents', `items[${n}].priceInCents`, 0, true);
		for (const key of ['externalReferenceId', 'description', 'imageReference', 'paymentLinkId']) {
			c.str(item, key, `items[${n}].${key}`);
		}
		(c.list(item, 'commissionedParticipants', `items[${n}].commissionedParticipants`) ?? []).forEach((p, m) => {
			const label = `items[${n}].commissionedParticipants[${m}]`;
			c.str(p, 'commissionedId', `${label}.commissionedId`, true);
			c.int(p, 'commissionedValueInCents', `${label}.commissionedValueInCents`, 0);
			c.num(p, 'commissionedPercentage', `${label}.commissionedPercentage`, 0, 100);
		});
	});
	(c.list(body, 'payments', 'payments', true) ?? []).forEach((p, n) => {
		c.str(p, 'method', `payments[${n}].method`, true);
		c.int(p, 'valueInCents', `payments[${n}].valueInCents`, 0, true);
		c.int(p, 'numberInstallments', `payments[${n}].numberInstallments`, 1);
		const card = c.obj(p, 'creditCard', `payments[${n}].creditCard`);
		if (card) {
			c.str(card, 'token', `payments[${n}].creditCard.token`, true);
			c.int(card, 'expiresAtMonth', `payments[${n}].creditCard.expiresAtMonth`, 1, false, 12);
			c.int(card, 'expiresAtYear', `payments[${n}].creditCard.expiresAtYear`, 2000);
		}
	});
	(c.list(body, 'metadata', 'metadata') ?? []).forEach((m, n) => {
		c.str(m, 'key', `metadata[${n}].key`, true);
		c.str(m, 'value', `metadata[${n}].value`);
	});
	c.done();
}

export const simModule: SimModule = {
	seed(sim) {
		seedRecords(sim, 'orders', (businessId) => seedOrder(sim, businessId), 10);
	},
	routes(router, sim) {
		router.add('GET', '/orders/:orderId', 'keys+biz', (ctx) => {
			const order = sim.state.col('orders').find((o) => o.id === ctx.params.orderId && o.businessId === ctx.businessId);
			if (!order) throw new SimError(404, 'Order not found');
			return { data: orderView(order) };
		});

		router.add('POST', '/orders/create-charge', 'keys', (ctx) => {
			const body = objectBody(ctx);
			checkCharge(body);
			const businessId = String(body.businessId);
			const account = sim.state.accounts.find((a) => a.id === ctx.accountId)!;
			if (!account.businessIds.includes(businessId)) throw new SimError(403, 'Forbidden resource');
			const buyer = body.buyer as Source;
			if (buyer.customerId !== undefined && !customersOf(sim, businessId).some((c) => c.id === buyer.customerId)) {
				throw new SimError(400, 'Invalid param: [buyer.customerId]');
			}
			const date = sim.state.clock.iso();
			const payments = (body.payments as Source[]).map((p) => {
				const card = p.creditCard as Source | undefined;
				const shown = { ...card };
				delete shown.token;
				return { ...p, numberInstallments: p.numberInstallments ?? 1, ...(card ? { creditCard: shown } : {}), status: 'pending' };
			});
			const order = {
				id: sim.state.id(),
				businessId,
				date,
				paidAt: null,
				status: 'pending',
				orderBuyer: buyer,
				coupon: null,
				items: body.items,
				payments,
				metadata: body.metadata ?? [],
				statusHistory: [{ status: 'pending', date }],
			} as unknown as JsonObject;
			sim.state.col('orders').push(order);
			sim.state.emit('order.created', businessId, orderView(order));
			return { status: 201, data: { orderId: order.id } };
		});
	},
};
