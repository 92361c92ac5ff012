import { sleep } from 'n8n-workflow';

import type { KeyList } from './savedKeys';
import { appendKey, latestStamp, loadedKeys, newestKeys, saveKeys } from './savedKeys';
import type { Answer, KeyEntry, NodeMemory, RecentDeliveries } from './stores';
import { deliveryKeyStore, deliveryNodeStore, dropKeysOf, MAX_OPEN_REQUESTS, newNodeMemory } from './stores';

/**
 * Ignore Duplicate Deliveries inside one n8n process: a key is checked and recorded in one
 * synchronous step, so two copies in flight never both run. Static data alone cannot do it: n8n
 * loads it per webhook request and writes all of it back (no lock, no merge).
 * A key counts once n8n answered its request 2xx (a 500 means no execution: the platform's re-send
 * must run); it then goes into the static data of every unanswered request. A copy that arrives
 * meanwhile waits for the first one's answer (at most WAIT_FOR_FIRST_MS). Each request's static
 * data keeps what it loaded (keys other processes wrote) beside this process's (savedKeys.ts).
 */

/** How long a copy waits for n8n's answer to the first copy before it is answered 503. */
export const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 10;

export type Admission = 'accept' | 'duplicate' | 'busy';

function nodeKeyOf(workflowId: string, nodeId: string): string {
	return `${workflowId}\u0000${nodeId}`;
}

/** The memory of one node; a new platform webhook (the workflow activated again) starts an empty one. */
function nodeMemory(workflowId: string, nodeId: string, webhookId: string): NodeMemory {
	const key = nodeKeyOf(workflowId, nodeId);
	let node = deliveryNodeStore.get(key);
	if (!node || node.webhookId !== webhookId) {
		if (node) dropKeysOf(node);
		node = newNodeMemory(webhookId);
		deliveryNodeStore.set(key, node);
	}
	return node;
}

/** What this process remembers of a node is forgotten (its workflow was deactivated here). */
export function forgetNode(workflowId: string, nodeId: string): void {
	const key = nodeKeyOf(workflowId, nodeId);
	const node = deliveryNodeStore.get(key);
	if (!node) return;
	deliveryNodeStore.delete(key);
	dropKeysOf(node);
}

/** Drops what is past the bounds (keys older than a day, idle nodes), whoever's delivery comes next. */
export function pruneMemory(now = Date.now()): void {
	deliveryNodeStore.prune(now);
	deliveryKeyStore.prune(now);
}

function slot(node: NodeMemory, key: string): string {
	return `${node.serial}:${key}`;
}

function bounded<T>(set: Set<T>, value: T, max: number): void {
	set.add(value);
	if (set.size > max) set.delete(set.values().next().value as T);
}

/** n8n answered the request that carried `key`: the key counts (2xx) or is forgotten. */
function settle(node: NodeMemory, key: string, entry: KeyEntry, window: number): void {
	const answer = entry.answer;
	if (!answer || !answer.writableEnded) return;
	entry.answer = undefined;
	if (answer.statusCode >= 200 && answer.statusCode < 300) {
		confirm(node, key, window);
		return;
	}
	// n8n saved nothing of a request it answered with an error: the key is forgotten here too.
	const at = slot(node, key);
	if (deliveryKeyStore.get(at) === entry) deliveryKeyStore.delete(at);
}

/** The key counts: stamped as the newest, and added to the static data of every unanswered request. */
function confirm(node: NodeMemory, key: string, window: number): void {
	const stamp = ++node.clock;
	const { confirmed } = node;
	confirmed.keys.push(key);
	confirmed.stamps.push(stamp);
	if (confirmed.keys.length > 2 * window) node.confirmed = { keys: confirmed.keys.slice(-window), stamps: confirmed.stamps.slice(-window) };
	for (const data of node.open) appendKey(data, key, stamp, window);
}

/**
 * Records an accepted key. This request's static data: the newest `window` of what it loaded and
 * what this process confirmed, then its own key (savedKeys.ts).
 */
function record(node: NodeMemory, key: string, loaded: KeyList, data: RecentDeliveries, answer: Answer | undefined, window: number): void {
	const entry: KeyEntry = { node, answer };
	deliveryKeyStore.set(slot(node, key), entry);
	node.clock = Math.max(node.clock, latestStamp(loaded)) + 1;
	saveKeys(data, newestKeys([loaded, node.confirmed, { keys: [key], stamps: [node.clock] }], window));
	if (!answer) {
		confirm(node, key, window);
		return;
	}
	bounded(node.open, data, MAX_OPEN_REQUESTS);
	const done = () => {
		node.open.delete(data);
		settle(node, key, entry, window);
	};
	answer.once('finish', done);
	answer.once('close', done);
}

/**
 * `duplicate` when this process accepted the key (answered 2xx) or this request's static data holds
 * it (or a `legacy` key); `busy` when the first copy is still unanswered after WAIT_FOR_FIRST_MS;
 * else `accept`, recorded before returning (nothing awaited between the check and the record).
 */
export async function admit(
	where: { workflowId: string; nodeId: string; webhookId: string },
	key: string,
	data: RecentDeliveries,
	answer: Answer | undefined,
	window: number,
	legacy: () => string[] = () => [],
): Promise<Admission> {
	const loaded = loadedKeys(data);
	const saved = loaded.keys;
	const deadline = Date.now() + WAIT_FOR_FIRST_MS;
	for (;;) {
		const node = nodeMemory(where.workflowId, where.nodeId, where.webhookId);
		const at = slot(node, key);
		const entry = deliveryKeyStore.get(at);
		if (entry) settle(node, key, entry, window);
		const current = deliveryKeyStore.get(at);
		if (current && current.answer === undefined) return 'duplicate';
		if (!current) {
			// A saved key was answered 2xx where it was saved (n8n saves nothing of a request it answers with an error).
			// Keys of earlier versions have no stamp (0): only then are theirs looked for.
			const seen = saved.includes(key) || (loaded.stamps[0] === 0 && legacy().some((k) => saved.includes(k)));
			if (seen) return 'duplicate';
			record(node, key, loaded, data, answer, window);
			return 'accept';
		}
		// The first copy is still unanswered: its answer decides.
		if (Date.now() >= deadline) return 'busy';
		await sleep(POLL_MS);
	}
}
