import { createHash } from 'node:crypto';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { parseIsoDate } from '../SalesPayments/shared/dates';
import { fieldError } from '../SalesPayments/shared/errors';
import { paginate } from '../SalesPayments/shared/lists';
import type { PollEvent, RequestContext } from './events';

/**
 * The polling engine. Everything it knows between polls lives in one object of the node's static
 * data (PollState), written once at the end of a successful poll, right before the records are
 * handed to n8n: a poll that fails leaves it as it was, so the next poll reads the same records.
 *
 * Cursor events keep
 * - `ts`: the latest record date processed (the cursor),
 * - `seen`: digests of the records processed whose date lies in the look-back window before
 *   the cursor (with their dates). The next poll asks for records from `ts - look-back` on and
 *   skips those: records sharing the cursor's timestamp, spanning several pages or arriving late
 *   (with a date already behind the cursor) are each reported exactly once;
 * - `floor`: when a burst overflows SEEN_CAP, the oldest dates are forgotten and the next polls
 *   never read below `floor`, so nothing forgotten can be reported again.
 * Status-change events also keep `mem`: the last status of the most recently seen records
 * (MEMORY_CAP at most, least recently seen forgotten first). Snapshot events keep only `mem`:
 * the statuses of the whole watched set, which bounds it.
 */

export const STATE_KEY = 'pollState';
export const STATE_VERSION = 1;
/** Most record digests kept for the look-back window. */
export const SEEN_CAP = 10_000;
/** Most record statuses remembered by a status-change event that goes by update dates. */
export const MEMORY_CAP = 5_000;
/** Largest watched set of a snapshot event. */
export const SNAPSHOT_CAP = 20_000;
/** Records read per attempt when a manual run looks for a sample. */
export const SAMPLE_READ = 200;
const DAY_MS = 86_400_000;
/** Windows a manual run looks back through for a sample, nearest first (then without a date). */
const SAMPLE_WINDOWS_DAYS = [1, 30, 365];

export interface PollState {
	v: number;
	/** Digest of the event and its filters: another value means the node was reconfigured. */
	sig: string;
	ts?: number;
	floor?: number;
	seen?: Array<[string, number]>;
	mem?: Array<[string, string]>;
}

export interface PollSettings {
	event: PollEvent;
	filters: IDataObject;
	/** Statuses chosen for a status event (empty: any). */
	statuses: string[];
	maxRecords: number;
	lookBackMs: number;
	/** Epoch ms of Start From, when set and the event takes it. */
	startFrom?: number;
	watchDays: number;
	/** Digest of what defines the watched records. */
	signature: string;
}

export interface PollOutcome {
	items: IDataObject[];
	state: PollState;
}

/** A short, stable digest (72 bits, base64url) of a record key: static data stays small. */
export function digest(text: string): string {
	return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 12);
}

/** The record's identifier: `id` (or `_id`, `uuid`, `hash`), else a digest of its content. */
export function recordId(record: IDataObject): string {
	for (const key of ['id', '_id', 'uuid', 'hash']) {
		const value = record[key];
		if ((typeof value === 'string' && value !== '') || typeof value === 'number') return String(value);
	}
	return `content:${digest(JSON.stringify(record))}`;
}

/** Epoch ms of the first of `fields` that holds an ISO 8601 date (UTC when it has no zone). */
export function recordTime(record: IDataObject, fields: string[]): number | undefined {
	for (const field of fields) {
		const value = record[field];
		if (typeof value !== 'string') continue;
		const ms = parseIsoDate(value, 'UTC');
		if (ms !== undefined) return ms;
	}
	return undefined;
}

function statusOf(record: IDataObject): string | undefined {
	const status = record.status;
	return typeof status === 'string' && status !== '' ? status : undefined;
}

/**
 * The status a record had before its current one, from its `statusHistory` (refund requests
 * carry one): the entry before the last, when the last entry is the current status and was
 * made at or after `since` (undefined: no history, or no change in the window).
 */
export function previousFromHistory(record: IDataObject, since: number | undefined): string | undefined {
	const history = record.statusHistory;
	if (!Array.isArray(history) || history.length < 2) return undefined;
	const last = history[history.length - 1] as IDataObject | undefined;
	const before = history[history.length - 2] as IDataObject | undefined;
	if (!last || !before || typeof before.status !== 'string') return undefined;
	if (last.status !== statusOf(record)) return undefined;
	if (since !== undefined && typeof last.date === 'string') {
		const at = parseIsoDate(last.date, 'UTC');
		if (at !== undefined && at < since) return undefined;
	}
	return before.status === last.status ? undefined : before.status;
}

interface Candidate {
	record: IDataObject;
	id: string;
	/** Digest of the record's identity (memory key). */
	idKey: string;
	/** Digest of the record at its date (seen key): an update makes a new one. */
	key: string;
	time: number;
}

