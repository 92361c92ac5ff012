import { randomBytes } from 'node:crypto';
import type { IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { businessIdOf } from '../SalesPayments/shared/credentials';
import { asNodeError, fieldError, isNotFound } from '../SalesPayments/shared/errors';
import { paginate } from '../SalesPayments/shared/lists';
import { ID_PATTERN } from '../SalesPayments/shared/paths';
import { apiRequest } from '../SalesPayments/shared/transport';
import { checkEvents, readNotifyOnFail, webhookRecord } from '../SalesPayments/shared/webhooks';
import { assertReachableWebhookUrl } from './webhookUrl';

/**
 * The trigger's webhook on the platform, reconciled on every activation: registered once per
 * node URL, with a secret header made for it, and never another's. A webhook is reused or
 * deleted only when its dispatcher calls this node's current URL, or when this very node (same
 * n8n instance, workflow and node) created it for a URL it used before. A copy of the workflow
 * on another n8n, or under another id, never touches the original's webhook.
 */

/** Header that carries the per-webhook secret on every delivery. */
export const SECRET_HEADER = 'x-sp-webhook-secret';

/** What the node keeps in its static data between activations and deliveries. */
export interface TriggerStaticData {
	webhookId?: string;
	webhookSecret?: string;
	webhookUrl?: string;
	webhookEvents?: string[];
	/** Which node created the webhook: n8n instance, workflow and node (see ownerOf). */
	webhookOwner?: string;
	/** Keys of the most recent accepted deliveries (Ignore Duplicate Deliveries). */
	recentDeliveries?: string[];
}

export function triggerData(ctx: { getWorkflowStaticData(type: string): IDataObject }): TriggerStaticData {
	return ctx.getWorkflowStaticData('node') as TriggerStaticData;
}

function forget(data: TriggerStaticData): void {
	delete data.webhookId;
	delete data.webhookSecret;
	delete data.webhookUrl;
	delete data.webhookEvents;
	delete data.webhookOwner;
}

/** This node on this n8n: the instance (same for every process of one n8n), the workflow, the node. */
function ownerOf(ctx: IHookFunctions): string {
	const instance = typeof ctx.getInstanceId === 'function' ? ctx.getInstanceId() : '';
	return `${instance}/${String(ctx.getWorkflow().id ?? '')}/${ctx.getNode().id}`;
}

/** The chosen events, checked: at least one, each registrable; sorted for comparison. */
export function readEvents(ctx: IHookFunctions): string[] {
	return checkEvents(ctx, ctx.getNodeParameter('events', []), 'Events', true).sort();
}

function readOptions(ctx: IHookFunctions): IDataObject {
	return (ctx.getNodeParameter('options', {}) as IDataObject) ?? {};
}

function nodeUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) return fieldError(ctx, 'n8n could not tell the webhook URL of this node');
	return url;
}

