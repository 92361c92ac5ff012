import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { paginate } from '../SalesPayments/shared/pagination';
import { apiRequest, getCachedCredentials } from '../SalesPayments/shared/transport';
import { notifyOnFailFields } from '../SalesPayments/resources/webhook/fields';
import {
	normalizeEventKind,
	WEBHOOK_EVENT_OPTIONS,
	WEBHOOK_EVENTS,
} from '../SalesPayments/resources/webhook/events';

/** Header that carries the per-webhook secret on every delivery. */
export const SECRET_HEADER = 'x-sp-webhook-secret';

/** How many recent delivery hashes "Ignore Duplicate Deliveries" remembers. */
export const DUPLICATE_WINDOW = 200;

/** What the node keeps in its static data between activations and deliveries. */
interface TriggerStaticData {
	webhookId?: string;
	webhookSecret?: string;
	webhookUrl?: string;
	webhookEvents?: string[];
	/** sha256 of the most recent delivery bodies (Ignore Duplicate Deliveries). */
	recentDeliveries?: string[];
}

type Context = IHookFunctions | IWebhookFunctions;

function staticData(ctx: Context): TriggerStaticData {
	return ctx.getWorkflowStaticData('node') as TriggerStaticData;
}

function forget(data: TriggerStaticData): void {
	delete data.webhookId;
	delete data.webhookSecret;
	delete data.webhookUrl;
	delete data.webhookEvents;
}

/** The chosen events, checked: at least one, each registrable. */
function readEvents(ctx: Context): string[] {
	const raw = ctx.getNodeParameter('events', []) as unknown;
	const list = Array.isArray(raw) ? raw.map((e) => String(e).trim()).filter(Boolean) : [];
	if (list.length === 0) throw new NodeOperationError(ctx.getNode(), 'Events: choose at least one event');
	for (const event of list) {
		if (!WEBHOOK_EVENTS.includes(event)) {
			throw new NodeOperationError(ctx.getNode(), `Events: "${event}" is not an event the platform can notify`);
		}
	}
	return [...new Set(list)].sort();
}

function readOptions(ctx: Context): IDataObject {
	return (ctx.getNodeParameter('options', {}) as IDataObject) ?? {};
}

function notifyOnFailOf(ctx: IHookFunctions, options: IDataObject): IDataObject | undefined {
	const email = typeof options.notifyOnFailEmail === 'string' ? options.notifyOnFailEmail.trim() : '';
	const name = typeof options.notifyOnFailName === 'string' ? options.notifyOnFailName.trim() : '';
	if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
		throw new NodeOperationError(ctx.getNode(), `Notify on Fail Email must be a valid email address ("${email}" is not)`);
	}
	if (!email && !name) return undefined;
	return { ...(email ? { email } : {}), ...(name ? { name } : {}) };
}

function nodeUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n could not tell the webhook URL of this node');
	return url;
}

async function businessIdOf(ctx: IHookFunctions): Promise<string> {
	const credentials = await getCachedCredentials.call(ctx);
	const businessId = String(credentials.businessId ?? '').trim();
	if (!businessId) {
		throw new NodeOperationError(ctx.getNode(), 'The credential has no Business ID: webhooks are registered per business');
	}
	return businessId;
}

function webhookName(ctx: IHookFunctions): string {
	const workflow = ctx.getWorkflow();
	const test = ctx.getMode() === 'manual' ? ' [test]' : '';
	return `n8n: ${workflow.name ?? 'workflow'} (${workflow.id ?? 'unsaved'})${test}`;
}

/** Whether a webhook's name is the one create() gives this workflow's production webhook. */
function registeredByThisWorkflow(ctx: IHookFunctions, webhook: IDataObject): boolean {
	const id = ctx.getWorkflow().id;
	return typeof webhook.name === 'string' && !!id && webhook.name.startsWith('n8n: ') && webhook.name.endsWith(`(${id})`);
}

