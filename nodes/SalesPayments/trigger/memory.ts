import { sleep } from 'n8n-workflow';

/**
 * Ignore Duplicate Deliveries inside one n8n process: the keys of the deliveries this process
 * accepted, per workflow, node and platform webhook, checked and recorded in one synchronous step
 * before the item is emitted, so two copies of a notification in flight together never both start
 * an execution, whatever the concurrency.
 *
 * Why memory and not only static data: n8n loads a workflow's static data at the start of each
 * webhook request and writes all of it back before answering (live-webhooks.js, no lock, no merge),
 * so concurrent requests do not see each other's keys and overwrite each other's writes.
 *
 * A key is remembered as accepted only once n8n answered its request with a 2xx: n8n 2.8 answers
 * an `onReceived` webhook after it created the execution (webhook-helpers.js), and answers 500
 * when that fails, which makes the platform send the notification again. That copy must run:
 * a key whose request was answered otherwise is forgotten. A copy that arrives while the first is
 * still unanswered waits for that answer (at most WAIT_FOR_FIRST_MS), then is dropped (first
 * answered 2xx) or runs in its place (first failed).
 *
 * Static data keeps what survives a restart (the last DUPLICATE_WINDOW keys): every accepted
 * request's copy of it gets the keys this process accepted before its write, and keeps getting
 * them until n8n answered it, so the copy written last holds them all.
 */

/** Keys remembered per node, at most: the newest MEMORY_MAX_KEYS of the last MEMORY_MAX_AGE_MS. */
export const MEMORY_MAX_KEYS = 10_000;
export const MEMORY_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How long a copy waits for n8n's answer to the first copy before it is answered 503. */
export const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 10;
/** Keys whose request failed, kept out of static data written by other requests. */
const MAX_FAILED = 1_000;
/** Requests not yet answered whose static data gets new keys (bounded in case n8n never answers). */
const MAX_OPEN = 1_000;

/** n8n's answer to one webhook request (express' Response): ended once n8n answered, with its status. */
export interface Answer {
	readonly writableEnded: boolean;
	readonly statusCode: number;
	once(event: 'finish' | 'close', listener: () => void): unknown;
}

/** The part of a request's static data this module writes. */
export interface Window {
	recentDeliveries?: string[];
}

interface Entry {
	at: number;
	/** The request that carried it, until n8n's answer is known. */
	answer?: Answer;
}

interface Scope {
	webhookId: string;
	entries: Map<string, Entry>;
	/** The newest keys in the order they were accepted (at most twice the window). */
	recent: string[];
	failed: Set<string>;
	open: Set<Window>;
}

const scopes = new Map<string, Scope>();

export type Verdict = 'accept' | 'duplicate' | 'busy';

function scopeKey(workflowId: string, nodeId: string): string {
	return `${workflowId}\u0000${nodeId}`;
}

/** The memory of one node; a new platform webhook (re-activation) starts an empty one. */
function scopeOf(workflowId: string, nodeId: string, webhookId: string): Scope {
	const key = scopeKey(workflowId, nodeId);
	let scope = scopes.get(key);
	if (!scope || scope.webhookId !== webhookId) {
		scope = { webhookId, entries: new Map(), recent: [], failed: new Set(), open: new Set() };
		scopes.set(key, scope);
	}
	return scope;
}

/** What this process remembers of a node is forgotten (its workflow was deactivated). */
export function forgetNode(workflowId: string, nodeId: string): void {
	scopes.delete(scopeKey(workflowId, nodeId));
}

/** Adds a key to an unanswered request's window in place (its request already changed its static data). */
function append(data: Window, key: string, window: number): void {
	const list = data.recentDeliveries;
	if (!Array.isArray(list)) {
		data.recentDeliveries = [key];
		return;
	}
	list.push(key);
	if (list.length > window) list.splice(0, list.length - window);
}

function prune(scope: Scope, now: number): void {
	for (const [key, entry] of scope.entries) {
		if (scope.entries.size <= MEMORY_MAX_KEYS && now - entry.at < MEMORY_MAX_AGE_MS) break;
		scope.entries.delete(key);
	}
}

/** n8n answered the request that carried `key`: remembered for good (2xx) or forgotten. */
function settle(scope: Scope, key: string, entry: Entry): void {
	const answer = entry.answer;
	if (!answer || !answer.writableEnded) return;
	entry.answer = undefined;
	if (answer.statusCode >= 200 && answer.statusCode < 300) return;
	if (scope.entries.get(key) === entry) scope.entries.delete(key);
	scope.recent = scope.recent.filter((k) => k !== key);
	scope.failed.add(key);
	if (scope.failed.size > MAX_FAILED) scope.failed.delete(scope.failed.values().next().value as string);
	for (const data of scope.open) data.recentDeliveries = (data.recentDeliveries ?? []).filter((k) => k !== key);
}

function record(scope: Scope, key: string, saved: string[], data: Window, answer: Answer | undefined, window: number): void {
	const entry: Entry = { at: Date.now(), answer };
	scope.failed.delete(key);
	scope.entries.set(key, entry);
	prune(scope, entry.at);
	scope.recent.push(key);
	if (scope.recent.length > 2 * window) scope.recent = scope.recent.slice(-window);
	// This request's static data: what it loaded, then everything this process accepted, newest last.
	const mine = scope.recent.slice(-window);
	const older = mine.length >= window ? [] : saved.filter((k) => !scope.entries.has(k) && !scope.failed.has(k));
	data.recentDeliveries = older.length ? [...older, ...mine].slice(-window) : mine;
	for (const other of scope.open) append(other, key, window);
	if (!answer) return;
	scope.open.add(data);
	if (scope.open.size > MAX_OPEN) scope.open.delete(scope.open.values().next().value as Window);
	const done = () => {
		scope.open.delete(data);
		settle(scope, key, entry);
	};
	answer.once('finish', done);
	answer.once('close', done);
}

/**
 * Whether a delivery runs: `duplicate` when this process accepted the same key (n8n answered it
 * 2xx) or the static data n8n loaded for this request holds it; `accept` (recorded before this
 * returns) otherwise; `busy` when the first copy is still unanswered after WAIT_FOR_FIRST_MS.
 * Between checking and recording nothing is awaited: no other request can come in between.
 */
export async function admit(
	where: { workflowId: string; nodeId: string; webhookId: string },
	key: string,
	data: Window,
	answer: Answer | undefined,
	window: number,
): Promise<Verdict> {
	const saved: string[] = Array.isArray(data.recentDeliveries) ? data.recentDeliveries : [];
	const deadline = Date.now() + WAIT_FOR_FIRST_MS;
	for (;;) {
		const scope = scopeOf(where.workflowId, where.nodeId, where.webhookId);
		prune(scope, Date.now());
		const entry = scope.entries.get(key);
		if (entry) settle(scope, key, entry);
		const current = scope.entries.get(key);
		if (current && current.answer === undefined) return 'duplicate';
		if (!current) {
			if (saved.includes(key) && !scope.failed.has(key)) return 'duplicate';
			record(scope, key, saved, data, answer, window);
			return 'accept';
		}
		// The first copy is still unanswered: its answer decides.
		if (Date.now() >= deadline) return 'busy';
		await sleep(POLL_MS);
	}
}