function webhookName(ctx: IHookFunctions): string {
	const workflow = ctx.getWorkflow();
	const test = ctx.getMode() === 'manual' ? ' [test]' : '';
	return `n8n: ${workflow.name ?? 'workflow'} (${workflow.id ?? 'unsaved'})${test}`;
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

/** A webhook id as it may go into a path: one the platform gave that follows the ID rule. */
function usableId(id: unknown): string | undefined {
	const text = typeof id === 'string' || typeof id === 'number' ? String(id) : '';
	return ID_PATTERN.test(text) ? text : undefined;
}

function idParam(id: string) {
	return { id: { value: id, label: 'Stored webhook ID' } };
}

async function fetchWebhook(ctx: IHookFunctions, id: string): Promise<IDataObject | undefined> {
	try {
		return webhookRecord(await apiRequest.call(ctx, { method: 'GET', path: '/webhooks/details/{id}', pathParams: idParam(id) }));
	} catch (error) {
		if (isNotFound(error)) return undefined;
		throw asNodeError(ctx, error);
	}
}

async function deleteWebhook(ctx: IHookFunctions, id: string): Promise<void> {
	try {
		// Deleting twice is harmless here: "already gone" is what we want.
		await apiRequest.call(ctx, { method: 'DELETE', path: '/webhooks/delete/{id}', pathParams: idParam(id), idempotent: true, open: true });
	} catch (error) {
		if (!isNotFound(error)) throw asNodeError(ctx, error);
	}
}

/** Every webhook of the business whose dispatchers call `url`. */
async function webhooksPointingTo(ctx: IHookFunctions, businessId: string, url: string): Promise<IDataObject[]> {
	const { items } = await paginate.call(ctx, {
		method: 'GET',
		path: '/webhooks/list/{businessId}',
		pathParams: { businessId: { value: businessId, label: "The credential's Business ID" } },
		pageSize: 100,
	});
	return items.filter((w) => pointsTo(w, url));
}

/**
 * Whether a stored webhook is this node's own: it calls our current URL (or, where the platform
 * hides dispatchers, we stored that URL), or this node created it for the URL it stored (n8n's
 * base URL changed since). A copy's static data names the original's webhook, but not its owner.
 */
function ownership(ctx: IHookFunctions, data: TriggerStaticData, found: IDataObject, url: string): 'here' | 'moved' | 'foreign' {
	const shown = Array.isArray(found.dispatchers);
	const mine = data.webhookOwner === ownerOf(ctx);
	if (shown ? pointsTo(found, url) : mine && data.webhookUrl === url) return 'here';
	const storedUrl = data.webhookUrl;
	if (mine && storedUrl && storedUrl !== url && (shown ? pointsTo(found, storedUrl) : true)) return 'moved';
	return 'foreign';
}

/**
 * True when the webhook in static data still exists for this URL, with our secret, this
 * business and these events (updated in place when they changed). Other webhooks of the
 * business calling this URL are deleted: their secret is unknown, or they are duplicates.
 */
export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	await assertReachableWebhookUrl(ctx);
	const data = triggerData(ctx);
	const url = nodeUrl(ctx);
	const events = readEvents(ctx);
	const options = readOptions(ctx);
	const notifyOnFail = readNotifyOnFail(ctx, options);
	const businessId = await businessIdOf(ctx);
	let current: IDataObject | undefined;
	const deleted = new Set<string>();
	const storedId = usableId(data.webhookId);
	if (data.webhookId !== undefined && storedId === undefined) forget(data);
	if (storedId) {
		const found = await fetchWebhook(ctx, storedId);
		const owned = found ? ownership(ctx, data, found, url) : 'foreign';
		const secret = found ? registeredSecret(found, url) : undefined;
		const usable =
			found !== undefined &&
			owned === 'here' &&
			typeof data.webhookSecret === 'string' &&
			(secret === undefined || secret === data.webhookSecret) &&
			(found.account === undefined || found.account === businessId);
		if (usable) current = found;
		else {
			// Ours but unusable (secret unknown, other business), or ours for a URL we no longer
			// have: replace it. Anyone else's stays as it is.
			if (found && owned !== 'foreign') {
				await deleteWebhook(ctx, storedId);
				deleted.add(storedId);
			}
			forget(data);
		}
	}
	for (const other of await webhooksPointingTo(ctx, businessId, url)) {
		const otherId = usableId(other.id);
		if (!otherId || (current && otherId === data.webhookId) || deleted.has(otherId)) continue;
		await deleteWebhook(ctx, otherId);
	}
	if (!current || !storedId) return false;

	const changes: IDataObject = {};
	if (!sameSet(current.events, events)) changes.events = events;
	const registered = (current.notifyOnFail ?? undefined) as IDataObject | undefined;
	if (notifyOnFail && (registered?.email !== notifyOnFail.email || registered?.name !== notifyOnFail.name)) {
		changes.notifyOnFail = notifyOnFail;
	}
	if (Object.keys(changes).length > 0) {
		try {
			await apiRequest.call(ctx, { method: 'PATCH', path: '/webhooks/{id}', pathParams: idParam(storedId), body: changes, idempotent: true, open: true });
		} catch (error) {
			if (!isNotFound(error)) throw asNodeError(ctx, error);
			forget(data);
			return false;
		}
	}
	data.webhookEvents = events;
	if (current.status === 'inactive') {
		await apiRequest.call(ctx, { method: 'PATCH', path: '/webhooks/activate/{id}', pathParams: idParam(storedId), idempotent: true, open: true });
	}
	if (options.resumeOnActivation === true) {
		try {
			await apiRequest.call(ctx, { method: 'PATCH', path: '/webhooks/resume/{id}', pathParams: idParam(storedId), open: true });
		} catch (error) {
			// Failing to resume must not fail the activation (n8n would then delete the
			// webhook and its queue): the notifications stay queued for a later resume.
			ctx.logger.warn(`Sales & Payments Trigger: could not resume failed deliveries: ${(error as Error).message}`);
		}
	}
	return true;
}

