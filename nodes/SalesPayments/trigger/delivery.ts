import { createHash, timingSafeEqual } from 'node:crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { isPlainObject, setOwn } from '../transport/records';
import { normalizeEventKind } from '../fields/webhooks';
import type { Delivery, DeliveryKeys } from './deliveryKey';
import { deliveryKeys, readIdField } from './deliveryKey';
import { admit } from './memory';
import type { Answer } from './stores';
import { idFallbackLogStore, MEMORY_MAX_KEYS } from './stores';
import type { TriggerStaticData } from './ownership';
import { SECRET_HEADER, triggerData } from './ownership';

/**
 * One delivery: secret checked in constant time (401 when wrong), events not chosen answered and
 * dropped, repeats dropped (Ignore Duplicate Deliveries: memory.ts in this process, the static data
 * across restarts), the rest emitted as one item.
 */

/** How many recent delivery keys Ignore Duplicate Deliveries stores in static data (across restarts). */
export const DUPLICATE_WINDOW = 200;
/** How many this n8n process remembers (within 24 hours), all trigger nodes together. */
export const PROCESS_WINDOW = MEMORY_MAX_KEYS;

/** The node version from which Ignore Duplicate Deliveries is on unless switched off. */
export const DEDUPE_BY_DEFAULT_FROM_VERSION = 2;

function secretMatches(given: unknown, expected: unknown): boolean {
	if (typeof expected !== 'string' || expected === '') return false;
	const text = Array.isArray(given) ? given[0] : given;
	if (typeof text !== 'string' || text === '') return false;
	// Digests have equal lengths, so the comparison takes the same time whatever was sent.
	const a = createHash('sha256').update(text, 'utf8').digest();
	const b = createHash('sha256').update(expected, 'utf8').digest();
	return timingSafeEqual(a, b);
}

function objectOf(value: unknown): IDataObject | undefined {
	return isPlainObject(value) ? value : undefined;
}

/** The event kind of a delivery, from whichever field carries it. */
export function eventKindOf(body: unknown): string | undefined {
	const record = objectOf(body);
	if (!record) return undefined;
	for (const key of ['event', 'eventType', 'event_type', 'type', 'kind', 'eventName', 'topic']) {
		const value = record[key];
		if (typeof value === 'string' && value.trim()) return value.trim();
		const inner = objectOf(value);
		if (inner) {
			const named = inner.type ?? inner.name ?? inner.kind;
			if (typeof named === 'string' && named.trim()) return named.trim();
		}
	}
	return undefined;
}

function ignoresDuplicates(ctx: IWebhookFunctions, options: IDataObject): boolean {
	if (typeof options.ignoreDuplicates === 'boolean') return options.ignoreDuplicates;
	return ctx.getNode().typeVersion >= DEDUPE_BY_DEFAULT_FROM_VERSION;
}

/**
 * The request's bytes and charset (n8n keeps them as `rawBody` once it read the body; for a content
 * type it does not parse, `readRawBody()` reads them), with the parsed body.
 */
async function deliveryOf(ctx: IWebhookFunctions, event: string | undefined, body: unknown): Promise<Delivery> {
	const req = ctx.getRequestObject() as unknown as { rawBody?: unknown; encoding?: unknown; readRawBody?: () => Promise<void> };
	if (!(req.rawBody instanceof Uint8Array) && typeof req.readRawBody === 'function') {
		// A body that cannot be read again (consumed elsewhere) leaves the parsed body to decide.
		await req.readRawBody().catch(() => undefined);
	}
	const raw = req.rawBody instanceof Uint8Array ? req.rawBody : undefined;
	return { event, body, raw, encoding: typeof req.encoding === 'string' ? req.encoding : undefined };
}

