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
import { ID_PATTERN } from '../transport/paths';
import type { Identity, Judged, Listed, TriggerStaticData, Verdict } from './ownership';
import { forget, identify, judge, OWNER_HEADER, registeredSecret, SECRET_HEADER } from './ownership';
import { cleanupAfterFailure, clearFailedActivation, rememberFailedActivation } from './failedActivations';
import { forgetNode, pruneMemory } from './memory';
import type { PlatformClock } from './leftoverTestWebhooks';
import { readClock } from './leftoverTestWebhooks';
import { assertReachableWebhookUrl } from './webhookUrl';
import { readIdField } from './deliveryKey';

/**
 * n8n's webhook lifecycle for the trigger (docs/triggers.md has n8n's calls). Each call reads who
 * asks and the webhooks once, has ownership.ts judge them all, then acts: only this node's own
 * webhooks are changed or deleted; every other one is left in place and named in n8n's log.
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
	// A Notification ID Field that is not a dot path fails the activation, not every delivery.
	readIdField(ctx, options);
	return { url, events, notifyOnFail, businessId: await businessIdOf(ctx), resume: options.resumeOnActivation === true };
}

function where(ctx: IHookFunctions): string {
	const workflow = ctx.getWorkflow();
	return `Sales & Payments Trigger (workflow "${workflow.name ?? workflow.id}", node "${ctx.getNode().name}")`;
}

/** A webhook id as it may go into a path: one the platform gave that follows the ID rule. */
function usableId(id: unknown): string | undefined {
	const text = typeof id === 'string' || typeof id === 'number' ? String(id) : '';
	return ID_PATTERN.test(text) ? text : undefined;
}

function idParam(id: string) {
	return { id: { value: id, label: 'Stored webhook ID' } };
}

/** A production activation step: a failure is remembered for the cleanup `delete` n8n runs next. */
async function activationStep<T>(ctx: IHookFunctions, me: Identity, step: () => Promise<T>): Promise<T> {
	// Prunes the process's delivery memory here too, whatever node gets the next delivery.
	pruneMemory();
	try {
		const result = await step();
		clearFailedActivation(me.nodeKey);
		return result;
	} catch (error) {
		if (me.kind === 'production') rememberFailedActivation(me.nodeKey);
		throw asNodeError(ctx, error);
	}
}

/** The webhook by id; undefined only on 404. An unreadable answer, or one naming another webhook, throws: never "gone". */
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

/** Every webhook of the business with a usable id (and the platform's clock, from the answers' Date header). */
async function listWebhooks(ctx: IHookFunctions, businessId: string, clock: PlatformClock = {}): Promise<Listed[]> {
	const { items } = await paginate.call(ctx, {
		...ENDPOINTS.webhook.list,
		pathParams: { businessId: { value: businessId, label: "The credential's Business ID" } },
		pageSize: 100,
		observe: readClock(clock),
	});
	const listed: Listed[] = [];
	for (const webhook of items) {
		const id = usableId(webhook.id);
		if (id !== undefined) listed.push({ id, webhook });
	}
	return listed;
}

/** Every webhook of the business, and the stored one wherever it is (another business: read by id). */
async function webhooksToJudge(ctx: IHookFunctions, businessId: string, storedId: string | undefined, clock?: PlatformClock): Promise<Listed[]> {
	const listed = await listWebhooks(ctx, businessId, clock);
	if (storedId && !listed.some((w) => w.id === storedId)) {
		const stored = await fetchWebhook(ctx, storedId);
		if (stored) listed.push({ id: storedId, webhook: stored });
	}
	return listed;
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

/** Whether the stored webhook can serve this node's deliveries: its own, our secret, our business. */
function usable(data: TriggerStaticData, stored: Judged | undefined, wanted: Wanted): stored is Judged {
	if (stored?.standing !== 'own' || typeof data.webhookSecret !== 'string') return false;
	return (stored.secret === undefined || stored.secret === data.webhookSecret) && (stored.webhook.account === undefined || stored.webhook.account === wanted.businessId);
}

/** Deletes this node's leftover test webhooks. Never fails the call: a failure is logged and tried again next time. */
async function removeLeftovers(ctx: IHookFunctions, verdict: Verdict): Promise<void> {
	for (const { id, line } of verdict.leftovers) {
		try {
			await deleteWebhook(ctx, id);
			ctx.logger.warn(`${where(ctx)} deleted ${line}`);
		} catch (error) {
			ctx.logger.warn(
				`${where(ctx)} could not delete ${line}. The platform answered: ${(error as Error).message}. It stays until the next start or activation of this workflow tries again (or delete it with Webhook > Delete, ID ${id}).`,
			);
		}
	}
}

/**
 * True when the stored webhook is this node's own, already as wanted (URL, secret, business,
 * events, contact, active, no resume asked), and no stray of this node calls its URL (false lets
 * `create` remove it). Leftover test webhooks are deleted on the way and never make it false.
 */
export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	const me = identify(ctx);
	return await activationStep(ctx, me, async () => {
		const wanted = await readWanted(ctx);
		const storedId = usableId(me.data.webhookId);
		if (!storedId) return false;
		const found = await fetchWebhook(ctx, storedId);
		if (!found || !usable(me.data, judge(me, [{ id: storedId, webhook: found }], storedId, wanted.url).stored, wanted)) return false;
		// Changes, a deactivated webhook or a resume are made by `create`, which n8n calls on false.
		if (Object.keys(changesFor(found, wanted)).length > 0 || found.status === 'inactive' || wanted.resume) return false;
		const clock: PlatformClock = {};
		const listed = await listWebhooks(ctx, wanted.businessId, clock);
		const verdict = judge(me, listed, storedId, wanted.url, clock);
		if (verdict.own.some((id) => id !== storedId)) return false;
		await removeLeftovers(ctx, verdict);
		return true;
	});
}

