/**
 * Records that appear and change between two polls, for the polling trigger's tests and for
 * processes that drive the simulator from outside (the real-n8n tests, the demo):
 * - addRecord(): a new record of a business in one of the collections the list and filter
 *   endpoints read, dated by the settable clock unless the caller back-dates it;
 * - updateRecord(): changes fields (a status flip moves `updatedAt` to the clock's now and adds a
 *   `statusHistory` entry when the record keeps one).
 * Control routes: POST /__sim/records/:collection (body: the fields, optional `businessId`),
 * PATCH /__sim/records/:collection/:id (body: the fields).
 */
import type { Json, JsonObject } from '../core';
import { invalidParams, SimError } from '../core';
import { publicView } from '../filtering';
import type { SimModule, Simulator } from '../server';
import { makeRefund } from './refunds';

/** Collections a polling trigger reads. Movements are only ever appended (the movement list caches by length). */
export const POLLED_COLLECTIONS = [
	'refunds',
	'withdrawRequests',
	'commissions',
	'customers',
	'sales',
	'movements',
	'subscriptions',
	'products',
] as const;
export type PolledCollection = (typeof POLLED_COLLECTIONS)[number];

function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collectionOf(name: string): PolledCollection {
	if (!(POLLED_COLLECTIONS as readonly string[]).includes(name)) throw invalidParams('collection');
	return name as PolledCollection;
}

/** Fields the caller may set: everything except the internal `_` fields. */
function settable(fields: JsonObject): JsonObject {
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(fields)) if (!key.startsWith('_') && key !== 'businessId') out[key] = value;
	return out;
}

/**
 * Adds a record of `businessId` (default: the primary business) to `collection`: an id, and
 * `createdAt`/`updatedAt` at the clock's now unless given. A refund request starts from a
 * realistic one in status requested (its status history follows the given status and dates).
 */
export function addRecord(sim: Simulator, collection: PolledCollection, fields: JsonObject = {}, businessId?: string): JsonObject {
	const business = businessId ?? sim.state.accounts[0].businessIds[0];
	if (!sim.state.businesses.some((b) => b.id === business)) throw invalidParams('businessId');
	const now = sim.state.clock.iso();
	const given = settable(fields);
	const createdAt = typeof given.createdAt === 'string' ? given.createdAt : now;
	const base: JsonObject = collection === 'refunds' ? makeRefund(sim, business) : { _businessId: business };
	const record: JsonObject = {
		...base,
		id: sim.state.id(),
		status: collection === 'refunds' ? 'requested' : (base.status ?? null),
		createdAt,
		updatedAt: createdAt,
		...given,
		_businessId: business,
	};
	if (collection === 'refunds') {
		record.requestAt = record.createdAt;
		if (!Array.isArray(given.statusHistory)) {
			const history: Json[] = [{ status: 'requested', date: String(record.createdAt) }];
			if (record.status !== 'requested') history.push({ status: record.status, date: String(record.updatedAt) });
			record.statusHistory = history;
		}
	}
	if (collection === 'movements' && record.type === undefined) {
		record.type = typeof record.valueInCents === 'number' && record.valueInCents < 0 ? 'debit' : 'credit';
	}
	if (record.status === null) delete record.status;
	sim.state.col(collection).push(record);
	return record;
}

/**
 * Changes fields of a record. A new `status` moves `updatedAt` to the clock's now (unless
 * `updatedAt` is given) and is appended to the record's `statusHistory` when it keeps one.
 */
export function updateRecord(sim: Simulator, collection: PolledCollection, id: string, fields: JsonObject): JsonObject {
	if (collection === 'movements') throw new SimError(400, 'Movements are never changed, only added');
	const record = sim.state.col(collection).find((r) => r.id === id);
	if (!record) throw new SimError(404, 'Record not found');
	const given = settable(fields);
	delete given.id;
	const statusChanged = typeof given.status === 'string' && given.status !== record.status;
	Object.assign(record, given);
	if (given.updatedAt === undefined) record.updatedAt = sim.state.clock.iso();
	if (statusChanged && Array.isArray(record.statusHistory)) {
		record.statusHistory = [...record.statusHistory, { status: String(given.status), date: String(record.updatedAt) }];
	}
	return record;
}

/** Removes a record (a customer deleted on the platform, for example) while a list may be read. */
export function removeRecord(sim: Simulator, collection: PolledCollection, id: string): JsonObject {
	const records = sim.state.col(collection);
	const at = records.findIndex((r) => r.id === id);
	if (at < 0) throw new SimError(404, 'Record not found');
	return records.splice(at, 1)[0];
}

export const simModule: SimModule = {
	routes(router, sim) {
		router.add('POST', '/__sim/records/:collection', 'none', (ctx) => {
			const body = isObject(ctx.body) ? ctx.body : {};
			const businessId = typeof body.businessId === 'string' ? body.businessId : undefined;
			const record = addRecord(sim, collectionOf(ctx.params.collection), body, businessId);
			return { status: 201, raw: { record: publicView(record) } };
		});
		router.add('PATCH', '/__sim/records/:collection/:id', 'none', (ctx) => {
			const body = isObject(ctx.body) ? ctx.body : {};
			const record = updateRecord(sim, collectionOf(ctx.params.collection), ctx.params.id, body);
			return { raw: { record: publicView(record) } };
		});
	},
};