/** Registers one webhook: our URL, a new secret header, the chosen events. */
export async function create(ctx: IHookFunctions): Promise<boolean> {
	await assertReachableWebhookUrl(ctx);
	const data = triggerData(ctx);
	const url = nodeUrl(ctx);
	const events = readEvents(ctx);
	const notifyOnFail = readNotifyOnFail(ctx, readOptions(ctx));
	const businessId = await businessIdOf(ctx);
	const secret = randomBytes(32).toString('hex');
	const body: IDataObject = {
		externalAccountId: businessId,
		dispatchers: [{ type: 'http', method: 'POST', url, headers: { [SECRET_HEADER]: secret } }],
		events,
		name: webhookName(ctx),
	};
	if (notifyOnFail) body.notifyOnFail = notifyOnFail;
	const response = await apiRequest.call(ctx, {
		method: 'POST',
		path: '/webhooks',
		body,
		secrets: [secret],
		acceptedHint: 'the webhook has probably been registered: deactivate and activate the workflow again, which finds it by its URL.',
	});
	let id: unknown = webhookRecord(response).id;
	if (id === undefined || id === null || id === '') {
		// The answer did not name the webhook: find it by URL and secret.
		const mine = (await webhooksPointingTo(ctx, businessId, url)).find((w) => registeredSecret(w, url) === secret);
		id = mine?.id;
	}
	const webhookId = usableId(id);
	if (webhookId === undefined) {
		const message =
			id === undefined || id === null || id === ''
				? 'The platform did not return the id of the new webhook'
				: 'The platform returned a webhook id that is not a valid ID, so it is not used';
		throw new NodeApiError(ctx.getNode(), { message } as JsonObject, {
			message,
			description: 'Deactivate and activate the workflow again: the webhook registered for this URL is then found by its URL and replaced.',
		});
	}
	data.webhookId = webhookId;
	data.webhookSecret = secret;
	data.webhookUrl = url;
	data.webhookEvents = events;
	data.webhookOwner = ownerOf(ctx);
	return true;
}

/**
 * Deletes our webhook (one already gone is fine) and clears the static data. A stored webhook
 * that is not this node's own (static data copied from another workflow or n8n) is left alone.
 */
export async function remove(ctx: IHookFunctions): Promise<boolean> {
	const data = triggerData(ctx);
	const url = nodeUrl(ctx);
	const storedId = usableId(data.webhookId);
	if (storedId) {
		const found = await fetchWebhook(ctx, storedId);
		if (found && ownership(ctx, data, found, url) !== 'foreign') await deleteWebhook(ctx, storedId);
	} else {
		// Nothing stored (static data lost): remove whatever calls this node's URL.
		const businessId = await businessIdOf(ctx);
		for (const webhook of await webhooksPointingTo(ctx, businessId, url)) {
			const id = usableId(webhook.id);
			if (id) await deleteWebhook(ctx, id);
		}
	}
	forget(data);
	delete data.recentDeliveries;
	return true;
}
