/**
 * Filter helpers for the read endpoints' simulator modules (refunds, sales, subscriptions,
 * financials, products): reading and validating filter values the way the platform does
 * (400 `Invalid param: [name]`), seeding dates, sorting and scoping records.
 * Records keep internal fields (such as `_businessId`) under keys starting with `_`.
 */
import type { Json, JsonObject, RouteContext } from './core';
import { invalidParams } from './core';
import type { Simulator } from './server';

export type Source = Record<string, unknown>;
export type Direction = 'ASC' | 'DESC';

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The JSON body of a filter request: an object, or nothing at all. */
export function filterBody(ctx: RouteContext): Source {
	const body = ctx.body;
	if (body === undefined || body === null || body === '') return {};
	if (typeof body !== 'object' || Array.isArray(body)) throw invalidParams('body');
	return body as Source;
}

function present(src: Source, name: string): boolean {
	const v = src[name];
	return v !== undefined && v !== null && v !== '';
}

/** A date-time (ISO 8601) as epoch milliseconds. */
export function readDate(src: Source, name: string, label = name): number | undefined {
	if (!present(src, name)) return undefined;
	const v = src[name];
	const ms = typeof v === 'string' && ISO.test(v) ? Date.parse(v) : NaN;
	if (Number.isNaN(ms)) throw invalidParams(label);
	return ms;
}

/** A whole, non-negative number (a JSON number in bodies, digits in queries). */
export function readInt(src: Source, name: string, label = name): number | undefined {
	if (!present(src, name)) return undefined;
	const v = src[name];
	const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
	if (!Number.isInteger(n) || n < 0) throw invalidParams(label);
	return n;
}

export function readEnum<T extends string>(src: Source, name: string, allowed: readonly T[], label = name): T | undefined {
	if (!present(src, name)) return undefined;
	const v = src[name];
	if (typeof v !== 'string' || !allowed.includes(v as T)) throw invalidParams(label);
	return v as T;
}

export function readText(src: Source, name: string, label = name): string | undefined {
	if (!present(src, name)) return undefined;
	const v = src[name];
	if (typeof v !== 'string') throw invalidParams(label);
	return v;
}

export function readBool(src: Source, name: string, label = name): boolean | undefined {
	if (!present(src, name)) return undefined;
	const v = src[name];
	if (v === true || v === 'true') return true;
	if (v === false || v === 'false') return false;
	throw invalidParams(label);
}

export function readStringArray(src: Source, name: string, label = name): string[] | undefined {
	if (!present(src, name)) return undefined;
	const v = src[name];
	if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw invalidParams(label);
	return v as string[];
}

/** An object-valued filter such as `orderBy` or `createdAt`. */
export function readObject(src: Source, name: string, label = name): Source | undefined {
	if (!present(src, name)) return undefined;
	const v = src[name];
	if (typeof v !== 'object' || Array.isArray(v)) throw invalidParams(label);
	return v as Source;
}

/**
 * Epoch ms of a stored date: an ISO 8601 text (a day that does not exist, such as 2025-02-30, is
 * no date) or epoch milliseconds as a number; undefined for anything else.
 */
export function dateMs(value: Json | undefined): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value !== 'string' || !ISO.test(value)) return undefined;
	const ms = Date.parse(value);
	if (Number.isNaN(ms)) return undefined;
	// Date.parse rolls 2025-02-30 over to March 2: the day must be the one written.
	const [y, m, d] = value.slice(0, 10).split('-').map(Number);
	const day = new Date(Date.UTC(y, m - 1, d));
	return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d ? ms : undefined;
}

/**
 * Whether a stored date lies within [from, to] (either bound may be open). A record without a
 * usable date (missing, null, not a date) cannot be filtered by it: it is in every range, as on
 * a platform whose date filter only compares the dates it has.
 */
export function inDateRange(value: Json | undefined, from?: number, to?: number): boolean {
	if (from === undefined && to === undefined) return true;
	const ms = dateMs(value);
	if (ms === undefined) return true;
	return (from === undefined || ms >= from) && (to === undefined || ms <= to);
}

export function inRange(value: number, from?: number, to?: number): boolean {
	return (from === undefined || value >= from) && (to === undefined || value <= to);
}

