import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../transport/records';

/**
 * When two deliveries are one notification (rule and examples: docs/triggers.md): the same
 * notification id, or with none, the same JSON value. The spec does not show the delivered body,
 * so no field is guessed to be the one that matters.
 */

/** Where the notified record may sit in an envelope. */
const RECORD_FIELDS = ['data', 'order', 'subscription', 'payment', 'recurrence'];

export interface DeliveryKeys {
	/** The key remembered for this delivery. */
	key: string;
	/** Keys an earlier version saved for this notification: a re-send after an upgrade is still caught. */
	legacy: string[];
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

function scalar(value: unknown): string | undefined {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/**
 * The notification's own id: `eventId`, `notificationId` or `deliveryId`, or a top-level `id`
 * when the record sits under `data` (or order, subscription...) with another id. Never the record's.
 */
function notificationId(top: IDataObject, event: string | undefined): string | undefined {
	const named = scalar(top.eventId ?? top.notificationId ?? top.deliveryId);
	if (named !== undefined) return named;
	const id = scalar(top.id);
	if (id === undefined || event === undefined) return undefined;
	const records = RECORD_FIELDS.map((field) => top[field]).filter(isPlainObject);
	// A flat body's `id` may be the record's own: then the whole body decides.
	if (records.length === 0 || records.some((record) => scalar(record.id) === id)) return undefined;
	return id;
}

/** JSON with every object's keys sorted: one text for one JSON value. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
	if (isPlainObject(value)) {
		const fields = Object.keys(value)
			.filter((key) => value[key] !== undefined)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
		return `{${fields.join(',')}}`;
	}
	return JSON.stringify(value ?? null) ?? 'null';
}

/** The key of a delivery whose event kind is `event` (read at the top of the body, when it is there). */
export function deliveryKeys(event: string | undefined, body: unknown): DeliveryKeys {
	const top = isPlainObject(body) ? body : undefined;
	const id = top && notificationId(top, event);
	if (top && id !== undefined) {
		// Earlier versions keyed a top-level id with the status and time beside it: still this notification alone.
		const status = scalar(top.status);
		const time = scalar(top.updatedAt ?? top.paidAt ?? top.date ?? top.createdAt);
		const named = top.eventId ?? top.notificationId ?? top.deliveryId;
		const legacy = named === undefined && (status || time) ? [hash(`record:${event ?? ''}:${id}:${status ?? ''}:${time ?? ''}`)] : [];
		return { key: hash(`notification:${event ?? ''}:${id}`), legacy };
	}
	const canonical = canonicalJson(body);
	const asSent = JSON.stringify(body ?? null);
	return { key: hash(`body:${canonical}`), legacy: asSent === canonical ? [] : [hash(`body:${asSent}`)] };
}