/** The webhook record of a response, whether it comes bare or under `webhook`. */
function webhookRecord(data: IDataObject): IDataObject {
	const inner = data.webhook;
	return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as IDataObject) : data;
}

function dispatchersOf(webhook: IDataObject): IDataObject[] {
	return Array.isArray(webhook.dispatchers) ? (webhook.dispatchers as IDataObject[]) : [];
}

function pointsTo(webhook: IDataObject, url: string): boolean {
	return dispatchersOf(webhook).some((d) => d && d.url === url);
}

/** The secret header value the platform holds for our URL; undefined when it does not show headers. */
function registeredSecret(webhook: IDataObject, url: string): string | null | undefined {
	const dispatcher = dispatchersOf(webhook).find((d) => d && d.url === url);
	const headers = dispatcher?.headers;
	if (!headers || typeof headers !== 'object') return undefined;
	const key = Object.keys(headers).find((k) => k.toLowerCase() === SECRET_HEADER);
	return key === undefined ? null : String((headers as IDataObject)[key]);
}

function sameSet(a: unknown, b: string[]): boolean {
	if (!Array.isArray(a)) return false;
	const left = new Set(a.map(String));
	return left.size === b.length && b.every((x) => left.has(x));
}

/** Throws a transport error on; both constructors hand back an error of their own class unchanged. */
function rethrow(ctx: Context, error: unknown): never {
	if (error instanceof NodeApiError) throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	throw new NodeOperationError(ctx.getNode(), error as Error);
}

function isNotFound(error: unknown): boolean {
	return (error as { httpCode?: string | null }).httpCode === '404';
}

async function fetchWebhook(ctx: IHookFunctions, id: string): Promise<IDataObject | undefined> {
	try {
		const data = await apiRequest.call(ctx, { method: 'GET', path: `/webhooks/details/${encodeURIComponent(id)}` });
		return webhookRecord(data);
	} catch (error) {
		if (isNotFound(error)) return undefined;
		return rethrow(ctx, error);
	}
}

async function deleteWebhook(ctx: IHookFunctions, id: string): Promise<void> {
	try {
		await apiRequest.call(ctx, {
			method: 'DELETE',
			path: `/webhooks/delete/${encodeURIComponent(id)}`,
			// Deleting twice is harmless here: "already gone" is what we want.
			idempotent: true,
		});
	} catch (error) {
		if (!isNotFound(error)) rethrow(ctx, error);
	}
}

/** Every webhook of the business whose dispatchers call `url`. */
async function webhooksPointingTo(ctx: IHookFunctions, businessId: string, url: string): Promise<IDataObject[]> {
	const { items } = await paginate.call(ctx, {
		method: 'GET',
		path: `/webhooks/list/${encodeURIComponent(businessId)}`,
		pageSize: 100,
	});
	return items.filter((w) => pointsTo(w, url));
}

function secretMatches(given: unknown, expected: unknown): boolean {
	if (typeof expected !== 'string' || expected === '') return false;
	const text = Array.isArray(given) ? given[0] : given;
	if (typeof text !== 'string' || text === '') return false;
	// Digests have equal lengths, so the comparison takes the same time whatever was sent.
	const a = createHash('sha256').update(text, 'utf8').digest();
	const b = createHash('sha256').update(expected, 'utf8').digest();
	return timingSafeEqual(a, b);
}

/** The event kind of a delivery, from whichever field carries it. */
export function eventKindOf(body: unknown): string | undefined {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const record = body as IDataObject;
	for (const key of ['event', 'eventType', 'event_type', 'type', 'kind', 'eventName', 'topic']) {
		const value = record[key];
		if (typeof value === 'string' && value.trim()) return value.trim();
		if (value && typeof value === 'object' && !Array.isArray(value)) {
			const inner = value as IDataObject;
			const named = inner.type ?? inner.name ?? inner.kind;
			if (typeof named === 'string' && named.trim()) return named.trim();
		}
	}
	return undefined;
}

