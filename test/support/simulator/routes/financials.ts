/**
 * Financial records (spec 4.2b), all KEYS+BIZ with PAGE in the query:
 * - POST /withdraw-requests/filter: `initialDate`/`endDate` (createdAt), `status`,
 *   `initialValue`/`endValue` (valueInCents), `orderBy` {orderByField, orderDirection};
 * - POST /movement/filter: `initialValue`/`endValue` (the amount, whatever its sign), `subject`
 *   and `description` (contain, case-insensitive), `hash`, `originType`, `referenceId`, `groupId`
 *   (exact), `initialDate`/`endDate`, `omitDebit`, `omitCredit`; answers
 *   `{ movements, count, totalValue }` where count and totalValue (credits minus debits, in cents)
 *   cover the whole filtered set;
 * - GET /commissions/list: query `initialDate`/`endDate` (createdAt) and `status`.
 * The spec leaves the status and originType values open; the values below are this simulator's.
 */
import type { JsonObject } from '../core';
import { pageOf, readPaging } from '../core';
import {
	filterBody,
	hex,
	inDateRange,
	inRange,
	ofBusiness,
	publicView,
	readBool,
	readDate,
	readEnum,
	readInt,
	readObject,
	readText,
	seedDate,
	seedLater,
	seedPerson,
	seedTargets,
	sortRecords,
	weighted,
} from '../filtering';
import type { SimModule, Simulator } from '../server';
import { productsOf } from './products';

export const WITHDRAW_STATUSES = ['pending', 'processing', 'completed', 'rejected', 'canceled'] as const;
export const WITHDRAW_ORDER_FIELDS = ['createdAt', 'updatedAt', 'valueInCents', 'status'] as const;
export const MOVEMENT_ORIGINS = ['sale', 'commission', 'refund', 'withdraw', 'fee', 'chargeback'] as const;
export const COMMISSION_STATUSES = ['pending', 'released', 'canceled', 'refunded'] as const;

const CREDIT_ORIGINS = ['sale', 'commission'];

function makeWithdraw(sim: Simulator, businessId: string): JsonObject {
	const s = sim.state;
	const valueInCents = s.int(10, 5_000) * 100 + s.int(0, 99);
	const createdAt = seedDate(sim, 0, 700);
	const status = weighted(sim, [
		['completed', 6],
		['pending', 2],
		['processing', 1],
		['rejected', 0.5],
		['canceled', 0.5],
	]);
	const feeInCents = status === 'completed' || status === 'processing' ? 367 : 0;
	return {
		id: s.id(),
		valueInCents,
		feeInCents,
		netValueInCents: valueInCents - feeInCents,
		status,
		bankAccount: {
			bankCode: s.pick(['001', '237', '260', '341']),
			agencyNumber: String(s.int(1, 9999)).padStart(4, '0'),
			accountNumber: String(s.int(10_000, 999_999)),
			pixKey: null,
		},
		createdAt,
		updatedAt: status === 'pending' ? createdAt : seedLater(sim, createdAt, 3),
		_businessId: businessId,
	};
}

/** A group of movements: a sale and its fee, a refund, a withdraw and its fee ... */
function makeMovementGroup(sim: Simulator, businessId: string, createdAtMs?: number): JsonObject[] {
	const s = sim.state;
	const groupId = s.id();
	const referenceId = s.id();
	const createdAt = createdAtMs === undefined ? seedDate(sim, 0, 700) : new Date(createdAtMs).toISOString();
	const products = productsOf(sim, businessId);
	const product = products.length ? s.pick(products) : undefined;
	const amount = product ? Number(product.priceInCents) : s.int(1_000, 50_000);
	const origin = weighted(sim, [
		['sale', 6],
		['commission', 1],
		['refund', 1],
		['withdraw', 1],
		['chargeback', 0.3],
	]);
	const entries: Array<[string, number, string, string]> = [];
	if (origin === 'sale') {
		entries.push(['sale', amount, 'Sale', `Sale of ${String(product?.name ?? 'a product')}`]);
		entries.push(['fee', -Math.round(amount * 0.0499 + 99), 'Platform fee', 'Fee on the sale']);
	} else if (origin === 'commission') {
		entries.push(['commission', Math.round(amount * 0.3), 'Commission', `Affiliate commission on ${String(product?.name ?? 'a product')}`]);
	} else if (origin === 'refund') {
		entries.push(['refund', -amount, 'Refund', `Refund of ${String(product?.name ?? 'a product')}`]);
	} else if (origin === 'withdraw') {
		const value = s.int(10, 3_000) * 100;
		entries.push(['withdraw', -value, 'Withdraw', 'Transfer to the bank account']);
		entries.push(['fee', -367, 'Withdraw fee', 'Fee on the transfer']);
	} else {
		entries.push(['chargeback', -amount, 'Chargeback', `Chargeback of ${String(product?.name ?? 'a product')}`]);
		entries.push(['fee', -1500, 'Chargeback fee', 'Fee on the chargeback']);
	}
	return entries.map(([originType, valueInCents, subject, description], n) => ({
		id: s.id(),
		type: CREDIT_ORIGINS.includes(originType) ? 'credit' : 'debit',
		valueInCents,
		subject,
		description,
		hash: hex(sim, 40),
		originType,
		referenceId,
		groupId,
		createdAt: new Date(Date.parse(createdAt) + n * 1000).toISOString(),
		_businessId: businessId,
	}));
}

