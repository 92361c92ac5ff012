import type { IDataObject } from 'n8n-workflow';

import { fieldError } from '../transport/errors';
import type { RequestContext } from './events';
import type { Candidate } from './recordFields';
import { recordTime } from '../fields/dates';
import { candidatesOf, previousFromHistory, statusOf } from './recordFields';
import type { PollIO, WindowedRead } from './dateWindows';
import type { DateWindow } from '../paging/windows';
import { readPages, readWindows } from './dateWindows';
import type { PollOutcome, PollSettings, PollState } from './state';
import { capList, capMemory, CURSOR_MARGIN_MS, MEMORY_CAP, pruneSeen, remember, SNAPSHOT_CAP, STATE_VERSION, UNDATED_CAP } from './state';

/** A manual run's sample, the baseline at activation, and one poll of a cursor or snapshot event (state: state.ts). */

/** Records read per attempt when a manual run looks for a sample. */
export const SAMPLE_READ = 200;
const DAY_MS = 86_400_000;
/** Windows a manual run looks back through for a sample, nearest first (then without a date). */
const SAMPLE_WINDOWS_DAYS = [1, 30, 365];

function wanted(settings: PollSettings, status: string | undefined): boolean {
	if (status === undefined) return false;
	return settings.event.status === 'entered' || settings.statuses.length === 0 || settings.statuses.includes(status);
}

function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/** Up to `limit` records of the event's requests (a sample, or the statuses to learn): the rest is left quietly. */
async function fetchRecords(io: PollIO, settings: PollSettings, req: Partial<RequestContext>, limit: number, most?: number): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	const requests = settings.event.requests({ filters: settings.filters, statuses: settings.statuses, ...req });
	for (const request of requests) out.push(...(await readPages(io, request, 'the most recent records', limit, most)));
	return out;
}

/** Every record of the event dated from `since` on, read in date windows (dateWindows.ts); `options` go to readWindows(). */
async function readRange(
	io: PollIO,
	settings: PollSettings,
	since: number | undefined,
	now: number,
	options: Pick<WindowedRead, 'enough' | 'split' | 'known' | 'whole'> = {},
): Promise<IDataObject[]> {
	const { event } = settings;
	const base = { filters: settings.filters, statuses: settings.statuses };
	const count = event.requests(base).length;
	const out: IDataObject[] = [];
	for (let i = 0; i < count; i++) {
		const records = await readWindows(io, {
			request: (window) => event.requests({ ...base, ...window })[i],
			dateOf: (record) => recordTime(record, event.windowFields ?? event.timeFields),
			since,
			now,
			whole: options.whole,
			...(count === 1 ? options : {}),
		});
		for (const record of records) out.push(record);
	}
	return out;
}

function withPrevious(record: IDataObject, previous: string | null): IDataObject {
	return { ...record, previousStatus: previous };
}

/** The most recent matching record, for a manual run ("Fetch Test Event"); the state is not touched. */
export async function sample(io: PollIO, settings: PollSettings, now: number): Promise<IDataObject[]> {
	const { event } = settings;
	const attempts: Array<Partial<RequestContext>> =
		event.mode === 'snapshot'
			? [{ since: event.watchWindow ? iso(now - settings.watchDays * DAY_MS) : undefined, newestFirst: true }]
			: [...SAMPLE_WINDOWS_DAYS.map((days) => ({ since: iso(now - days * DAY_MS), newestFirst: true })), { newestFirst: true }];
	for (const attempt of attempts) {
		const records = await fetchRecords(io, settings, attempt, SAMPLE_READ);
		const matching = candidatesOf(event.status ? records.filter((r) => wanted(settings, statusOf(r))) : records, event);
		// The newest dated record, else one without a date.
		const newest = matching.filter((c) => c.time !== undefined).pop() ?? matching.pop();
		if (!newest) continue;
		if (event.status === 'changed') return [withPrevious(newest.record, previousFromHistory(newest.record, undefined) ?? null)];
		return [newest.record];
	}
	return [];
}

/**
 * First poll after activation (or a change of event or filters): learns what exists without
 * reporting it (the look-back window's records as seen, the cursor at now; statuses of the most
 * recent records; a snapshot's whole set).
 */
export async function baseline(io: PollIO, settings: PollSettings, now: number): Promise<PollState> {
	const { event } = settings;
	const state: PollState = { v: STATE_VERSION, sig: settings.signature };
	if (event.mode === 'snapshot') {
		const records = await readSnapshot(io, settings, now);
		state.mem = candidatesOf(records, event)
			.filter((c) => statusOf(c.record) !== undefined)
			.map((c) => [c.idKey, statusOf(c.record) as string]);
		return { ...state, size: io.pageSize };
	}
	if (settings.startFrom !== undefined) {
		// Report everything from the chosen date on: nothing is seen, nothing remembered.
		return { ...state, ts: settings.startFrom, floor: settings.startFrom, seen: [], mem: [], und: [] };
	}
	const mem = new Map<string, string>();
	if (event.status === 'changed') {
		// Half the requests at most: the look-back window is read next.
		const recent = await fetchRecords(io, settings, { newestFirst: true }, MEMORY_CAP, Math.floor(io.budget.left / 2));
		// Oldest first, so that the least recently changed are forgotten first.
		for (const c of candidatesOf(recent, event)) {
			const status = statusOf(c.record);
			if (status !== undefined) remember(mem, c.idKey, status);
		}
	}
	// The cursor starts at the poll's clock less the margin; what exists from the look-back window
	// before it on (later dates and records without a date included) is seen, so the next poll reports none of it.
	const ts = now - CURSOR_MARGIN_MS;
	const since = ts - settings.lookBackMs;
	const seen = new Map<string, number>();
	const und: string[] = [];
	let hi = ts;
	// Whole or an error: a baseline cut short would leave existing records to be reported as new.
	for (const c of candidatesOf(await readRange(io, settings, since, now, { whole: true }), event)) {
		if (c.time === undefined) und.push(c.idKey);
		else if (c.time < since) continue;
		else {
			seen.set(c.idKey, c.time);
			hi = Math.max(hi, c.time);
		}
		const status = statusOf(c.record);
		if (status !== undefined && event.status === 'changed') remember(mem, c.idKey, status);
	}
	capMemory(mem);
	const pruned = pruneSeen(seen, ts, settings.lookBackMs);
	return { ...state, ts, hi, floor: pruned.floor, seen: pruned.seen, und: capList(und, UNDATED_CAP), mem: [...mem.entries()], size: io.pageSize };
}

