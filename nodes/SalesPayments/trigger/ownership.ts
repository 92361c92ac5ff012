import { createHash } from 'node:crypto';
import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import type { PlatformClock } from './leftoverTestWebhooks';
import { leftoversAmong } from './leftoverTestWebhooks';

/**
 * Which webhooks are this node's own: every dispatcher calls this node's current URL, and this
 * node made it (its owner mark, or the stored webhook made by this node). A webhook calling another
 * URL is never deleted, whoever made it: it may serve a copy of the workflow on another n8n with the
 * same encryption key. A stale one left costs failed deliveries; a live one deleted stops a workflow.
 */

/** Header that carries the per-webhook secret on every delivery. */
export const SECRET_HEADER = 'x-sp-webhook-secret';
/** Header that marks a webhook as made by one node (a digest: the instance id is not sent). */
export const OWNER_HEADER = 'x-sp-n8n-owner';

/** The node's static data, between activations and deliveries. */
export interface TriggerStaticData {
	webhookId?: string;
	webhookSecret?: string;
	webhookUrl?: string;
	webhookEvents?: string[];
	/** The owner mark of the node that created the webhook (see identify). */
	webhookOwner?: string;
	/** Keys of the most recent accepted deliveries (Ignore Duplicate Deliveries), and their stamps (savedKeys.ts). */
	recentDeliveries?: string[];
	recentDeliveryStamps?: number[];
}

export function triggerData(ctx: { getWorkflowStaticData(type: string): IDataObject }): TriggerStaticData {
	return ctx.getWorkflowStaticData('node') as TriggerStaticData;
}

export function forget(data: TriggerStaticData): void {
	delete data.webhookId;
	delete data.webhookSecret;
	delete data.webhookUrl;
	delete data.webhookEvents;
	delete data.webhookOwner;
}

function rawOwner(ctx: IHookFunctions): string {
	const instance = typeof ctx.getInstanceId === 'function' ? ctx.getInstanceId() : '';
	return `${instance}/${String(ctx.getWorkflow().id ?? '')}/${ctx.getNode().id}`;
}

/** Which of a node's two webhooks a call is about: the editor's test URL or the production URL. */
export type Kind = 'test' | 'production';

function markOf(owner: string, kind: Kind): string {
	return createHash('sha256').update(`${owner}/${kind}`).digest('hex').slice(0, 32);
}

/** n8n's test URLs: `<WEBHOOK_URL>/webhook-test/<webhookId>/<path>` (N8N_ENDPOINT_WEBHOOK_TEST). */
function isTestUrl(url: string | undefined): boolean {
	try {
		return url !== undefined && new URL(url).pathname.split('/').includes('webhook-test');
	} catch {
		return false;
	}
}

/**
 * Test or production. n8n runs a test listen's checkExists/create in mode `manual` but its `delete`
 * in mode `internal`, as a deactivation; that `delete` gets the listen's own static data, so the
 * owner mark stored there names the kind; with none stored, the URL decides.
 */
export function webhookKind(ctx: IHookFunctions, data: TriggerStaticData): Kind {
	const owner = rawOwner(ctx);
	if (ctx.getMode() === 'manual') return 'test';
	if (data.webhookOwner !== undefined) {
		if (data.webhookOwner === markOf(owner, 'test')) return 'test';
		if (data.webhookOwner === markOf(owner, 'production') || data.webhookOwner === owner) return 'production';
	}
	return isTestUrl(ctx.getNodeWebhookUrl('default')) ? 'test' : 'production';
}

/** Who asks: this node on this n8n, the kind of webhook the call is about, and its static data. */
export interface Identity {
	kind: Kind;
	/** The owner mark of this kind (a digest of instance id, workflow, node and kind), and of the test kind. */
	mark: string;
	testMark: string;
	/** What versions before the mark stored as the owner (production only). */
	rawOwner: string;
	/** This node on this n8n: the key of the process's stores. */
	nodeKey: string;
	/** The node's webhookId: part of both its URLs. */
	webhookId?: string;
	data: TriggerStaticData;
}