export class SalesPaymentsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sales & Payments Trigger',
		name: 'salesPaymentsTrigger',
		icon: { light: 'file:salesPaymentsTrigger.svg', dark: 'file:salesPaymentsTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when the Sales & Payments Platform notifies an order or subscription event',
		defaults: { name: 'Sales & Payments Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'salesPaymentsApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: WEBHOOK_EVENT_OPTIONS,
				default: [],
				required: true,
				description: 'The events that start the workflow',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Ignore Duplicate Deliveries',
						name: 'ignoreDuplicates',
						type: 'boolean',
						default: false,
						description: `Whether to drop a delivery whose body is identical to one of the last ${DUPLICATE_WINDOW} received`,
					},
					...notifyOnFailFields,
					{
						displayName: 'Resume Failed Deliveries on Activation',
						name: 'resumeOnActivation',
						type: 'boolean',
						default: false,
						description:
							'Whether to ask the platform to redeliver the notifications that failed (for example while n8n was down) when the workflow is activated again or n8n restarts',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			/**
			 * True when the webhook in static data still exists for this URL, with our secret, this
			 * business and these events (updated in place when they changed). Other webhooks of the
			 * business calling this URL are deleted: their secret is unknown, or they are duplicates.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const data = staticData(this);
				const url = nodeUrl(this);
				const events = readEvents(this);
				const businessId = await businessIdOf(this);
				let current: IDataObject | undefined;
				const deleted = new Set<string>();
				if (data.webhookId) {
					const found = await fetchWebhook(this, data.webhookId);
					const secret = found ? registeredSecret(found, url) : undefined;
					// A platform that hides dispatchers: trust the URL we registered it with.
					const ours =
						found !== undefined &&
						(Array.isArray(found.dispatchers) ? pointsTo(found, url) : data.webhookUrl === url);
					const usable =
						ours &&
						typeof data.webhookSecret === 'string' &&
						(secret === undefined || secret === data.webhookSecret) &&
						(found.account === undefined || found.account === businessId);
					if (usable) current = found;
					else {
						// Ours but unusable (secret unknown, other business): replace it. One for another
						// URL is deleted only when its name says this workflow registered it (n8n's base
						// URL changed); otherwise it may serve a copy of this workflow.
						if (found && (ours || registeredByThisWorkflow(this, found))) {
							await deleteWebhook(this, data.webhookId);
							deleted.add(data.webhookId);
						}
						forget(data);
					}
				}
				for (const other of await webhooksPointingTo(this, businessId, url)) {
					const otherId = String(other.id);
					if ((current && otherId === data.webhookId) || deleted.has(otherId)) continue;
					await deleteWebhook(this, otherId);
				}
				if (!current || !data.webhookId) return false;

				const options = readOptions(this);
				const changes: IDataObject = {};
				if (!sameSet(current.events, events)) changes.events = events;
				const notifyOnFail = notifyOnFailOf(this, options);
				const registered = (current.notifyOnFail ?? undefined) as IDataObject | undefined;
				if (notifyOnFail && (registered?.email !== notifyOnFail.email || registered?.name !== notifyOnFail.name)) {
					changes.notifyOnFail = notifyOnFail;
				}
				const id = encodeURIComponent(data.webhookId);
				if (Object.keys(changes).length > 0) {
					try {
						await apiRequest.call(this, { method: 'PATCH', path: `/webhooks/${id}`, body: changes, idempotent: true });
					} catch (error) {
						if (!isNotFound(error)) rethrow(this, error);
						forget(data);
						return false;
					}
				}
				data.webhookEvents = events;
				if (current.status === 'inactive') {
					await apiRequest.call(this, { method: 'PATCH', path: `/webhooks/activate/${id}`, idempotent: true });
				}
				if (options.resumeOnActivation === true) {
					try {
						await apiRequest.call(this, { method: 'PATCH', path: `/webhooks/resume/${id}` });
					} catch (error) {
						// Failing to resume must not fail the activation (n8n would then delete the
						// webhook and its queue): the notifications stay queued for a later resume.
						this.logger.warn(`Sales & Payments Trigger: could not resume failed deliveries: ${(error as Error).message}`);
					}
				}
				return true;
			},

			/** Registers one webhook: our URL, a new secret header, the chosen events. */
			async create(this: IHookFunctions): Promise<boolean> {
				const data = staticData(this);
				const url = nodeUrl(this);
				const events = readEvents(this);
				const options = readOptions(this);
				const notifyOnFail = notifyOnFailOf(this, options);
				const businessId = await businessIdOf(this);
				const secret = randomBytes(32).toString('hex');
				const body: IDataObject = {
					externalAccountId: businessId,
					dispatchers: [{ type: 'http', method: 'POST', url, headers: { [SECRET_HEADER]: secret } }],
					events,
					name: webhookName(this),
				};
				if (notifyOnFail) body.notifyOnFail = notifyOnFail;
				const response = await apiRequest.call(this, { method: 'POST', path: '/webhooks', body, secrets: [secret] });
				let id = webhookRecord(response).id;
				if (id === undefined || id === null || id === '') {
					// The answer did not name the webhook: find it by URL and secret.
					const mine = (await webhooksPointingTo(this, businessId, url)).find(
						(w) => registeredSecret(w, url) === secret,
					);
					id = mine?.id;
				}
				if (id === undefined || id === null || id === '') {
					throw new NodeApiError(this.getNode(), { message: 'No webhook id in the answer' } as JsonObject, {
						message: 'The platform did not return the id of the new webhook',
					});
				}
				data.webhookId = String(id);
				data.webhookSecret = secret;
				data.webhookUrl = url;
				data.webhookEvents = events;
				return true;
			},

			/** Deletes our webhook (one already gone is fine) and clears the static data. */
			async delete(this: IHookFunctions): Promise<boolean> {
				const data = staticData(this);
				if (data.webhookId) {
					await deleteWebhook(this, data.webhookId);
				} else {
					// Nothing stored (static data lost): remove whatever calls this node's URL.
					const url = nodeUrl(this);
					const businessId = await businessIdOf(this);
					for (const webhook of await webhooksPointingTo(this, businessId, url)) {
						await deleteWebhook(this, String(webhook.id));
					}
				}
				forget(data);
				delete data.recentDeliveries;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const data = staticData(this);
		const headers = this.getHeaderData() as IDataObject;
		if (!secretMatches(headers[SECRET_HEADER], data.webhookSecret)) {
			const res = this.getResponseObject();
			res.status(401).json({ message: 'Unauthorized' });
			return { noWebhookResponse: true };
		}
		const body = this.getBodyData() as unknown;
		const delivered = eventKindOf(body);
		const event = delivered === undefined ? undefined : normalizeEventKind(delivered);
		const events = (this.getNodeParameter('events', []) as string[]) ?? [];
		// A kind that cannot be read is let through: the platform only sends what was subscribed.
		if (event !== undefined && !events.includes(event)) {
			return { webhookResponse: { received: true, ignored: `Event ${event} is not one of the chosen events` } };
		}
		const options = this.getNodeParameter('options', {}) as IDataObject;
		if (options.ignoreDuplicates === true) {
			const hash = createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');
			const recent = Array.isArray(data.recentDeliveries) ? data.recentDeliveries : [];
			if (recent.includes(hash)) return { webhookResponse: { received: true, ignored: 'Duplicate delivery' } };
			data.recentDeliveries = [...recent, hash].slice(-DUPLICATE_WINDOW);
		}
		const json: IDataObject = { event: event ?? null };
		if (body && typeof body === 'object' && !Array.isArray(body)) {
			for (const [key, value] of Object.entries(body as IDataObject)) {
				if (key !== 'event') json[key] = value;
				else if (value !== event) json.deliveredEvent = value;
			}
		} else {
			json.data = body as IDataObject;
		}
		return { workflowData: [this.helpers.returnJsonArray([json])] };
	}
}
