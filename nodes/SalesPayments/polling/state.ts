import type { IDataObject } from 'n8n-workflow';

import type { PollEvent } from './events';

/**
 * What the polling trigger keeps between polls, and the caps that bound it. Everything it knows
 * between polls lives in one object of the node's static data (PollState), written once at the end
 * of a successful poll (poller.ts), right before the records are handed to n8n: a poll that fails
 * leaves it as it was, so the next poll reads the same records.
 *
 * A record is known by its identity (its id, else a digest of its content), never by the cursor:
 * - `seen`: the records processed whose date lies in the look-back window before the cursor,
 *   by identity with their date. A record of a created event is reported once whatever its date
 *   says and however often it is read; a status event goes by its remembered status (`mem`),
 *   and a record read again in the same version (same date) is not looked at twice.
 * - `und`: the records without a usable date (missing, null, not a date). Those existing at the
 *   activation are the baseline; one first seen later is reported once (created events), a status
 *   event compares its status with the remembered one. They never move the cursor. UNDATED_CAP
 *   at most, the least recently seen forgotten first.
 * Cursor events keep
 * - `ts`: the latest record date processed (the cursor), never beyond the poll's own clock less
 *   CURSOR_MARGIN_MS: a record dated in the future (a clock or time zone mislabelled as UTC) is
 *   reported once and kept in `seen` until the clock passes it, and the records created after it
 *   with correct dates are still read. The next poll reads from `ts - look-back` on: records
 *   sharing the cursor's timestamp, spanning several pages or arriving late (with a date already
 *   behind the cursor) are each reported exactly once;
 * - `hi`: the latest record date processed. The range is read in two parts, [since, hi] whose
 *   records are all in `seen` (one request when the platform's total and first page agree), then
 *   what is after `hi`: an idle poll costs two requests, ties or not;
 * - `floor`: when a burst overflows SEEN_CAP, the oldest dates are forgotten and the next polls
 *   never read below `floor`, so nothing forgotten can be reported again.
 * Status-change events also keep `mem`: the last status of the most recently seen records
 * (MEMORY_CAP at most, least recently seen forgotten first). Snapshot events keep only `mem`:
 * the statuses of the whole watched set, which bounds it.
 * `size` is the page size the platform took, so that a poll does not learn it again.
 */

export const STATE_KEY = 'pollState';
/** How far behind the poll's own clock the cursor stays at most (records the platform dates slightly late). */
export const CURSOR_MARGIN_MS = 60_000;
export const STATE_VERSION = 2;
/** Most records kept in `seen` for the look-back window. */
export const SEEN_CAP = 10_000;
/** Most records without a usable date remembered. */
export const UNDATED_CAP = 1_000;
/** Most record statuses remembered by a status-change event that goes by update dates. */
export const MEMORY_CAP = 5_000;
/** Largest watched set of a snapshot event. */
export const SNAPSHOT_CAP = 20_000;

export interface PollState {
	v: number;
	/** Digest of the event and its filters: another value means the node was reconfigured. */
	sig: string;
	ts?: number;
	hi?: number;
	floor?: number;
	/** Identity digest and date of the records processed in the look-back window. */
	seen?: Array<[string, number]>;
	/** Identity digests of the records without a usable date. */
	und?: string[];
	mem?: Array<[string, string]>;
	size?: number;
}

export interface PollSettings {
	event: PollEvent;
	filters: IDataObject;
	/** Statuses chosen for a status event (empty: any). */
	statuses: string[];
	maxRecords: number;
	/** Most requests one poll sends (walk.ts: Budget). */
	maxRequests: number;
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

/** Moves `key` to the most recent end of the memory. */
export function remember(mem: Map<string, string>, key: string, status: string): void {
	mem.delete(key);
	mem.set(key, status);
}


export function capMemory(mem: Map<string, string>): void {
	for (const key of mem.keys()) {
		if (mem.size <= MEMORY_CAP) break;
		mem.delete(key);
	}
}


/**
 * Keeps the seen digests whose date is within the look-back window before `ts`; when more than
 * SEEN_CAP remain, forgets the oldest dates whole and raises the floor above them.
 */
export function pruneSeen(seen: Map<string, number>, ts: number, lookBackMs: number, floor?: number): { seen: Array<[string, number]>; floor?: number } {
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


/** Keeps the most recently seen `cap` digests (the list is oldest first). */
export function capList(list: string[], cap: number): string[] {
	return list.length > cap ? list.slice(list.length - cap) : list;
}
