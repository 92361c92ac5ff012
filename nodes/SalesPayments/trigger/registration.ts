import { randomBytes } from 'node:crypto';
import type { IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { businessIdOf } from '../transport/credentials';
import { ENDPOINTS } from '../transport/endpoints';
import { asNodeError, fieldError, isNotFound } from '../transport/errors';
import { paginate } from '../paging/walk';
import { apiRequest } from '../transport/transport';
import { recordOf } from '../transport/records';
import { checkEvents, readNotifyOnFail } from '../fields/webhooks';
import type { Standing, TriggerStaticData } from './ownership';
import { activationStep, cleanupAfterFailure } from './failedActivations';
import { forget, kindOf, leftInPlace, OWNER_HEADER, ownerMark, registeredSecret, SECRET_HEADER, standingOf, triggerData, usableId } from './ownership';
import { forgetNode } from './memory';
import type { PlatformClock } from './staleTests';
import { readClock, staleLine, staleTestWebhooks } from './staleTests';
import { assertReachableWebhookUrl } from './webhookUrl';

/**
 * n8n's webhook lifecycle for the trigger (ownership.ts says what is this node's own):
 * - `checkExists` only reads: true when the stored webhook is this node's own, for this URL,
 *   with this secret, business, events and contact, and active (and no resume is asked for);
 * - `create` brings this node's own webhook up to date in place (so its queue of failed
 *   deliveries survives), or registers a new one and then deletes only this node's own strays;
 *   every other webhook made for this workflow is left in place and named in n8n's log;
 * - `delete` deletes only this node's own webhook, except in the cleanup n8n runs right after a
 *   failed production activation (failedActivations.ts): the working webhook and its queue stay;
 * - a production `checkExists` / `create` also finds this node's test webhooks that a listen left
 *   behind (n8n killed while listening) and removes those no listen can still use (staleTests.ts).
 * Test or production is decided by kindOf() from what each call carries, never from the mode alone.
 * docs/triggers.md has the table of n8n's calls (mode, activation, static data) this is built on.
 */

interface Wanted {
	url: string;
	events: string[];
	notifyOnFail?: IDataObject;
	businessId: string;
	resume: boolean;
}

/** The chosen events, checked: at least one, each registrable; sorted for comparison. */
export function readEvents(ctx: IHookFunctions): string[] {
	return checkEvents(ctx, ctx.getNodeParameter('events', []), 'Events', true).sort();
}

function nodeUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) return fieldError(ctx, 'n8n could not tell the webhook URL of this node');
	return url;
}

/** Everything the webhook should be, checked before any request. */
async function readWanted(ctx: IHookFunctions): Promise<Wanted> {
	await assertReachableWebhookUrl(ctx);
	const url = nodeUrl(ctx);
	const events = readEvents(ctx);
	const options = (ctx.getNodeParameter('options', {}) as IDataObject) ?? {};
	const notifyOnFail = readNotifyOnFail(ctx, options);
	return { url, events, notifyOnFail, businessId: await businessIdOf(ctx), resume: options.resumeOnActivation === true };
}

function webhookName(ctx: IHookFunctions): string {
	const workflow = ctx.getWorkflow();
	const test = kindOf(ctx, triggerData(ctx)) === 'test' ? ' [test]' : '';
	return `n8n: ${workflow.name ?? 'workflow'} (${workflow.id ?? 'unsaved'})${test}`;
}

function idParam(id: string) {
	return { id: { value: id, label: 'Stored webhook ID' } };
}

/**
 * The webhook by id; undefined only when the platform says it is gone (404). An answer that can't
 * be read (the transport refuses `{}`, `data: null`, text, HTML) or that names another webhook
 * throws: an unreadable answer never counts as "gone".
 */