/** Says once per node and field (in this process) that a delivery lacked a usable Notification ID Field. */
function logIdFallback(ctx: IWebhookFunctions, field: string, event: string | undefined, reason: string): void {
	const node = ctx.getNode();
	const key = `${String(ctx.getWorkflow().id ?? '')}\u0000${node.id ?? node.name}\u0000${field}`;
	if (idFallbackLogStore.has(key)) return;
	idFallbackLogStore.set(key, true);
	const workflow = ctx.getWorkflow();
	ctx.logger.warn(
		`Sales & Payments Trigger (workflow "${workflow.name ?? workflow.id}", node "${node.name}"): the Notification ID Field "${field}" was ${reason} in a delivery${event ? ` of ${event}` : ''}, so that delivery was told apart by its whole body: a byte-for-byte re-send is still dropped, a retry that changes any field runs again. Said once per node until n8n restarts.`,
	);
}

const duplicate = (): IWebhookResponseData => ({ webhookResponse: { received: true, ignored: 'Duplicate delivery' } });

/** Ignore Duplicate Deliveries: whether this delivery repeats one already accepted (or must wait). */
async function repeatVerdict(ctx: IWebhookFunctions, data: TriggerStaticData, { key, legacy }: DeliveryKeys): Promise<IWebhookResponseData | undefined> {
	const recent = Array.isArray(data.recentDeliveries) ? data.recentDeliveries : [];
	if (ctx.getMode() === 'manual') {
		// A test event: the test listen's own static data only; the production memory is left alone.
		if (recent.includes(key)) return duplicate();
		data.recentDeliveries = [...recent, key].slice(-DUPLICATE_WINDOW);
		return undefined;
	}
	const where = { workflowId: String(ctx.getWorkflow().id ?? ''), nodeId: ctx.getNode().id ?? ctx.getNode().name, webhookId: String(data.webhookId ?? '') };
	const res = ctx.getResponseObject() as Answer | undefined;
	const verdict = await admit(where, key, data, typeof res?.once === 'function' ? res : undefined, DUPLICATE_WINDOW, legacy);
	if (verdict === 'accept') return undefined;
	if (verdict === 'duplicate') return duplicate();
	// The first copy is still unanswered: the platform sends this one again later, when it is decided.
	ctx.getResponseObject().status(503).json({ message: 'The first delivery of this notification is still being processed; send it again later' });
	return { noWebhookResponse: true };
}

export async function receive(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const data = triggerData(ctx);
	const headers = ctx.getHeaderData() as IDataObject;
	if (!secretMatches(headers[SECRET_HEADER], data.webhookSecret)) {
		const res = ctx.getResponseObject();
		res.status(401).json({ message: 'Unauthorized' });
		return { noWebhookResponse: true };
	}
	const body = ctx.getBodyData() as unknown;
	const delivered = eventKindOf(body);
	const event = delivered === undefined ? undefined : normalizeEventKind(delivered);
	const events = (ctx.getNodeParameter('events', []) as string[]) ?? [];
	// A kind that cannot be read is let through: the platform only sends what was subscribed.
	if (event !== undefined && !events.includes(event)) {
		return { webhookResponse: { received: true, ignored: `Event ${event} is not one of the chosen events` } };
	}
	const options = (ctx.getNodeParameter('options', {}) as IDataObject) ?? {};
	if (ignoresDuplicates(ctx, options)) {
		const idPath = readIdField(ctx, options);
		const keys = deliveryKeys(await deliveryOf(ctx, event, body), idPath);
		if (keys.idFallback && idPath) logIdFallback(ctx, idPath.join('.'), event, keys.idFallback);
		const repeat = await repeatVerdict(ctx, data, keys);
		if (repeat) return repeat;
	}
	const json: IDataObject = { event: event ?? null };
	const record = objectOf(body);
	if (record) {
		for (const [key, value] of Object.entries(record)) {
			if (key !== 'event') setOwn(json, key, value);
			else if (value !== event) json.deliveredEvent = value;
		}
	} else {
		json.data = body as IDataObject;
	}
	return { workflowData: [ctx.helpers.returnJsonArray([json])] };
}