/** Reads `a.b.c` from a record. */
export function at(record: JsonObject, path: string): Json | undefined {
	let cur: Json | undefined = record;
	for (const key of path.split('.')) {
		if (!cur || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
		cur = (cur as JsonObject)[key];
	}
	return cur;
}

/**
 * A sorted copy: timestamps by time, numbers by value, text case-insensitively; ties keep the
 * stored order, so pages never overlap.
 */
export function sortRecords(list: JsonObject[], path: string, direction: Direction = 'DESC'): JsonObject[] {
	const key = (r: JsonObject): number | string => {
		const v = at(r, path);
		if (typeof v === 'number') return v;
		if (typeof v === 'string') return ISO.test(v) ? Date.parse(v) : v.toLowerCase();
		return '';
	};
	const sign = direction === 'ASC' ? 1 : -1;
	return list
		.map((r, index) => ({ r, index, k: key(r) }))
		.sort((a, b) => (a.k < b.k ? -sign : a.k > b.k ? sign : a.index - b.index))
		.map((x) => x.r);
}

/** The record as the platform shows it: internal `_` fields left out. */
export function publicView(record: JsonObject): JsonObject {
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(record)) if (!key.startsWith('_')) out[key] = value;
	return out;
}

export function ofBusiness(list: JsonObject[], businessId: string | undefined): JsonObject[] {
	return list.filter((r) => r._businessId === businessId);
}

/** Whether the record belongs to one of the businesses of the API key's account. */
export function ownedBy(sim: Simulator, record: JsonObject | undefined, accountId: string | undefined): boolean {
	const account = sim.state.accounts.find((a) => a.id === accountId);
	return !!record && !!account && account.businessIds.includes(String(record._businessId));
}

/**
 * Businesses that seeded records belong to: the primary business (the test credential's) gets
 * `sim.state.options.size` records, the others a few each, to prove business scoping.
 */
export function seedTargets(sim: Simulator): Array<{ businessId: string; count: number }> {
	const [primary, other] = sim.state.accounts;
	const targets = [{ businessId: primary.businessIds[0], count: sim.state.options.size }];
	if (primary.businessIds[1]) targets.push({ businessId: primary.businessIds[1], count: 4 });
	if (other?.businessIds[0]) targets.push({ businessId: other.businessIds[0], count: 4 });
	return targets;
}

/**
 * Seeds a collection: `make(businessId, n)` for n = 0.. per seed target, at most `max` per
 * business when given. Same order as the targets, so seeded data stays deterministic.
 */
export function seedRecords(
	sim: Simulator,
	collection: string,
	make: (businessId: string, n: number) => JsonObject,
	max = Infinity,
): void {
	const list = sim.state.col(collection);
	for (const { businessId, count } of seedTargets(sim)) {
		for (let n = 0; n < Math.min(count, max); n++) list.push(make(businessId, n));
	}
}

const SEED_EPOCH = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;

/** A deterministic timestamp between `fromDay` and `toDay` days after 2024-01-01. */
export function seedDate(sim: Simulator, fromDay = 0, toDay = 700): string {
	const s = sim.state;
	return new Date(SEED_EPOCH + s.int(fromDay, toDay) * DAY + s.int(0, DAY - 1)).toISOString();
}

/** A deterministic timestamp up to `maxDays` after `after`. */
export function seedLater(sim: Simulator, after: string, maxDays: number): string {
	return new Date(Date.parse(after) + sim.state.int(0, maxDays * DAY)).toISOString();
}

/** Picks a value by weight: `[['paid', 6], ['pending', 2]]`. */
export function weighted<T>(sim: Simulator, choices: Array<[T, number]>): T {
	const total = choices.reduce((n, [, w]) => n + w, 0);
	let roll = sim.state.random() * total;
	for (const [value, weight] of choices) {
		roll -= weight;
		if (roll < 0) return value;
	}
	return choices[choices.length - 1][0];
}

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fabio', 'Gabriela', 'Heitor', 'Isabela', 'Joao', 'Larissa', 'Marcos', 'Natalia', 'Otavio', 'Paula', 'Rafael', 'Sofia', 'Tiago', 'Vitoria', 'Yuri'];
const LAST = ['Almeida', 'Barbosa', 'Costa', 'Duarte', 'Ferreira', 'Gomes', 'Lima', 'Martins', 'Nunes', 'Oliveira', 'Pereira', 'Rocha', 'Santos', 'Teixeira'];

/** A buyer from a pool of 40, so that filtering by email matches several records. */
export function seedPerson(sim: Simulator): { name: string; email: string } {
	const n = sim.state.int(0, 39);
	const first = FIRST[n % FIRST.length];
	const last = LAST[(n * 7) % LAST.length];
	return { name: `${first} ${last}`, email: `${first}.${last}${n}@mail.example`.toLowerCase() };
}

export function hex(sim: Simulator, length: number): string {
	return Array.from({ length }, () => Math.floor(sim.state.random() * 16).toString(16)).join('');
}
