import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { parseIsoDate, recordTime } from '../fields/dates';
import type { PollEvent } from './events';

/** What the poller knows of one record: its identity, its date, its status and the status before. */

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

export function statusOf(record: IDataObject): string | undefined {
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

export interface Candidate {
	record: IDataObject;
	id: string;
	/** Digest of the record's identity: what the poller remembers it by, whatever its date. */
	idKey: string;
	/** Its date (undefined: no usable date). */
	time: number | undefined;
}

/**
 * Records in processing order, each once: by date, then by id; records without a usable date
 * last. A record read twice (on a window boundary, or changed while the list was read) counts
 * once, in its latest version.
 */
export function candidatesOf(records: IDataObject[], event: PollEvent): Candidate[] {
	const byId = new Map<string, Candidate>();
	for (const record of records) {
		const id = recordId(record);
		const time = recordTime(record, event.timeFields);
		const known = byId.get(id);
		if (known && (time === undefined || (known.time !== undefined && known.time >= time))) continue;
		byId.set(id, { record, id, idKey: digest(id), time });
	}
	const at = (c: Candidate) => c.time ?? Infinity;
	return [...byId.values()].sort((a, b) => at(a) - at(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
