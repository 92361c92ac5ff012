/**
 * Subscriptions (spec 4.4): POST /subscriptions/filter (KEYS+BIZ) with every body filter, and
 * GET /subscriptions/{subscriptionId} (KEYS) with the subscription's recurrences.
 * The spec does not say what the `field` filter selects; here it names the date field that
 * `initialDate`/`endDate` apply to (createdAt when absent).
 */
import type { Json, JsonObject } from '../core';
import { pageOf, SimError } from '../core';
import {
	filterBody,
	inDateRange,
	inRange,
	ofBusiness,
	ownedBy,
	publicView,
	readDate,
	readEnum,
	readInt,
	readObject,
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

export const SUBSCRIPTION_STATUSES = ['active', 'inactive', 'canceled', 'expired'] as const;
export const SUBSCRIPTION_TYPES = ['credit-card', 'pix', 'bank-billet', 'crypto', 'debit-card'] as const;
export const SUBSCRIPTION_ORDER_FIELDS = ['email', 'product', 'createdAt', 'recurrenceValueInCents', 'expiration'] as const;
/** Values of `field`: the date the date range applies to (a simulator choice, see above). */
export const SUBSCRIPTION_DATE_FIELDS = ['createdAt', 'subscribedAt', 'expiration', 'nextPayment'] as const;

/** Where each `orderBy.orderByField` value reads its sort key. */
const ORDER_PATHS: Record<(typeof SUBSCRIPTION_ORDER_FIELDS)[number], string> = {
	email: 'customer.email',
	product: 'orderItem.product.name',
	createdAt: 'createdAt',
	recurrenceValueInCents: 'recurrenceValueInCents',
	expiration: 'expiration',
};

const PERIODS: Array<[string, number]> = [
	['monthly', 30],
	['quarterly', 91],
	['semiannual', 182],
	['yearly', 365],
];
const CITIES: Array<[string, string]> = [
	['Sao Paulo', 'SP'],
	['Rio de Janeiro', 'RJ'],
	['Belo Horizonte', 'MG'],
	['Curitiba', 'PR'],
	['Recife', 'PE'],
];

const DAY = 86_400_000;

function makeSubscription(sim: Simulator, businessId: string): JsonObject {
	const s = sim.state;
	const buyer = seedPerson(sim);
	const product = s.pick(productsOf(sim, businessId));
	const [periodicity, days] = s.pick(PERIODS);
	const paymentMethod = s.pick(SUBSCRIPTION_TYPES);
	const status = weighted(sim, [
		['active', 6],
		['inactive', 1],
		['canceled', 2],
		['expired', 1],
	]);
	const createdAt = seedDate(sim, 0, 650);
	const subscribedAt = seedLater(sim, createdAt, 1);
	const numberRecurrences = s.int(1, 12);
	const repeatIndefinitely = s.random() < 0.5;
	const expiration = new Date(Date.parse(subscribedAt) + (repeatIndefinitely ? 3650 : numberRecurrences * days) * DAY).toISOString();
	const paidCount = Math.max(1, Math.min(numberRecurrences, s.int(1, 6)));
	const nextPayment = new Date(Date.parse(subscribedAt) + paidCount * days * DAY).toISOString();
	const value = Number(product.priceInCents);
	const [city, state] = s.pick(CITIES);
	const address = {
		zipCode: String(s.int(10_000_000, 99_999_999)),
		street: `Rua ${s.pick(['das Flores', 'Augusta', 'XV de Novembro', 'da Paz'])}, ${s.int(1, 2000)}`,
		complement: s.pick(['', 'Apto 12', 'Casa 2']),
		neighborhood: s.pick(['Centro', 'Jardins', 'Vila Nova']),
		city,
		state,
	};
	const card = paymentMethod === 'credit-card' || paymentMethod === 'debit-card';
	const recurrences: Json[] = [];
	for (let n = 1; n <= paidCount; n++) {
		const dueDate = new Date(Date.parse(subscribedAt) + (n - 1) * days * DAY).toISOString();
		recurrences.push({
			number: n,
			status: n < paidCount ? 'paid' : s.pick(['paid', 'paid', 'pending', 'failed', 'delayed']),
			valueInCents: value,
			dueDate,
		});
	}
	const last = recurrences[recurrences.length - 1] as JsonObject;
	return {
		id: s.id(),
		name: `${String(product.name)} (${periodicity})`,
		periodicity,
		numberRecurrences,
		status,
		subscriptionPaymentStatus: status === 'canceled' ? 'canceled' : String(last.status),
		customer: {
			email: buyer.email,
			phone: { areaCode: '55', ddd: String(s.int(11, 99)), number: `9${s.int(10_000_000, 99_999_999)}`, isMobile: true },
			billingAddress: address,
			deliveryAddress: address,
			document: { type: 'CPF' },
			userId: s.id(),
			externalReferenceId: s.id(),
		},
		recurrenceValueInCents: value,
		expiration,
		paymentMethod,
		creditCard: card
			? {
					nickname: `${buyer.name.split(' ')[0]}'s card`,
					last4Numbers: String(s.int(1000, 9999)),
					holderName: buyer.name.toUpperCase(),
					expiresAtMonth: s.int(1, 12),
					expiresAtYear: s.int(2026, 2032),
					flag: s.pick(['visa', 'mastercard', 'elo']),
				}
			: null,
		orderItem: {
			product: { id: product.id, name: product.name, type: product.type },
			unitValueInCents: value,
			quantity: 1,
		},
		repeatIndefinitely,
		createdAt,
		subscribedAt,
		customValue: { recurrenceFrom: null, recurrenceTo: null, valueInCents: null },
		nextPayment,
		_recurrences: recurrences,
		_businessId: businessId,
	};
}

/** The single-subscription shape of the spec: no createdAt/nextPayment, plus `recurrences`. */
function detail(record: JsonObject): JsonObject {
	const keys = [
		'id',
		'name',
		'subscribedAt',
		'periodicity',
		'numberRecurrences',
		'status',
		'subscriptionPaymentStatus',
		'customer',
		'orderItem',
		'recurrenceValueInCents',
		'expiration',
		'paymentMethod',
		'creditCard',
		'repeatIndefinitely',
		'customValue',
	];
	const out: JsonObject = {};
	for (const key of keys) out[key] = record[key];
	out.recurrences = record._recurrences;
	return out;
}

export const simModule: SimModule = {
	seed(sim) {
		seedRecords(sim, 'subscriptions', (businessId) => makeSubscription(sim, businessId));
	},
	routes(router, sim) {
		router.add('POST', '/subscriptions/filter', 'keys+biz', (ctx) => {
			const body = filterBody(ctx);
			const email = readText(body, 'email')?.toLowerCase();
			const name = readText(body, 'name')?.toLowerCase();
			const dateField = readEnum(body, 'field', SUBSCRIPTION_DATE_FIELDS) ?? 'createdAt';
			const from = readDate(body, 'initialDate');
			const to = readDate(body, 'endDate');
			const status = readEnum(body, 'status', SUBSCRIPTION_STATUSES);
			const minValue = readInt(body, 'initialValue');
			const maxValue = readInt(body, 'endValue');
			const type = readEnum(body, 'type', SUBSCRIPTION_TYPES);
			const ids = readStringArray(body, 'productIds');
			const orderBy = readObject(body, 'orderBy') ?? {};
			const orderField = readEnum(orderBy, 'orderByField', SUBSCRIPTION_ORDER_FIELDS, 'orderBy.orderByField') ?? 'createdAt';
			const direction = readEnum(orderBy, 'orderDirection', ['ASC', 'DESC'] as const, 'orderBy.orderDirection') ?? 'DESC';
			const found = ofBusiness(sim.state.col('subscriptions'), ctx.businessId).filter((r) => {
				const customer = r.customer as JsonObject;
				const product = (r.orderItem as JsonObject).product as JsonObject;
				return (
					(!email || String(customer.email).toLowerCase() === email) &&
					(!name || String(r.name).toLowerCase().includes(name)) &&
					inDateRange(r[dateField], from, to) &&
					(!status || r.status === status) &&
					inRange(Number(r.recurrenceValueInCents), minValue, maxValue) &&
					(!type || r.paymentMethod === type) &&
					(!ids || ids.includes(String(product.id)))
				);
			});
			const sorted = sortRecords(found, ORDER_PATHS[orderField], direction).map(publicView);
			return { data: pageOf(sorted, ctx.query, sim.maxLimit) };
		});
		router.add('GET', '/subscriptions/:subscriptionId', 'keys', (ctx) => {
			const record = sim.state.col('subscriptions').find((r) => r.id === ctx.params.subscriptionId);
			if (!ownedBy(sim, record, ctx.accountId)) throw new SimError(404, 'Subscription not found');
			return { data: detail(record!) };
		});
	},
};