/** Records in processing order: by date, then by id, each once. */
function order(records: IDataObject[], event: PollEvent, fallbackTime: number): Candidate[] {
	const byKey = new Map<string, Candidate>();
	for (const record of records) {
		const id = recordId(record);
		const time = recordTime(record, event.timeFields) ?? fallbackTime;
		const key = digest(`${id}@${time}`);
		if (!byKey.has(key)) byKey.set(key, { record, id, idKey: digest(id), key, time });
	}
	return [...byKey.values()].sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function wanted(settings: PollSettings, status: string | undefined): boolean {
	if (status === undefined) return false;
	return settings.event.status === 'entered' || settings.statuses.length === 0 || settings.statuses.includes(status);
}

/** Moves `key` to the most recent end of the memory. */
function remember(mem: Map<string, string>, key: string, status: string): void {
	mem.delete(key);
	mem.set(key, status);
}

function capMemory(mem: Map<string, string>): void {
	for (const key of mem.keys()) {
		if (mem.size <= MEMORY_CAP) break;
		mem.delete(key);
	}
}

/**
 * Keeps the seen digests whose date is within the look-back window before `ts`; when more than
 * SEEN_CAP remain, forgets the oldest dates whole and raises the floor above them.
 */
function pruneSeen(seen: Map<string, number>, ts: number, lookBackMs: number, floor?: number): { seen: Array<[string, number]>; floor?: number } {
	let kept = [...seen.entries()].filter(([, time]) => time >= ts - lookBackMs);
	let newFloor = floor;
	if (kept.length > SEEN_CAP) {
		kept.sort((a, b) => a[1] - b[1]);
		let cut = kept.length - SEEN_CAP;
		// Never split one date: all of it is kept or all of it forgotten.
		while (cut < kept.length && kept[cut][1] === kept[cut - 1][1]) cut++;
		newFloor = cut < kept.length ? kept[cut][1] : ts + 1;
		kept = kept.slice(cut);
	}
	return { seen: kept, floor: newFloor };
}

function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/** Reads every page of the event's requests (up to `limit` records each when given). */
async function fetchRecords(ctx: IPollFunctions, settings: PollSettings, req: Partial<RequestContext>, limit?: number): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	const requests = settings.event.requests({ filters: settings.filters, statuses: settings.statuses, ...req });
	for (const request of requests) {
		const { items } = await paginate.call(ctx, { ...request, limit });
		for (const item of items) out.push(item);
	}
	return out;
}

function withPrevious(record: IDataObject, previous: string | null): IDataObject {
	return { ...record, previousStatus: previous };
}

/** The most recent matching record, for a manual run ("Fetch Test Event"); the state is not touched. */
export async function sample(ctx: IPollFunctions, settings: PollSettings, now: number): Promise<IDataObject[]> {
	const { event } = settings;
	const attempts: Array<Partial<RequestContext>> =
		event.mode === 'snapshot'
			? [{ windowStart: iso(now - settings.watchDays * DAY_MS), newestFirst: true }]
			: [...SAMPLE_WINDOWS_DAYS.map((days) => ({ since: iso(now - days * DAY_MS), newestFirst: true })), { newestFirst: true }];
	for (const attempt of attempts) {
		const records = await fetchRecords(ctx, settings, attempt, SAMPLE_READ);
		const matching = event.status ? records.filter((r) => wanted(settings, statusOf(r))) : records;
		const newest = order(matching, event, -Infinity).pop();
		if (!newest) continue;
		if (event.status === 'changed') return [withPrevious(newest.record, previousFromHistory(newest.record, undefined) ?? null)];
		return [newest.record];
	}
	return [];
}

/**
 * First poll after activation (or after the event or its filters changed): learns what exists
 * without reporting it. Cursor events mark the records of the look-back window as seen and set
 * the cursor to now; status events also learn the statuses of the most recent records; snapshot
 * events learn the whole watched set.
 */
export async function baseline(ctx: IPollFunctions, settings: PollSettings, now: number): Promise<PollState> {
	const { event } = settings;
	const state: PollState = { v: STATE_VERSION, sig: settings.signature };
	if (event.mode === 'snapshot') {
		const records = await fetchRecords(ctx, settings, { windowStart: iso(now - settings.watchDays * DAY_MS) }, SNAPSHOT_CAP + 1);
		checkSnapshotSize(ctx, records.length);
		state.mem = order(records, event, now)
			.filter((c) => statusOf(c.record) !== undefined)
			.map((c) => [c.idKey, statusOf(c.record) as string]);
		return state;
	}
	if (settings.startFrom !== undefined) {
		// Report everything from the chosen date on: nothing is seen, nothing remembered.
		return { ...state, ts: settings.startFrom, floor: settings.startFrom, seen: [], mem: [] };
	}
	const mem = new Map<string, string>();
	if (event.status === 'changed') {
		const recent = await fetchRecords(ctx, settings, { newestFirst: true }, MEMORY_CAP);
		// Oldest first, so that the least recently changed are forgotten first.
		for (const c of order(recent, event, now)) {
			const status = statusOf(c.record);
			if (status !== undefined) remember(mem, c.idKey, status);
		}
	}
	const since = now - settings.lookBackMs;
	const windowRecords = await fetchRecords(ctx, settings, { since: iso(since) });
	const seen = new Map<string, number>();
	let ts = now;
	for (const c of order(windowRecords, event, now)) {
		if (c.time < since) continue;
		seen.set(c.key, c.time);
		ts = Math.max(ts, c.time);
		const status = statusOf(c.record);
		if (status !== undefined && event.status === 'changed') remember(mem, c.idKey, status);
	}
	capMemory(mem);
	const pruned = pruneSeen(seen, ts, settings.lookBackMs);
	return { ...state, ts, floor: pruned.floor, seen: pruned.seen, mem: [...mem.entries()] };
}