async function fetchWebhook(ctx: IHookFunctions, id: string): Promise<IDataObject | undefined> {
	let found: IDataObject;
	try {
		found = recordOf(await apiRequest.call(ctx, { ...ENDPOINTS.webhook.details, pathParams: idParam(id) }), 'webhook');
	} catch (error) {
		if (isNotFound(error)) return undefined;
		throw asNodeError(ctx, error);
	}
	if (found.id !== undefined && usableId(found.id) !== id) {
		const message = `The platform's answer to GET /webhooks/details/${id} describes another webhook (${String(found.id).slice(0, 40)})`;
		throw new NodeApiError(ctx.getNode(), { message } as JsonObject, {
			message,
			description: 'Nothing was changed on the platform. Activate the workflow again; if this persists, the platform is answering for the wrong webhook.',
		});
	}
	return found;
}

async function deleteWebhook(ctx: IHookFunctions, id: string): Promise<void> {
	try {
		// Deleting twice is harmless here: "already gone" is what we want.
		await apiRequest.call(ctx, { ...ENDPOINTS.webhook.remove, pathParams: idParam(id), idempotent: true, open: true });
	} catch (error) {
		if (!isNotFound(error)) throw asNodeError(ctx, error);
	}
}

/** Every webhook of the business (and the platform's clock, from the answers' Date header). */
async function listWebhooks(ctx: IHookFunctions, businessId: string, clock: PlatformClock = {}): Promise<IDataObject[]> {
	const { items } = await paginate.call(ctx, {
		...ENDPOINTS.webhook.list,
		pathParams: { businessId: { value: businessId, label: "The credential's Business ID" } },
		pageSize: 100,
		observe: readClock(clock),
	});
	return items;
}

/** A production call's stale test webhooks of this node (staleTests.ts); none in a test listen's calls. */
function staleTests(ctx: IHookFunctions, data: TriggerStaticData, webhooks: IDataObject[], url: string, clock: PlatformClock): IDataObject[] {
	return kindOf(ctx, data) === 'production' ? staleTestWebhooks(ctx, webhooks, url, clock) : [];
}

function sameSet(a: unknown, b: string[]): boolean {
	if (!Array.isArray(a)) return false;
	const left = new Set(a.map(String));
	return left.size === b.length && b.every((x) => left.has(x));
}

/** The fields of our own webhook that differ from the wanted ones (an empty object: none). */
function changesFor(found: IDataObject, wanted: Wanted): IDataObject {
	const changes: IDataObject = {};
	if (!sameSet(found.events, wanted.events)) changes.events = wanted.events;
	const registered = (found.notifyOnFail ?? undefined) as IDataObject | undefined;
	const contact = wanted.notifyOnFail;
	if (contact && (registered?.email !== contact.email || registered?.name !== contact.name)) changes.notifyOnFail = contact;
	return changes;
}

/** Whether this node's own webhook can serve its deliveries: our secret, our business. */
function usable(ctx: IHookFunctions, data: TriggerStaticData, found: IDataObject, wanted: Wanted): boolean {
	const secret = registeredSecret(found);
	return (
		standingOf(ctx, data, found, wanted.url) === 'own' &&
		typeof data.webhookSecret === 'string' &&
		(secret === undefined || secret === data.webhookSecret) &&
		(found.account === undefined || found.account === wanted.businessId)
	);
}

/**
 * True when the stored webhook is this node's own, already as wanted, and no other webhook of this
 * node calls its URL (a stray left by an earlier failure: false lets `create` remove it). Reads only.
 */
export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	return await activationStep(ctx, async () => {
		const wanted = await readWanted(ctx);
		const data = triggerData(ctx);
		const storedId = usableId(data.webhookId);
		if (!storedId) return false;
		const found = await fetchWebhook(ctx, storedId);
		if (!found || !usable(ctx, data, found, wanted)) return false;
		// Changes, a deactivated webhook or a resume are made by `create`, which n8n calls on false.
		if (Object.keys(changesFor(found, wanted)).length > 0 || found.status === 'inactive' || wanted.resume) return false;
		const clock: PlatformClock = {};
		const webhooks = await listWebhooks(ctx, wanted.businessId, clock);
		if (staleTests(ctx, data, webhooks, wanted.url, clock).length > 0) return false;
		return !webhooks.some((w) => usableId(w.id) !== storedId && standingOf(ctx, data, w, wanted.url) === 'own');
	});
}