/** Reads, once per call, everything the rules below need from n8n's context. */
export function identify(ctx: IHookFunctions): Identity {
	const data = triggerData(ctx);
	const owner = rawOwner(ctx);
	const kind = webhookKind(ctx, data);
	return { kind, mark: markOf(owner, kind), testMark: markOf(owner, 'test'), rawOwner: owner, nodeKey: owner, webhookId: ctx.getNode().webhookId, data };
}

/** Whether the static data says this node made its stored webhook (older versions stored the raw owner). */
function storedByThisNode(me: Identity): boolean {
	return me.data.webhookOwner === me.mark || (me.kind === 'production' && me.data.webhookOwner === me.rawOwner);
}

function dispatchersOf(webhook: IDataObject): IDataObject[] | undefined {
	return Array.isArray(webhook.dispatchers) ? (webhook.dispatchers as IDataObject[]).filter((d) => d && typeof d === 'object') : undefined;
}

/** The URLs a webhook's dispatchers call; undefined when the platform does not show them. */
export function urlsOf(webhook: IDataObject): string[] | undefined {
	return dispatchersOf(webhook)?.map((d) => String(d.url ?? ''));
}

function headerValues(webhook: IDataObject, name: string): Array<string | null> | undefined {
	const shown = (dispatchersOf(webhook) ?? []).filter((d) => d.headers && typeof d.headers === 'object');
	if (shown.length === 0) return undefined;
	return shown.map((d) => {
		const headers = d.headers as IDataObject;
		const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
		return key === undefined ? null : String(headers[key]);
	});
}

/** The secret header the platform holds; undefined when it does not show headers, null when absent. */
export function registeredSecret(webhook: IDataObject): string | null | undefined {
	const values = headerValues(webhook, SECRET_HEADER);
	if (values === undefined) return undefined;
	return values.find((v) => v !== null) ?? null;
}

/**
 * Whether `candidate` is this node's test URL: n8n builds both as `<WEBHOOK_URL><endpoint>/<node
 * webhookId>/<path>` (endpoint `webhook` or `webhook-test`, or N8N_ENDPOINT_WEBHOOK(_TEST)), so
 * only the endpoint may differ.
 */
function isTestUrlOf(candidate: string, productionUrl: string, webhookId: string | undefined): boolean {
	if (!webhookId) return false;
	let test: URL;
	let production: URL;
	try {
		[test, production] = [new URL(candidate), new URL(productionUrl)];
	} catch {
		return false;
	}
	if (test.origin !== production.origin || test.search !== production.search) return false;
	const split = (pathname: string) => {
		const at = pathname.indexOf(`/${webhookId}/`);
		return at < 0 ? undefined : { endpoint: pathname.slice(0, at), tail: pathname.slice(at) };
	};
	const [t, p] = [split(test.pathname), split(production.pathname)];
	if (!t || !p || t.tail !== p.tail || t.endpoint === p.endpoint) return false;
	const folder = (endpoint: string) => endpoint.slice(0, endpoint.lastIndexOf('/'));
	return folder(t.endpoint) === folder(p.endpoint);
}

/** A test webhook ("Listen for test event") of this very node: its test mark, and every dispatcher calls its test URL. */
function isOwnTestWebhook(me: Identity, webhook: IDataObject, productionUrl: string): boolean {
	const marked = headerValues(webhook, OWNER_HEADER)?.includes(me.testMark) === true;
	const urls = urlsOf(webhook);
	return marked && urls !== undefined && urls.length > 0 && urls.every((u) => isTestUrlOf(u, productionUrl, me.webhookId));
}