/** Updates our own webhook in place; false when it disappeared meanwhile. */
async function refresh(ctx: IHookFunctions, me: Identity, id: string, found: IDataObject, wanted: Wanted): Promise<boolean> {
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
	me.data.webhookEvents = wanted.events;
	return true;
}

/** POST /webhooks: our URL, a new secret header, our owner mark, the chosen events. Returns the id. */
async function register(ctx: IHookFunctions, me: Identity, wanted: Wanted): Promise<string> {
	const secret = randomBytes(32).toString('hex');
	const workflow = ctx.getWorkflow();
	const body: IDataObject = {
		externalAccountId: wanted.businessId,
		dispatchers: [{ type: 'http', method: 'POST', url: wanted.url, headers: { [SECRET_HEADER]: secret, [OWNER_HEADER]: me.mark } }],
		events: wanted.events,
		name: `n8n: ${workflow.name ?? 'workflow'} (${workflow.id ?? 'unsaved'})${me.kind === 'test' ? ' [test]' : ''}`,
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
		id = (await listWebhooks(ctx, wanted.businessId)).find((w) => registeredSecret(w.webhook) === secret)?.id;
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
	Object.assign(me.data, { webhookId, webhookSecret: secret, webhookUrl: wanted.url, webhookEvents: wanted.events, webhookOwner: me.mark });
	return webhookId;
}

/**
 * Deletes this node's own webhooks but `keep`, and names in n8n's log every other webhook made
 * for this workflow's trigger (or calling this node's URL) that it leaves in place.
 */
async function sweep(ctx: IHookFunctions, verdict: Verdict, keep?: string): Promise<void> {
	for (const id of verdict.own) if (id !== keep) await deleteWebhook(ctx, id);
	const left = verdict.leftInPlace;
	if (left.length > 0) ctx.logger.warn(`${where(ctx)} left ${left.length} other webhook(s) in place: ${left.join(' ')}`);
}

/**
 * Updates this node's own webhook in place (its queue of failed deliveries survives), or registers
 * a new one; then deletes this node's strays and names every other webhook it left in place.
 */
export async function create(ctx: IHookFunctions): Promise<boolean> {
	const me = identify(ctx);
	return await activationStep(ctx, me, async () => {
		const wanted = await readWanted(ctx);
		const storedId = usableId(me.data.webhookId);
		const clock: PlatformClock = {};
		const webhooks = await webhooksToJudge(ctx, wanted.businessId, storedId, clock);
		// Judged before the static data names a new webhook: the stored one is judged as stored.
		const verdict = judge(me, webhooks, storedId, wanted.url, clock);
		const stored = verdict.stored;
		let keep: string | undefined;
		if (usable(me.data, stored, wanted) && (await refresh(ctx, me, stored.id, stored.webhook, wanted))) keep = stored.id;
		keep ??= await register(ctx, me, wanted);
		await sweep(ctx, verdict, keep);
		await removeLeftovers(ctx, verdict);
		return true;
	});
}

/**
 * Deletes this node's own webhooks and clears the static data; any other webhook stays. The cleanup
 * n8n runs right after a failed production activation touches nothing (failedActivations.ts).
 */
export async function remove(ctx: IHookFunctions): Promise<boolean> {
	const me = identify(ctx);
	pruneMemory();
	if (me.kind === 'production' && cleanupAfterFailure(me.nodeKey)) {
		ctx.logger.warn(
			`${where(ctx)}: the activation failed, so n8n's cleanup left webhook ${me.data.webhookId ?? '(none stored)'} and its queue of failed deliveries in place; n8n's next activation attempt uses it again`,
		);
		return true;
	}
	const url = nodeUrl(ctx);
	const storedId = usableId(me.data.webhookId);
	const webhooks = await webhooksToJudge(ctx, await businessIdOf(ctx), storedId);
	const verdict = judge(me, webhooks, storedId, url);
	await sweep(ctx, verdict);
	forget(me.data);
	delete me.data.recentDeliveries;
	delete me.data.recentDeliveryStamps;
	// A deactivation: what this process remembers of the deliveries goes too (a test listen's never had any).
	if (me.kind === 'production') forgetNode(String(ctx.getWorkflow().id ?? ''), ctx.getNode().id ?? ctx.getNode().name);
	return true;
}