/** Updates our own webhook in place; false when it disappeared meanwhile. */
async function refresh(ctx: IHookFunctions, id: string, found: IDataObject, wanted: Wanted): Promise<boolean> {
	const changes = changesFor(found, wanted);
	try {
		if (Object.keys(changes).length > 0) {
			await apiRequest.call(ctx, { ...ENDPOINTS.webhook.update, pathParams: idParam(id), body: changes, idempotent: true, open: true });
		}
		if (found.status === 'inactive') {
			await apiRequest.call(ctx, { ...ENDPOINTS.webhook.activate, pathParams: idParam(id), idempotent: true, open: true });
		}
	} catch (error) {
		if (isNotFound(error)) return false;
		throw asNodeError(ctx, error);
	}
	if (wanted.resume) {
		try {
			await apiRequest.call(ctx, { ...ENDPOINTS.webhook.resume, pathParams: idParam(id), open: true });
		} catch (error) {
			// Failing to resume must not fail the activation: the notifications stay queued for a later resume.
			ctx.logger.warn(`Sales & Payments Trigger: could not resume failed deliveries: ${(error as Error).message}`);
		}
	}
	triggerData(ctx).webhookEvents = wanted.events;
	return true;
}

/** POST /webhooks: our URL, a new secret header, our owner mark, the chosen events. Returns the id. */
async function register(ctx: IHookFunctions, wanted: Wanted): Promise<string> {
	const data = triggerData(ctx);
	const secret = randomBytes(32).toString('hex');
	const mark = ownerMark(ctx, data);
	const body: IDataObject = {
		externalAccountId: wanted.businessId,
		dispatchers: [{ type: 'http', method: 'POST', url: wanted.url, headers: { [SECRET_HEADER]: secret, [OWNER_HEADER]: mark } }],
		events: wanted.events,
		name: webhookName(ctx),
	};
	if (wanted.notifyOnFail) body.notifyOnFail = wanted.notifyOnFail;
	const response = await apiRequest.call(ctx, {
		...ENDPOINTS.webhook.create,
		body,
		secrets: [secret],
		acceptedHint: 'the webhook has probably been registered: activate the workflow again, which deletes the one left unused.',
	});
	let id: unknown = recordOf(response, 'webhook').id;
	if (id === undefined || id === null || id === '') {
		// The answer did not name the webhook: find it by its secret.
		id = (await listWebhooks(ctx, wanted.businessId)).find((w) => registeredSecret(w) === secret)?.id;
	}
	const webhookId = usableId(id);
	if (webhookId === undefined) {
		const message =
			id === undefined || id === null || id === ''
				? 'The platform did not return the id of the new webhook'
				: 'The platform returned a webhook id that is not a valid ID, so it is not used';
		throw new NodeApiError(ctx.getNode(), { message } as JsonObject, {
			message,
			description: 'Activate the workflow again: the webhook this node registered and could not name is then deleted.',
		});
	}
	Object.assign(data, { webhookId, webhookSecret: secret, webhookUrl: wanted.url, webhookEvents: wanted.events, webhookOwner: mark });
	return webhookId;
}

/** Every webhook of the business, and the stored one wherever it is (another business: read by id). */
async function webhooksToJudge(ctx: IHookFunctions, businessId: string, storedId: string | undefined, clock?: PlatformClock): Promise<IDataObject[]> {
	const listed = await listWebhooks(ctx, businessId, clock);
	if (storedId && !listed.some((w) => usableId(w.id) === storedId)) {
		const stored = await fetchWebhook(ctx, storedId);
		if (stored) listed.push(stored);
	}
	return listed;
}

/**
 * Deletes this node's own webhooks but `keep`, and names in n8n's log every other webhook made
 * for this workflow's trigger (or calling this node's URL) that it leaves in place.
 */
