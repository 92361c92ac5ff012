/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Webhooks (spec 4.11 and part 6): registration, listing, details, activate/deactivate, update,
 * delete, and each webhook's queue of failed notifications (details, resume, flush).
 *
 * Event delivery: every event emitted on the state (`sim.state.emit`) is POSTed (or sent with
 * the dispatcher's method) to each http dispatcher of every ACTIVE webhook of the event's
 * business subscribed to the event's kind, with the dispatcher's headers and a JSON body
 * `{ id, event, createdAt, businessId, data }`. A delivery that fails (connection refused, time
 * out, non-2xx) puts the notification into the webhook's queue; resume redelivers it (a success
 * leaves the queue), flush discards it. An inactive webhook receives nothing, and nothing is
 * queued for it. Deliveries run in the background, tracked by `sim.track` (`await sim.settle()`).
 *
 * Control routes (no credentials): POST /__sim/orders (a paid order for demos: order.created,
 * then order.paid), POST /__sim/orders/:orderId/:action (pay, refund, chargeback, cancel,
 * partially-pay, update), POST /__sim/subscriptions/:id/:action (created, updated, activated),
 * GET /__sim/webhooks (every webhook, with its queue size), GET /__sim/webhooks/deliveries.
 */
import http from 'node:http';
import https from 'node:https';

import type { Json, JsonObject, RouteContext } from '../core';
import { invalidParams, pageOf, SimError } from '../core';
import type { SimModule, Simulator } from '../server';
import type { SimEvent } from '../state';

/** Spec part 6, "Registrable event values". */
export const REGISTRABLE_EVENTS = [
	'order.chargeback',
	'order.updated',
	'order.canceled',
	'order.created',
	'order.paid',
	'order.partiallyPaid',
	'order.refunded',
	'subscription.created',
	'subscription.updated',
	'subscription.activated',
] as const;

export const WEBHOOK_STATUSES = ['active', 'inactive', 'unavailable'] as const;
const DISPATCH_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Milliseconds a dispatcher has to answer a notification. */
const DELIVERY_TIMEOUT_MS = 5_000;

/** A notification waiting in a webhook's queue, with the dispatchers it has not reached. */
interface QueueEntry extends JsonObject {
	id: string;
	webhookId: string;
	notification: JsonObject;
	/** Indices of the dispatchers still to reach. */
	pending: number[];
	attempts: number;
	queuedAt: string;
}

export interface DeliveryRecord extends JsonObject {
	webhookId: string;
	notificationId: string;
	event: string;
	url: string;
	method: string;
	/** HTTP status of the answer; 0 when there was none (refused, timed out). */
	status: number;
	ok: boolean;
	error: string | null;
	attempt: number;
	at: string;
	/** The body as sent (JSON text), for tests that send a notification again byte for byte. */
	body: string;
}

const webhooks = (sim: Simulator) => sim.state.col('webhooks');
const queue = (sim: Simulator) => sim.state.col('webhookQueue') as QueueEntry[];
const deliveries = (sim: Simulator) => sim.state.col('webhookDeliveries') as DeliveryRecord[];