function makeCommission(sim: Simulator, businessId: string): JsonObject {
	const s = sim.state;
	const person = seedPerson(sim);
	const products = productsOf(sim, businessId);
	const product = products.length ? s.pick(products) : undefined;
	const role = weighted(sim, [
		['affiliate', 5],
		['coproducer', 2],
		['producer', 3],
	]);
	const percentage = role === 'producer' ? 100 : role === 'coproducer' ? s.pick([20, 30, 50]) : s.pick([10, 30, 40, 50]);
	const base = product ? Number(product.priceInCents) : s.int(1_000, 50_000);
	const createdAt = seedDate(sim, 0, 700);
	return {
		id: s.id(),
		orderId: s.id(),
		productId: product?.id ?? null,
		productName: product?.name ?? null,
		commissionedName: person.name,
		commissionedEmail: person.email,
		role,
		percentage,
		valueInCents: Math.round((base * percentage) / 100),
		status: weighted(sim, [
			['released', 5],
			['pending', 3],
			['canceled', 1],
			['refunded', 1],
		]),
		createdAt,
		releaseAt: seedLater(sim, createdAt, 30),
		_businessId: businessId,
	};
}

/** A time window for added movements: ISO 8601 start (inclusive) and end (exclusive). */
export interface MovementWindow {
	from: string;
	to: string;
}

/**
 * Adds exactly `count` more movements to a business (e.g. the 100,000 of `npm run bench`), at
 * seeded dates, or within `window` (the demo's example month).
 */
export function addMovements(sim: Simulator, businessId: string, count: number, window?: MovementWindow): void {
	const movements = sim.state.col('movements');
	const from = window ? Date.parse(window.from) : 0;
	// A group's entries are a second apart: keep its start a minute before the window's end.
	const span = window ? Date.parse(window.to) - from - 60_000 : 0;
	for (let added = 0; added < count; ) {
		const at = window ? from + Math.floor(sim.state.random() * span) : undefined;
		for (const m of makeMovementGroup(sim, businessId, at)) {
			if (added === count) break;
			movements.push(m);
			added++;
		}
	}
}

interface MovementResult {
	key: string;
	/** The collection's length and last id when computed. */
	length: string;
	/** The matching movements, newest first, as the platform shows them. */
	sorted: JsonObject[];
	totalValue: number;
}

/**
 * The last filtered and sorted movement lists, so that walking the pages of a large list costs
 * one slice per page instead of a filter and a sort of the whole collection. Movements are
 * never changed in place, only appended (or, in tests, removed): a length or last-id change invalidates an entry.
 */
const movementResults = new WeakMap<Simulator, MovementResult[]>();

function cachedMovements(sim: Simulator, key: string, compute: () => JsonObject[]): MovementResult {
	const all = sim.state.col('movements');
	// Length and last id: an append or a removal (records.ts removeRecord) changes one of them.
	const length = `${all.length}:${String(all[all.length - 1]?.id)}`;
	let results = movementResults.get(sim);
	if (!results) movementResults.set(sim, (results = []));
	const hit = results.find((r) => r.key === key && r.length === length);
	if (hit) return hit;
	const found = compute();
	const totalValue = found.reduce((sum, m) => sum + Number(m.valueInCents), 0);
	const result = { key, length, sorted: found.map(publicView), totalValue };
	results.unshift(result);
	results.length = Math.min(results.length, 8);
	return result;
}