async function sweep(ctx: IHookFunctions, judged: Array<{ webhook: IDataObject; standing: Standing }>, url: string, keep?: string): Promise<void> {
	const left: string[] = [];
	for (const { webhook, standing } of judged) {
		const id = usableId(webhook.id);
		if (id === undefined || id === keep) continue;
		if (standing === 'own') await deleteWebhook(ctx, id);
		else if (standing !== 'unrelated') left.push(leftInPlace(webhook, standing, url));
	}
	if (left.length === 0) return;
	const workflow = ctx.getWorkflow();
	ctx.logger.warn(
		`Sales & Payments Trigger (workflow "${workflow.name ?? workflow.id}", node "${ctx.getNode().name}") left ${left.length} other webhook(s) in place: ${left.join(' ')}`,
	);
}

/**
 * Brings this node's own webhook up to date, or registers a new one; then deletes this node's
 * own strays (same owner mark, same URL) and names every other webhook it left in place.
 */
export async function create(ctx: IHookFunctions): Promise<boolean> {
	return await activationStep(ctx, async () => await createOrUpdate(ctx));
}

async function createOrUpdate(ctx: IHookFunctions): Promise<boolean> {
	const wanted = await readWanted(ctx);
	const data = triggerData(ctx);
	const storedId = usableId(data.webhookId);
	const clock: PlatformClock = {};
	const webhooks = await webhooksToJudge(ctx, wanted.businessId, storedId, clock);
	// Judged before the static data names a new webhook: the stored one is judged as stored.
	const judged = webhooks.map((webhook) => ({ webhook, standing: standingOf(ctx, data, webhook, wanted.url) }));
	const stale = staleTests(ctx, data, webhooks, wanted.url, clock);
	const stored = webhooks.find((w) => usableId(w.id) === storedId);
	let keep: string | undefined;
	if (storedId && stored && usable(ctx, data, stored, wanted) && (await refresh(ctx, storedId, stored, wanted))) keep = storedId;
	keep ??= await register(ctx, wanted);
	await sweep(ctx, judged, wanted.url, keep);
	for (const webhook of stale) {
		await deleteWebhook(ctx, String(webhook.id));
		ctx.logger.warn(`Sales & Payments Trigger (workflow "${ctx.getWorkflow().name ?? ctx.getWorkflow().id}", node "${ctx.getNode().name}") ${staleLine(webhook, clock)}`);
	}
	return true;
}

/**
 * Deletes this node's own webhooks (one already gone is fine) and clears the static data. A
 * webhook that calls another URL, or that this node did not make, is left in place. The cleanup
 * n8n runs right after this node's failed production activation touches nothing (see
 * failedActivations): the stored webhook keeps serving, with its queue, for n8n's retry.
 */
export async function remove(ctx: IHookFunctions): Promise<boolean> {
	const data = triggerData(ctx);
	if (cleanupAfterFailure(ctx)) {
		const workflow = ctx.getWorkflow();
		ctx.logger.warn(
			`Sales & Payments Trigger (workflow "${workflow.name ?? workflow.id}", node "${ctx.getNode().name}"): the activation failed, so n8n's cleanup left webhook ${data.webhookId ?? '(none stored)'} and its queue of failed deliveries in place; n8n's next activation attempt uses it again`,
		);
		return true;
	}
	const url = nodeUrl(ctx);
	const production = kindOf(ctx, data) === 'production';
	const webhooks = await webhooksToJudge(ctx, await businessIdOf(ctx), usableId(data.webhookId));
	await sweep(ctx, webhooks.map((webhook) => ({ webhook, standing: standingOf(ctx, data, webhook, url) })), url);
	forget(data);
	delete data.recentDeliveries;
	// A deactivation: what this process remembers of the deliveries goes too (a test listen's never had any).
	if (production) forgetNode(String(ctx.getWorkflow().id ?? ''), ctx.getNode().id ?? ctx.getNode().name);
	return true;
}