function isObject(value: unknown): value is Record<string, unknown> {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

function accountOf(sim: Simulator, ctx: RouteContext) {
	return sim.state.accounts.find((a) => a.id === ctx.accountId)!;
}

/** A webhook of one of the API key's businesses: 404 when unknown, 403 when another account's. */
function ownWebhook(sim: Simulator, ctx: RouteContext): JsonObject {
	const webhook = webhooks(sim).find((w) => w.id === ctx.params.webhookId);
	if (!webhook) throw new SimError(404, 'Webhook not found');
	if (!accountOf(sim, ctx).businessIds.includes(String(webhook.account))) throw new SimError(403, 'Forbidden resource');
	return webhook;
}

function queueOf(sim: Simulator, webhookId: string): QueueEntry[] {
	return queue(sim).filter((e) => e.webhookId === webhookId);
}

/** The webhook as the platform shows it (spec part 2): without the queue's bookkeeping. */
function view(webhook: JsonObject): JsonObject {
	const shown = JSON.parse(JSON.stringify(webhook)) as JsonObject;
	delete shown.queueUpdatedAt;
	return shown;
}

function queueView(webhook: JsonObject, sim: Simulator): JsonObject {
	return {
		id: webhook.queue,
		name: `webhook-${String(webhook.id)}`,
		status: webhook.status === 'active' ? 'active' : 'paused',
		createdAt: webhook.createdAt,
		updatedAt: webhook.queueUpdatedAt ?? webhook.createdAt,
		messagesAvailable: queueOf(sim, String(webhook.id)).length,
	};
}

/** Validates the fields of a create (all required) or update (all optional) body. */
function readWebhookBody(body: unknown, required: boolean): JsonObject {
	if (!isObject(body)) throw invalidParams('body');
	const bad: string[] = [];
	const out: JsonObject = {};
	const has = (key: string) => body[key] !== undefined && body[key] !== null;

	if (has('name')) {
		if (typeof body.name !== 'string' || !body.name.trim()) bad.push('name');
		else out.name = body.name.trim();
	} else if (required) bad.push('name');

	if (has('events')) {
		const events = body.events;
		if (
			!Array.isArray(events) ||
			events.length === 0 ||
			!events.every((e) => typeof e === 'string' && (REGISTRABLE_EVENTS as readonly string[]).includes(e))
		) {
			bad.push('events');
		} else out.events = [...new Set(events as string[])];
	} else if (required) bad.push('events');

	if (has('dispatchers')) {
		const list = body.dispatchers;
		if (!Array.isArray(list) || list.length === 0) bad.push('dispatchers');
		else {
			const dispatchers: JsonObject[] = [];
			list.forEach((d, n) => {
				const label = `dispatchers[${n}]`;
				if (!isObject(d)) {
					bad.push(label);
					return;
				}
				if (d.type !== 'http') bad.push(`${label}.type`);
				let url: URL | undefined;
				try {
					url = typeof d.url === 'string' ? new URL(d.url) : undefined;
				} catch {
					url = undefined;
				}
				if (!url || !['http:', 'https:'].includes(url.protocol)) bad.push(`${label}.url`);
				const method = typeof d.method === 'string' ? d.method.toUpperCase() : '';
				if (!DISPATCH_METHODS.includes(method)) bad.push(`${label}.method`);
				const headers = d.headers ?? {};
				if (!isObject(headers) || !Object.values(headers).every((v) => typeof v === 'string')) {
					bad.push(`${label}.headers`);
				}
				dispatchers.push({ type: 'http', method, url: String(d.url), headers: headers as JsonObject });
			});
			out.dispatchers = dispatchers;
		}
	} else if (required) bad.push('dispatchers');

	if (has('notifyOnFail')) {
		const notify = body.notifyOnFail;
		if (!isObject(notify)) bad.push('notifyOnFail');
		else {
			if (notify.email !== undefined && (typeof notify.email !== 'string' || !EMAIL.test(notify.email))) {
				bad.push('notifyOnFail.email');
			}
			if (notify.name !== undefined && typeof notify.name !== 'string') bad.push('notifyOnFail.name');
			out.notifyOnFail = {
				...(notify.email !== undefined ? { email: notify.email as string } : {}),
				...(notify.name !== undefined ? { name: notify.name as string } : {}),
			};
		}
	}

	if (required && (typeof body.externalAccountId !== 'string' || !body.externalAccountId.trim())) {
		bad.push('externalAccountId');
	}

	if (bad.length) throw invalidParams(...bad);
	return out;
}

/** `events`, `events[]`, `events[0]` ... and comma-separated values, as one list. */
function queryEvents(query: Record<string, string | string[]>): string[] | undefined {
	const values: string[] = [];
	let seen = false;
	for (const [key, value] of Object.entries(query)) {
		if (!/^events(\[\d*\])?$/.test(key)) continue;
		seen = true;
		for (const v of Array.isArray(value) ? value : [value]) values.push(...v.split(',').map((s) => s.trim()));
	}
	return seen ? values.filter((v) => v !== '') : undefined;
}

function readQueryDate(query: Record<string, string | string[]>, name: string): number | undefined {
	const raw = query[name];
	if (raw === undefined || raw === '') return undefined;
	const text = Array.isArray(raw) ? raw[0] : raw;
	const ms = ISO.test(text) ? Date.parse(text) : NaN;
	if (Number.isNaN(ms)) throw invalidParams(name);
	return ms;
}

/** Sends one request to a dispatcher; resolves with the status (0 when there was no answer). */
function send(url: string, method: string, headers: JsonObject, body: string): Promise<{ status: number; error: string | null }> {
	return new Promise((resolve) => {
		let target: URL;
		try {
			target = new URL(url);
		} catch {
			return resolve({ status: 0, error: 'invalid URL' });
		}
		const client = target.protocol === 'https:' ? https : http;
		const req = client.request(
			target,
			{
				method,
				headers: {
					...(headers as Record<string, string>),
					'content-type': 'application/json',
					'content-length': String(Buffer.byteLength(body)),
					'user-agent': 'sales-payments-simulator/1.0',
				},
				timeout: DELIVERY_TIMEOUT_MS,
				agent: false,
			},
			(res) => {
				res.resume();
				res.on('end', () => resolve({ status: res.statusCode ?? 0, error: null }));
				res.on('error', (e) => resolve({ status: res.statusCode ?? 0, error: e.message }));
			},
		);
		req.on('timeout', () => req.destroy(new Error('timed out')));
		req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: 0, error: e.code ?? e.message }));
		req.end(body);
	});
}

