import type { IDataObject } from 'n8n-workflow';

import type { PollEvent } from './events';

/**
 * The polling trigger's state between polls (one object of static data) and its caps. Written only
 * at the end of a successful poll, so a failed poll is read again. Records are known by identity
 * (id, else a digest), never by the cursor: moving the cursor neither loses nor repeats one.
 */

export const STATE_KEY = 'pollState';
/** How far behind the poll's own clock the cursor stays at most (records the platform dates slightly late). */
export const CURSOR_MARGIN_MS = 60_000;
export const STATE_VERSION = 2;
/** Most records in `seen` for the look-back window. */
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
	/** The cursor: the latest record date processed, never past the poll's clock less CURSOR_MARGIN_MS (a record dated in the future does not hide later ones). */
	ts?: number;
	/** The latest record date processed: [since, hi] is known (all in `seen`), so an idle poll costs two requests. */
	hi?: number;
	/** Set when a burst overflowed SEEN_CAP: nothing below it is read again, so nothing forgotten is reported twice. */
	floor?: number;
	/** Identity digest and date of the records processed in the look-back window before the cursor. */
	seen?: Array<[string, number]>;
	/** Identity digests of the records without a usable date (at most UNDATED_CAP; they never move the cursor). */
	und?: string[];
	/** Last status of the most recently seen records (status events; snapshot events: the whole watched set). */
	mem?: Array<[string, string]>;
	/** The page size the platform took, so that a poll does not learn it again. */
	size?: number;
}

export interface PollSettings {
	event: PollEvent;
	filters: IDataObject;
	/** Statuses chosen for a status event (empty: any). */
	statuses: string[];
	maxRecords: number;
	/** Most requests one poll sends (dateWindows.ts: Budget). */
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


/** The seen digests within the look-back window before `ts`; past SEEN_CAP the oldest dates go whole and the floor rises above them. */
export function pruneSeen(seen: Map<string, number>, ts: number, lookBackMs: number, floor?: number): { seen: Array<[string, number]>; floor?: number } {
	let recent = [...seen.entries()].filter(([, time]) => time >= ts - lookBackMs);
	let newFloor = floor;
	if (recent.length > SEEN_CAP) {
		recent.sort((a, b) => a[1] - b[1]);
		let cut = recent.length - SEEN_CAP;
		// Never split one date: all of it stays or all of it goes.
		while (cut < recent.length && recent[cut][1] === recent[cut - 1][1]) cut++;
		// Never above the cursor (dates ahead of the poll's clock are no reason to stop reading), never below Start From.
		newFloor = Math.max(floor ?? -Infinity, Math.min(cut < recent.length ? recent[cut][1] : ts + 1, ts));
		recent = recent.slice(cut);
	}
	return { seen: recent, floor: newFloor };
}


/** The most recently seen `cap` digests (the list is oldest first). */
export function capList(list: string[], cap: number): string[] {
	return list.length > cap ? list.slice(list.length - cap) : list;
}