function checkSnapshotSize(ctx: IPollFunctions, count: number): void {
	if (count > SNAPSHOT_CAP) {
		fieldError(
			ctx,
			`More than ${SNAPSHOT_CAP} records match this event: narrow it with its filters (for example Product IDs or Payment Method)`,
		);
	}
}

/** One poll of a cursor event: the records dated at or after the cursor minus the look-back window. */
export async function pollCursor(ctx: IPollFunctions, settings: PollSettings, state: PollState): Promise<PollOutcome> {
	const { event } = settings;
	const cursor = state.ts ?? 0;
	const since = Math.max(cursor - settings.lookBackMs, state.floor ?? -Infinity);
	const seen = new Map<string, number>(state.seen ?? []);
	// Records come oldest first where the endpoint sorts by the cursor's date: no more than the
	// seen ones plus one poll's worth can be needed.
	const limit = event.sortedAscending ? seen.size + settings.maxRecords : undefined;
	let records = await fetchRecords(ctx, settings, { since: iso(since) }, limit);
	if (limit !== undefined && records.length >= limit) {
		const fresh = records.filter((r) => {
			const time = recordTime(r, event.timeFields) ?? cursor;
			return time >= since && !seen.has(digest(`${recordId(r)}@${time}`));
		}).length;
		// Fewer new records than a poll's worth although the read was cut short: the platform did
		// not sort or filter as documented. Read everything rather than stall.
		if (fresh < settings.maxRecords) records = await fetchRecords(ctx, settings, { since: iso(since) });
	}
	const mem = new Map<string, string>(state.mem ?? []);
	const items: IDataObject[] = [];
	let ts = cursor;
	for (const c of order(records, event, cursor)) {
		if (c.time < since || seen.has(c.key)) continue;
		if (items.length >= settings.maxRecords) break;
		seen.set(c.key, c.time);
		ts = Math.max(ts, c.time);
		if (event.status !== 'changed') {
			items.push(c.record);
			continue;
		}
		const status = statusOf(c.record);
		if (status === undefined) continue;
		const previous = mem.get(c.idKey) ?? previousFromHistory(c.record, since);
		remember(mem, c.idKey, status);
		if (previous !== undefined && previous !== status && wanted(settings, status)) items.push(withPrevious(c.record, previous));
	}
	capMemory(mem);
	const pruned = pruneSeen(seen, ts, settings.lookBackMs, state.floor);
	return { items, state: { ...state, ts, floor: pruned.floor, seen: pruned.seen, mem: [...mem.entries()] } };
}

/**
 * One poll of a snapshot event: the whole watched set, compared with the remembered statuses.
 * `changed`: a remembered record whose status moved; `entered`: a record not in the set before.
 * Records beyond Max Records per Poll keep their old memory, so the next poll reports them.
 */
export async function pollSnapshot(ctx: IPollFunctions, settings: PollSettings, state: PollState, now: number): Promise<PollOutcome> {
	const { event } = settings;
	const records = await fetchRecords(ctx, settings, { windowStart: iso(now - settings.watchDays * DAY_MS) }, SNAPSHOT_CAP + 1);
	checkSnapshotSize(ctx, records.length);
	const mem = new Map<string, string>(state.mem ?? []);
	const next = new Map<string, string>();
	const items: IDataObject[] = [];
	for (const c of order(records, event, now)) {
		const status = statusOf(c.record);
		if (status === undefined || next.has(c.idKey)) continue;
		const previous = mem.get(c.idKey);
		const report =
			event.status === 'entered'
				? previous === undefined
				: previous !== undefined && previous !== status && wanted(settings, status);
		if (!report) {
			next.set(c.idKey, status);
			continue;
		}
		if (items.length >= settings.maxRecords) {
			// Left for the next poll: remembered as before (or not at all).
			if (previous !== undefined) next.set(c.idKey, previous);
			continue;
		}
		items.push(event.status === 'entered' ? c.record : withPrevious(c.record, previous ?? null));
		next.set(c.idKey, status);
	}
	return { items, state: { ...state, mem: [...next.entries()] } };
}