/** Tries the given dispatchers of a webhook; returns the indices that failed. */
async function dispatch(sim: Simulator, webhook: JsonObject, notification: JsonObject, which: number[], attempt: number) {
	const dispatchers = (webhook.dispatchers as JsonObject[]) ?? [];
	const body = JSON.stringify(notification);
	const failed: number[] = [];
	await Promise.all(
		which.map(async (index) => {
			const d = dispatchers[index];
			if (!d) return;
			const { status, error } = await send(String(d.url), String(d.method), (d.headers ?? {}) as JsonObject, body);
			const ok = status >= 200 && status < 300;
			deliveries(sim).push({
				webhookId: String(webhook.id),
				notificationId: String(notification.id),
				event: String(notification.event),
				url: String(d.url),
				method: String(d.method),
				status,
				ok,
				error: ok ? null : (error ?? `HTTP ${status}`),
				attempt,
				at: sim.state.clock.iso(),
				body,
			});
			if (!ok) failed.push(index);
		}),
	);
	return failed.sort((a, b) => a - b);
}

/** Delivers a new event to one webhook; what fails goes into the webhook's queue. */
async function deliverNew(sim: Simulator, webhook: JsonObject, notification: JsonObject): Promise<void> {
	const all = ((webhook.dispatchers as JsonObject[]) ?? []).map((_, i) => i);
	const failed = await dispatch(sim, webhook, notification, all, 1);
	// The webhook may have been deleted while the delivery was under way.
	if (failed.length && webhooks(sim).includes(webhook)) {
		queue(sim).push({
			id: sim.state.id(),
			webhookId: String(webhook.id),
			notification,
			pending: failed,
			attempts: 1,
			queuedAt: sim.state.clock.iso(),
		});
		webhook.queueUpdatedAt = sim.state.clock.iso();
	}
}

/** Redelivers every queued notification of a webhook; those delivered leave the queue. */
async function redeliver(sim: Simulator, webhook: JsonObject, entries: QueueEntry[]): Promise<void> {
	for (const entry of entries) {
		entry.attempts++;
		const failed = await dispatch(sim, webhook, entry.notification, entry.pending, entry.attempts);
		entry.pending = failed;
		if (failed.length === 0) {
			const list = queue(sim);
			const at = list.indexOf(entry);
			if (at !== -1) list.splice(at, 1);
		}
	}
	webhook.queueUpdatedAt = sim.state.clock.iso();
}

function onEvent(sim: Simulator, event: SimEvent): void {
	for (const webhook of webhooks(sim)) {
		if (webhook.account !== event.businessId || webhook.status !== 'active') continue;
		if (!(webhook.events as string[]).includes(event.kind)) continue;
		const notification: JsonObject = {
			id: sim.state.id(),
			event: event.kind,
			createdAt: event.at,
			businessId: event.businessId,
			data: JSON.parse(JSON.stringify(event.data)) as Json,
		};
		void sim.track(deliverNew(sim, webhook, notification));
	}
}

/** The record as the platform would show it: no owner field, no internal `_` fields. */
function publicRecord(record: JsonObject): JsonObject {
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(record)) {
		if (key !== 'businessId' && !key.startsWith('_')) out[key] = value;
	}
	return JSON.parse(JSON.stringify(out)) as JsonObject;
}

const businessOf = (record: JsonObject) => String(record.businessId ?? record._businessId ?? '');

const ORDER_ACTIONS: Record<string, { status?: string; event: string }> = {
	pay: { status: 'paid', event: 'order.paid' },
	refund: { status: 'refunded', event: 'order.refunded' },
	chargeback: { status: 'chargedback', event: 'order.chargeback' },
	cancel: { status: 'canceled', event: 'order.canceled' },
	'partially-pay': { status: 'partiallyPaid', event: 'order.partiallyPaid' },
	update: { event: 'order.updated' },
};

function moveOrder(sim: Simulator, order: JsonObject, status: string): void {
	const at = sim.state.clock.iso();
	order.status = status;
	if (status === 'paid') order.paidAt = at;
	if (Array.isArray(order.statusHistory)) order.statusHistory.push({ status, date: at });
	else order.statusHistory = [{ status, date: at }];
}