/** One line about a webhook left in place, for the n8n log: what it is, why it stays, how to delete it. */
function leftInPlace(webhook: IDataObject, standing: Standing, url: string): string {
	const id = String(webhook.id);
	const name = typeof webhook.name === 'string' ? ` ("${webhook.name}")` : '';
	const deleteHow = `delete it with the Sales & Payments node (Webhook > Delete, ID ${id}) or on the platform`;
	if (standing === 'stranger') {
		return `webhook ${id}${name} also calls this node's URL but was not made by this node (or was made by a version of this package that did not mark its webhooks): its deliveries carry another secret and are refused (401). If nothing else uses it, ${deleteHow}.`;
	}
	const urls = urlsOf(webhook);
	const where = urls === undefined ? 'another URL' : urls.filter((u) => u !== url).join(', ') || 'another URL';
	return `webhook ${id}${name} was made for this workflow's trigger but calls ${where}, not this node's URL ${url}: a copy of this workflow on another n8n (same encryption key) or this n8n before its WEBHOOK_URL changed. It keeps serving that address. If that address is gone, ${deleteHow}.`;
}

/**
 * How a webhook stands to this node, for the kind the call is about: `own` (may be changed or
 * deleted); `ownTest` (production calls only: this node's test webhook, maybe a leftover);
 * `elsewhere` (made by this node for another URL) and `stranger` (calls this URL, not provably
 * ours): left alone; `unrelated`: anything else (for a test call, production's webhook too).
 */
export type Standing = 'own' | 'ownTest' | 'elsewhere' | 'stranger' | 'unrelated';

/** A webhook the platform listed, with an id that may go into a path (registration.ts usableId). */
export interface Listed {
	id: string;
	webhook: IDataObject;
}

export interface Judged extends Listed {
	standing: Standing;
	/** The secret header the platform holds: undefined when it does not show headers, null when absent. */
	secret: string | null | undefined;
}

/** The standing of every webhook a call read, and what follows from it. */
export interface Verdict {
	judged: Judged[];
	/** The webhook the static data names, when among them. */
	stored?: Judged;
	/** The ids of this node's own webhooks of this kind for this URL (the stored one included). */
	own: string[];
	/** Production calls: this node's test webhooks that no listen can still use, each with a log line. */
	leftovers: Array<{ id: string; line: string }>;
	/** For n8n's log: every other webhook made for this node, or calling its URL, that stays in place. */
	leftInPlace: string[];
}

function standingOf(me: Identity, { id, webhook }: Listed, storedId: string | undefined, url: string): Standing {
	const stored = id === storedId;
	const marked = headerValues(webhook, OWNER_HEADER)?.includes(me.mark) === true;
	const madeHere = marked || (stored && storedByThisNode(me));
	const urls = urlsOf(webhook);
	// Dispatchers hidden: only the stored webhook can be judged, by the URL stored with it.
	const here = urls === undefined ? stored && me.data.webhookUrl === url : urls.length > 0 && urls.every((u) => u === url);
	if (madeHere) return here ? 'own' : 'elsewhere';
	if (me.kind === 'production' && isOwnTestWebhook(me, webhook, url)) return 'ownTest';
	return urls?.includes(url) ? 'stranger' : 'unrelated';
}

/** Judges every webhook a call read, once, before acting. `clock` is the platform's, for the test webhooks' age. */
export function judge(me: Identity, webhooks: Listed[], storedId: string | undefined, url: string, clock: PlatformClock = {}): Verdict {
	const verdict: Verdict = { judged: [], own: [], leftovers: [], leftInPlace: [] };
	// A webhook listed twice (a list that changed between pages) is judged once.
	for (const listed of new Map(webhooks.map((w) => [w.id, w])).values()) {
		const judged: Judged = { ...listed, standing: standingOf(me, listed, storedId, url), secret: registeredSecret(listed.webhook) };
		verdict.judged.push(judged);
		if (listed.id === storedId) verdict.stored = judged;
		if (judged.standing === 'own') verdict.own.push(listed.id);
		if (judged.standing === 'elsewhere' || judged.standing === 'stranger') verdict.leftInPlace.push(leftInPlace(listed.webhook, judged.standing, url));
	}
	verdict.leftovers = leftoversAmong(verdict.judged.filter((j) => j.standing === 'ownTest'), clock);
	return verdict;
}
