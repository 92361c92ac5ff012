import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import type { NodeContext } from '../transport/errors';
import { fieldError } from '../transport/errors';
import { isPlainObject } from '../transport/records';
import { canonicalBody, canonicalText } from './jsonValue';

/**
 * When two deliveries are one notification (rule and examples: docs/triggers.md). The spec does not
 * show the delivered body, so no field is guessed: the same JSON value (jsonValue.ts), or, when the
 * user names a Notification ID Field, the same event kind and value of that field.
 */

/** One delivery as n8n handed it to the node. */
export interface Delivery {
	/** The event kind read from the body (normalized), if any. */
	event?: string;
	/** The body n8n parsed. */
	body: unknown;
	/** The body's bytes as received (n8n's `rawBody`), when n8n gives them. */
	raw?: Uint8Array;
	/** The charset n8n read them with (`utf-8` unless the request said another). */
	encoding?: string;
}

export interface DeliveryKeys {
	/** The key remembered for this delivery. */
	key: string;
	/** Keys an earlier version saved for this body (its re-send after an upgrade is still caught), made when asked. */
	legacy: () => string[];
	/** Why the Notification ID Field could not be used for this delivery (the whole body decided). */
	idFallback?: string;
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The Notification ID Field (in the trigger's options) as a path; undefined when empty (the whole
 * body decides). One that is not a dot path is refused, naming the field.
 */
export function readIdField(ctx: NodeContext, options: IDataObject): string[] | undefined {
	const value = options.notificationIdField;
	const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (text === '') return undefined;
	const path = text.split('.');
	if (path.some((part) => part === '')) {
		fieldError(ctx, `Notification ID Field "${text}" is not a dot path: name a field such as id or data.eventId (no empty part before, between or after the dots)`);
	}
	return path;
}

/** The value at `path`, as a key part, or why there is none. */
function idAt(body: unknown, path: string[]): { id?: string; reason?: string } {
	let value: unknown = body;
	for (const part of path) {
		if (isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, part)) value = value[part];
		else if (Array.isArray(value) && /^\d+$/.test(part) && Number(part) < value.length) value = value[Number(part)];
		else return { reason: 'missing' };
	}
	if (value === undefined) return { reason: 'missing' };
	if (typeof value === 'string') return value.trim() === '' ? { reason: 'empty' } : { id: `s:${value}` };
	if (typeof value === 'number') {
		// Beyond 2^53 or with a fraction, two ids can be one float as n8n reads them.
		return Number.isSafeInteger(value) ? { id: `n:${value}` } : { reason: 'a number n8n cannot read exactly (a fraction, or past 2^53)' };
	}
	if (value === null || Array.isArray(value)) return { reason: value === null ? 'null' : 'an array' };
	return { reason: typeof value === 'object' ? 'an object' : `a ${typeof value}` };
}

/** The body's text as n8n read it, when it is UTF-8 (undefined otherwise: its bytes decide). */
function utf8Text(raw: Uint8Array, encoding: string | undefined): string | undefined {
	if (encoding !== undefined && !['utf-8', 'utf8'].includes(encoding.toLowerCase())) return undefined;
	try {
		// A leading byte-order mark is not part of the value: the decoder drops it.
		return UTF8.decode(raw);
	} catch {
		// Not UTF-8: the bytes decide (the caller's fallback).
		return undefined;
	}
}

/** Keys that 0.1.0 and earlier builds saved for a whole body: both hashed the body as n8n parsed it. */
function legacyKeys(body: unknown, key: string): () => string[] {
	return () => {
		const asSent = hash(`body:${JSON.stringify(body ?? null)}`);
		return asSent === key ? [] : [asSent];
	};
}

const none = (): string[] => [];

/**
 * The whole body's key: its canonical text (exact bodies keep the `body:` keys earlier builds
 * saved); a body n8n reads with loss gets a key of its own kind; bytes that are not UTF-8 JSON
 * are keyed as bytes; without the bytes, the body as n8n parsed it.
 */
function bodyKeys({ body, raw, encoding }: Delivery): DeliveryKeys {
	if (raw === undefined) {
		const key = hash(`body:${canonicalBody(body)}`);
		return { key, legacy: legacyKeys(body, key) };
	}
	const text = utf8Text(raw, encoding);
	const canonical = text === undefined ? undefined : canonicalText(text);
	if (canonical === undefined) return { key: createHash('sha256').update('bytes:').update(raw).digest('hex'), legacy: none };
	if (!canonical.exact) return { key: hash(`json:${canonical.text}`), legacy: none };
	const key = hash(`body:${canonical.text}`);
	return { key, legacy: legacyKeys(body, key) };
}

/** The key of a delivery: by the Notification ID Field at `idPath` when set and usable, else the whole body. */
export function deliveryKeys(delivery: Delivery, idPath?: string[]): DeliveryKeys {
	if (!idPath) return bodyKeys(delivery);
	const { id, reason } = idAt(delivery.body, idPath);
	if (id !== undefined) return { key: hash(`id:${delivery.event ?? ''}\u0000${id}`), legacy: none };
	return { ...bodyKeys(delivery), idFallback: reason };
}
