import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { fieldError } from '../SalesPayments/shared/errors';
import { paginate } from '../SalesPayments/shared/lists';
import type { PollEvent, RequestContext } from './events';
import { digest, order, previousFromHistory, recordId, recordTime, statusOf } from './records';
import { walkWindows } from './walk';

/**
 * The polling engine. Everything it knows between polls lives in one object of the node's static
 * data (PollState), written once at the end of a successful poll, right before the records are
 * handed to n8n: a poll that fails leaves it as it was, so the next poll reads the same records.
 *
 * Cursor events keep
 * - `ts`: the latest record date processed (the cursor), never beyond the poll's own clock less
 *   CURSOR_MARGIN_MS: a record dated in the future (a clock or time zone mislabelled as UTC) is
 *   reported once and kept in `seen` until the clock passes it, and the records created after it
 *   with correct dates are still read;
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
/** How far behind the poll's own clock the cursor stays at most (records the platform dates slightly late). */
export const CURSOR_MARGIN_MS = 60_000;
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
		// Never above the cursor (dates ahead of the poll's clock are no reason to stop reading), never below Start From.
		newFloor = Math.max(floor ?? -Infinity, Math.min(cut < kept.length ? kept[cut][1] : ts + 1, ts));
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

/**
 * Every record of the event dated from `since` on (undefined: from the beginning), read in date
 * windows so that nothing is lost while the platform changes the list (walk.ts). `enough` may end
 * the read early (events of one request only).
 */
async function readRange(
	ctx: IPollFunctions,
	settings: PollSettings,
	since: number | undefined,
	now: number,
	enough?: (records: IDataObject[]) => boolean,
): Promise<IDataObject[]> {
	const { event } = settings;
	const base = { filters: settings.filters, statuses: settings.statuses };
	const count = event.requests(base).length;
	const out: IDataObject[] = [];
	for (let i = 0; i < count; i++) {
		const records = await walkWindows(ctx, {
			request: (window) => event.requests({ ...base, ...window })[i],
			dateOf: (record) => recordTime(record, event.windowFields ?? event.timeFields),
			since,
			now,
			enough: count === 1 ? enough : undefined,
		});
		for (const record of records) out.push(record);
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
			? [{ since: event.watchWindow ? iso(now - settings.watchDays * DAY_MS) : undefined, newestFirst: true }]
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
		const records = await readSnapshot(ctx, settings, now);
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
	// The cursor starts at the poll's clock less the margin; what exists from the look-back window
	// before it on (later dates included) is seen, so the next poll reports none of it.
	const ts = now - CURSOR_MARGIN_MS;
	const since = ts - settings.lookBackMs;
	const windowRecords = await readRange(ctx, settings, since, now);
	const seen = new Map<string, number>();
	for (const c of order(windowRecords, event, ts)) {
		if (c.time < since) continue;
		seen.set(c.key, c.time);
		const status = statusOf(c.record);
		if (status !== undefined && event.status === 'changed') remember(mem, c.idKey, status);
	}
	capMemory(mem);
	const pruned = pruneSeen(seen, ts, settings.lookBackMs);
	return { ...state, ts, floor: pruned.floor, seen: pruned.seen, mem: [...mem.entries()] };
}

/** The watched set of a snapshot event: the records of the watch window (or of the whole lists). */
async function readSnapshot(ctx: IPollFunctions, settings: PollSettings, now: number): Promise<IDataObject[]> {
	const since = settings.event.watchWindow ? now - settings.watchDays * DAY_MS : undefined;
	const records = await readRange(ctx, settings, since, now, (read) => read.length > SNAPSHOT_CAP * 2);
	// Records on a window boundary come twice: the cap counts records, not answers.
	checkSnapshotSize(ctx, new Set(order(records, settings.event, now).map((c) => c.idKey)).size);
	return records;
}

function checkSnapshotSize(ctx: IPollFunctions, count: number): void {
	if (count > SNAPSHOT_CAP) {
		fieldError(
			ctx,
			`More than ${SNAPSHOT_CAP} records match this event: narrow it with its filters (for example Product IDs or Payment Method)`,
		);
	}
}

/**
 * One poll of a cursor event: the records dated at or after the cursor minus the look-back window,
 * oldest first. The cursor never moves past the poll's clock less CURSOR_MARGIN_MS (`now` is when
 * the poll started) and never moves back, except when it stands ahead of the clock itself (state
 * left by an older version, or a clock set back by more than the margin): then it is brought back,
 * and records already reported may be reported again rather than new ones missed.
 */
export async function pollCursor(ctx: IPollFunctions, settings: PollSettings, state: PollState, now: number): Promise<PollOutcome> {
	const { event } = settings;
	const cap = now - CURSOR_MARGIN_MS;
	const cursor = (state.ts ?? 0) > now ? cap : (state.ts ?? 0);
	const since = Math.max(cursor - settings.lookBackMs, state.floor ?? -Infinity);
	const seen = new Map<string, number>(state.seen ?? []);
	// Windows come oldest first: once a poll's worth of records not seen before is read, the rest can wait.
	const enough = (read: IDataObject[]) => {
		const fresh = new Set<string>();
		for (const r of read) {
			const time = recordTime(r, event.timeFields) ?? cursor;
			const key = digest(`${recordId(r)}@${time}`);
			if (time >= since && !seen.has(key)) fresh.add(key);
		}
		return fresh.size >= settings.maxRecords;
	};
	const records = await readRange(ctx, settings, since, now, enough);
	const mem = new Map<string, string>(state.mem ?? []);
	const items: IDataObject[] = [];
	let ts = cursor;
	for (const c of order(records, event, cursor)) {
		if (c.time < since || seen.has(c.key)) continue;
		if (items.length >= settings.maxRecords) break;
		seen.set(c.key, c.time);
		ts = Math.max(ts, Math.min(c.time, cap));
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
	const records = await readSnapshot(ctx, settings, now);
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