export const simModule: SimModule = {
	routes(router, sim) {
		sim.state.onEvent((event) => onEvent(sim, event));

		router.add('POST', '/webhooks', 'keys', (ctx) => {
			const fields = readWebhookBody(ctx.body, true);
			const accountId = String((ctx.body as JsonObject).externalAccountId);
			if (!accountOf(sim, ctx).businessIds.includes(accountId)) throw new SimError(403, 'Forbidden resource');
			const now = sim.state.clock.iso();
			const webhook: JsonObject = {
				id: sim.state.id(),
				account: accountId,
				queue: sim.state.id(),
				name: fields.name,
				status: 'active',
				events: fields.events,
				dispatchers: fields.dispatchers,
				notifyOnFail: fields.notifyOnFail ?? null,
				createdAt: now,
				updatedAt: now,
			};
			webhooks(sim).push(webhook);
			return { status: 201, data: view(webhook) };
		});

		router.add('GET', '/webhooks/list/:businessId', 'keys', (ctx) => {
			if (!accountOf(sim, ctx).businessIds.includes(ctx.params.businessId)) throw new SimError(403, 'Forbidden resource');
			const status = ctx.query.status;
			if (status !== undefined && !(WEBHOOK_STATUSES as readonly string[]).includes(String(status))) {
				throw invalidParams('status');
			}
			const from = readQueryDate(ctx.query, 'initialDate');
			const to = readQueryDate(ctx.query, 'endDate');
			const events = queryEvents(ctx.query);
			if (events && (events.length === 0 || !events.every((e) => (REGISTRABLE_EVENTS as readonly string[]).includes(e)))) {
				throw invalidParams('events');
			}
			const found = webhooks(sim).filter((w) => {
				const created = Date.parse(String(w.createdAt));
				return (
					w.account === ctx.params.businessId &&
					(status === undefined || w.status === status) &&
					(from === undefined || created >= from) &&
					(to === undefined || created <= to) &&
					(!events || events.some((e) => (w.events as string[]).includes(e)))
				);
			});
			const page = pageOf(found.map(view), ctx.query, sim.maxLimit);
			// The documented list result has no hasNext/nextPage.
			return {
				data: {
					docs: page.docs,
					totalDocs: page.totalDocs,
					totalPages: page.totalPages,
					currentPage: page.currentPage,
					limit: page.limit,
				},
			};
		});

		router.add('GET', '/webhooks/details/:webhookId', 'keys', (ctx) => ({ data: view(ownWebhook(sim, ctx)) }));

		router.add('GET', '/webhooks/dynamic-queues/:webhookId', 'keys', (ctx) => ({
			data: queueView(ownWebhook(sim, ctx), sim),
		}));

		router.add('DELETE', '/webhooks/delete/:webhookId', 'keys', (ctx) => {
			const webhook = ownWebhook(sim, ctx);
			const list = webhooks(sim);
			list.splice(list.indexOf(webhook), 1);
			const q = queue(sim);
			for (let i = q.length - 1; i >= 0; i--) if (q[i].webhookId === webhook.id) q.splice(i, 1);
			return { data: { id: webhook.id, deleted: true } };
		});

		for (const [action, status] of [
			['activate', 'active'],
			['deactivate', 'inactive'],
		] as const) {
			router.add('PATCH', `/webhooks/${action}/:webhookId`, 'keys', (ctx) => {
				const webhook = ownWebhook(sim, ctx);
				webhook.status = status;
				webhook.updatedAt = sim.state.clock.iso();
				return { data: view(webhook) };
			});
		}

		router.add('PATCH', '/webhooks/flush/:webhookId', 'keys', (ctx) => {
			const webhook = ownWebhook(sim, ctx);
			const q = queue(sim);
			let flushed = 0;
			for (let i = q.length - 1; i >= 0; i--) {
				if (q[i].webhookId === webhook.id) {
					q.splice(i, 1);
					flushed++;
				}
			}
			webhook.queueUpdatedAt = sim.state.clock.iso();
			return { data: { id: webhook.id, flushed, messagesAvailable: 0 } };
		});

		router.add('PATCH', '/webhooks/resume/:webhookId', 'keys', (ctx) => {
			const webhook = ownWebhook(sim, ctx);
			const entries = queueOf(sim, String(webhook.id));
			// An inactive webhook receives nothing: its notifications wait in the queue.
			const resumed = webhook.status === 'active' ? entries.length : 0;
			if (resumed) void sim.track(redeliver(sim, webhook, entries));
			return { data: { id: webhook.id, resumed } };
		});

		router.add('PATCH', '/webhooks/:webhookId', 'keys', (ctx) => {
			const webhook = ownWebhook(sim, ctx);
			const fields = readWebhookBody(ctx.body, false);
			if (Object.keys(fields).length === 0) throw invalidParams('body');
			Object.assign(webhook, fields);
			webhook.updatedAt = sim.state.clock.iso();
			return { data: view(webhook) };
		});

		// ---- control routes ----

		router.add('GET', '/__sim/webhooks', 'none', () => ({
			raw: webhooks(sim).map((w) => ({ ...view(w), messagesAvailable: queueOf(sim, String(w.id)).length })),
		}));

		router.add('GET', '/__sim/webhooks/deliveries', 'none', () => ({ raw: deliveries(sim) }));

		router.add('POST', '/__sim/orders', 'none', (ctx) => {
			const body = isObject(ctx.body) ? ctx.body : {};
			const businessId = typeof body.businessId === 'string' ? body.businessId : sim.state.accounts[0].businessIds[0];
			if (!sim.state.businesses.some((b) => b.id === businessId)) throw invalidParams('businessId');
			const value = typeof body.valueInCents === 'number' && Number.isInteger(body.valueInCents) ? body.valueInCents : 9990;
			const buyer = isObject(body.buyer) ? (body.buyer as JsonObject) : { name: 'Demo Buyer', email: 'buyer@mail.example' };
			const at = sim.state.clock.iso();
			const order: JsonObject = {
				id: sim.state.id(),
				businessId,
				date: at,
				paidAt: null,
				status: 'pending',
				orderBuyer: buyer,
				coupon: null,
				items: [{ name: String(body.itemName ?? 'Demo product'), quantity: 1, priceInCents: value }],
				payments: [{ method: 'pix', numberInstallments: 1, valueInCents: value }],
				metadata: [],
				statusHistory: [{ status: 'pending', date: at }],
			};
			sim.state.col('orders').push(order);
			sim.state.emit('order.created', businessId, publicRecord(order));
			moveOrder(sim, order, 'paid');
			sim.state.emit('order.paid', businessId, publicRecord(order));
			return { status: 201, raw: { order: publicRecord(order), events: ['order.created', 'order.paid'] } };
		});

		router.add('POST', '/__sim/orders/:orderId/:action', 'none', (ctx) => {
			const move = ORDER_ACTIONS[ctx.params.action];
			if (!move) throw invalidParams('action');
			const order = sim.state.col('orders').find((o) => o.id === ctx.params.orderId);
			if (!order) throw new SimError(404, 'Order not found');
			if (move.status) moveOrder(sim, order, move.status);
			else if (isObject(ctx.body)) {
				for (const [key, value] of Object.entries(ctx.body)) {
					if (key !== 'id' && key !== 'businessId' && !key.startsWith('_')) order[key] = value as Json;
				}
				if (typeof ctx.body.status === 'string') moveOrder(sim, order, ctx.body.status);
			}
			sim.state.emit(move.event, businessOf(order), publicRecord(order));
			return { raw: { order: publicRecord(order), event: move.event } };
		});

		router.add('POST', '/__sim/subscriptions/:subscriptionId/:action', 'none', (ctx) => {
			const action = ctx.params.action;
			if (!['created', 'updated', 'activated'].includes(action)) throw invalidParams('action');
			const body = isObject(ctx.body) ? ctx.body : {};
			const list = sim.state.col('subscriptions');
			let record = list.find((s) => s.id === ctx.params.subscriptionId);
			if (!record) {
				if (action !== 'created') throw new SimError(404, 'Subscription not found');
				const businessId = typeof body.businessId === 'string' ? body.businessId : sim.state.accounts[0].businessIds[0];
				if (!sim.state.businesses.some((b) => b.id === businessId)) throw invalidParams('businessId');
				record = {
					id: ctx.params.subscriptionId,
					_businessId: businessId,
					name: String(body.name ?? 'Demo subscription'),
					periodicity: 'monthly',
					status: 'inactive',
					subscriptionPaymentStatus: 'pending',
					recurrenceValueInCents: 2990,
					createdAt: sim.state.clock.iso(),
				};
				list.push(record);
			}
			if (action === 'activated') record.status = 'active';
			if (action === 'updated') {
				for (const [key, value] of Object.entries(body)) {
					if (key !== 'id' && key !== 'businessId' && !key.startsWith('_')) record[key] = value as Json;
				}
			}
			const kind = `subscription.${action}`;
			sim.state.emit(kind, businessOf(record), publicRecord(record));
			return { raw: { subscription: publicRecord(record), event: kind } };
		});
	},
};