export const simModule: SimModule = {
	seed(sim) {
		const withdraws = sim.state.col('withdrawRequests');
		const movements = sim.state.col('movements');
		const commissions = sim.state.col('commissions');
		for (const { businessId, count } of seedTargets(sim)) {
			for (let n = 0; n < count; n++) withdraws.push(makeWithdraw(sim, businessId));
			const before = movements.length;
			while (movements.length - before < count) movements.push(...makeMovementGroup(sim, businessId));
			for (let n = 0; n < count; n++) commissions.push(makeCommission(sim, businessId));
		}
	},
	routes(router, sim) {
		router.add('POST', '/withdraw-requests/filter', 'keys+biz', (ctx) => {
			const body = filterBody(ctx);
			const from = readDate(body, 'initialDate');
			const to = readDate(body, 'endDate');
			const status = readEnum(body, 'status', WITHDRAW_STATUSES);
			const minValue = readInt(body, 'initialValue');
			const maxValue = readInt(body, 'endValue');
			const orderBy = readObject(body, 'orderBy') ?? {};
			const orderField = readEnum(orderBy, 'orderByField', WITHDRAW_ORDER_FIELDS, 'orderBy.orderByField') ?? 'createdAt';
			const direction = readEnum(orderBy, 'orderDirection', ['ASC', 'DESC'] as const, 'orderBy.orderDirection') ?? 'DESC';
			const found = ofBusiness(sim.state.col('withdrawRequests'), ctx.businessId).filter(
				(r) =>
					inDateRange(r.createdAt, from, to) &&
					(!status || r.status === status) &&
					inRange(Number(r.valueInCents), minValue, maxValue),
			);
			return { data: pageOf(sortRecords(found, orderField, direction).map(publicView), ctx.query, sim.maxLimit) };
		});

		router.add('POST', '/movement/filter', 'keys+biz', (ctx) => {
			const body = filterBody(ctx);
			const minValue = readInt(body, 'initialValue');
			const maxValue = readInt(body, 'endValue');
			const subject = readText(body, 'subject')?.toLowerCase();
			const description = readText(body, 'description')?.toLowerCase();
			const hash = readText(body, 'hash');
			const originType = readEnum(body, 'originType', MOVEMENT_ORIGINS);
			const referenceId = readText(body, 'referenceId');
			const groupId = readText(body, 'groupId');
			const from = readDate(body, 'initialDate');
			const to = readDate(body, 'endDate');
			const omitDebit = readBool(body, 'omitDebit') ?? false;
			const omitCredit = readBool(body, 'omitCredit') ?? false;
			const { page, limit } = readPaging(ctx.query, sim.maxLimit);
			const matches = (m: JsonObject) =>
				inRange(Math.abs(Number(m.valueInCents)), minValue, maxValue) &&
				(!subject || String(m.subject).toLowerCase().includes(subject)) &&
				(!description || String(m.description).toLowerCase().includes(description)) &&
				(!hash || m.hash === hash) &&
				(!originType || m.originType === originType) &&
				(!referenceId || m.referenceId === referenceId) &&
				(!groupId || m.groupId === groupId) &&
				inDateRange(m.createdAt, from, to) &&
				!(omitDebit && m.type === 'debit') &&
				!(omitCredit && m.type === 'credit');
			const compute = () => sortRecords(ofBusiness(sim.state.col('movements'), ctx.businessId).filter(matches), 'createdAt', 'DESC');
			const { sorted, totalValue } = cachedMovements(sim, `${ctx.businessId}|${JSON.stringify(body)}`, compute);
			return {
				data: {
					movements: sorted.slice((page - 1) * limit, page * limit),
					count: sorted.length,
					totalValue,
				},
			};
		});

		router.add('GET', '/commissions/list', 'keys+biz', (ctx) => {
			const q = ctx.query;
			const from = readDate(q, 'initialDate');
			const to = readDate(q, 'endDate');
			const status = readEnum(q, 'status', COMMISSION_STATUSES);
			const found = ofBusiness(sim.state.col('commissions'), ctx.businessId).filter(
				(c) => inDateRange(c.createdAt, from, to) && (!status || c.status === status),
			);
			return { data: pageOf(sortRecords(found, 'createdAt', 'DESC').map(publicView), ctx.query, sim.maxLimit) };
		});
	},
};