/** The watched set of a snapshot event: the records of the watch window (or of the whole lists). */
async function readSnapshot(io: PollIO, settings: PollSettings, now: number): Promise<IDataObject[]> {
	const since = settings.event.watchWindow ? now - settings.watchDays * DAY_MS : undefined;
	const records = await readRange(io, settings, since, now, { enough: (read) => read.length > SNAPSHOT_CAP * 2, whole: true });
	// Records on a window boundary come twice: the cap counts records, not answers.
	checkSnapshotSize(io, candidatesOf(records, settings.event).length);
	return records;
}

function checkSnapshotSize(io: PollIO, count: number): void {
	if (count > SNAPSHOT_CAP) {
		fieldError(
			io.ctx,
			`More than ${SNAPSHOT_CAP} records match this event: narrow it with its filters (for example Product IDs or Payment Method)`,
		);
	}
}

/**
 * One poll of a cursor event: records from the cursor less the look-back window, oldest first, then
 * the undated. The cursor never passes the poll's clock less CURSOR_MARGIN_MS and never moves back,
 * unless the clock went back past it: then it follows, repeating records rather than missing any.
 */
export async function pollCursor(io: PollIO, settings: PollSettings, state: PollState, now: number): Promise<PollOutcome> {
	const { event } = settings;
	const status = event.status === 'changed';
	const cap = now - CURSOR_MARGIN_MS;
	const cursor = (state.ts ?? 0) > now ? cap : (state.ts ?? 0);
	const since = Math.max(cursor - settings.lookBackMs, state.floor ?? -Infinity);
	const seen = new Map<string, number>(state.seen ?? []);
	const und = new Set<string>(state.und ?? []);
	// Already processed: a created record by its identity; a status record in this very version (same
	// date; one without a date is compared with its remembered status every time).
	const done = (c: Candidate) => (status ? c.time !== undefined && seen.get(c.idKey) === c.time : seen.has(c.idKey) || und.has(c.idKey));
	// Windows come oldest first: once a poll's worth of records not processed before is read, the rest can wait.
	// Records without a date come in every answer: they count for a created event only (a status event reports few of them).
	const fresh = (c: Candidate) => (c.time === undefined ? !status : c.time >= since) && !done(c);
	const enough = (read: IDataObject[]) => candidatesOf(read, event).filter(fresh).length >= settings.maxRecords;
	// A window is known when the platform's total is the count of what is remembered in it (records
	// without a date are in every answer) and its first page holds nothing new.
	const known = (window: DateWindow, total: number, page: IDataObject[]) => {
		let count = und.size;
		for (const time of seen.values()) if (time >= window.from && (window.to === undefined || time <= window.to)) count++;
		return total === count && candidatesOf(page, event).every((c) => (c.time === undefined ? und.has(c.idKey) : done(c)));
	};
	const hi = state.hi !== undefined && state.hi >= since ? state.hi : undefined;
	const records = await readRange(io, settings, since, now, { enough, known, split: hi });
	const mem = new Map<string, string>(state.mem ?? []);
	const items: IDataObject[] = [];
	let ts = cursor;
	let top = hi;
	const undated: string[] = [...und];
	for (const c of candidatesOf(records, event)) {
		if ((c.time !== undefined && c.time < since) || done(c)) continue;
		if (items.length >= settings.maxRecords) break;
		if (c.time === undefined) {
			if (!und.has(c.idKey)) undated.push(c.idKey);
			und.add(c.idKey);
		} else {
			seen.set(c.idKey, c.time);
			ts = Math.max(ts, Math.min(c.time, cap));
			top = Math.max(top ?? c.time, c.time);
		}
		if (!status) {
			items.push(c.record);
			continue;
		}
		const current = statusOf(c.record);
		if (current === undefined) continue;
		const previous = mem.get(c.idKey) ?? previousFromHistory(c.record, since);
		remember(mem, c.idKey, current);
		if (previous !== undefined && previous !== current && wanted(settings, current)) items.push(withPrevious(c.record, previous));
	}
	capMemory(mem);
	const pruned = pruneSeen(seen, ts, settings.lookBackMs, state.floor);
	return {
		items,
		state: { ...state, ts, hi: top, floor: pruned.floor, seen: pruned.seen, und: capList(undated, UNDATED_CAP), mem: [...mem.entries()], size: io.pageSize },
	};
}

/**
 * One poll of a snapshot event: the watched set against the remembered statuses (`changed`: status
 * moved; `entered`: new in the set). Records past Max Records per Poll are reported next poll.
 */
export async function pollSnapshot(io: PollIO, settings: PollSettings, state: PollState, now: number): Promise<PollOutcome> {
	const { event } = settings;
	const records = await readSnapshot(io, settings, now);
	const mem = new Map<string, string>(state.mem ?? []);
	const next = new Map<string, string>();
	const items: IDataObject[] = [];
	for (const c of candidatesOf(records, event)) {
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
	return { items, state: { ...state, mem: [...next.entries()], size: io.pageSize } };
}
