import { BoundedStore } from '../transport/boundedStore';

/**
 * Everything the trigger holds in an n8n process between n8n's calls, with its bounds. At most,
 * all trigger nodes together: 50,000 delivery keys (about 14 MB), 1,000 nodes (each at most 400
 * recent keys and 200 open requests), 1,000 failed activations and 1,000 nodes whose
 * unusable Notification ID Field was logged.
 */

const HOUR = 60 * 60 * 1000;

/** Delivery keys held by this process, all nodes together; the oldest leaves first. */
export const MEMORY_MAX_KEYS = 50_000;
/** A key (and a node without deliveries) is forgotten after this long. */
export const MEMORY_MAX_AGE_MS = 24 * HOUR;
/** Nodes with a memory of deliveries; the least recently used leaves first, with its keys. */
export const MEMORY_MAX_NODES = 1_000;
/** Per node: requests not yet answered. */
export const MAX_OPEN_REQUESTS = 200;

/** n8n's answer to one webhook request (express' Response): ended once n8n answered, with its status. */
export interface Answer {
	readonly writableEnded: boolean;
	readonly statusCode: number;
	once(event: 'finish' | 'close', listener: () => void): unknown;
}

/** The part of a request's static data the memory writes: keys, oldest first, and their stamps (savedKeys.ts). */
export interface RecentDeliveries {
	recentDeliveries?: string[];
	recentDeliveryStamps?: number[];
}

/** What this process remembers of one trigger node (one workflow, one node, one platform webhook). */
export interface NodeMemory {
	/** A number of this process for this memory: its keys are stored as `<serial>:<key>`. */
	serial: number;
	webhookId: string;
	/** Keys n8n answered 2xx with their stamps, newest last: what a request's static data gets (at most twice the window). */
	confirmed: { keys: string[]; stamps: number[] };
	/** The Lamport counter of the stamps: past every stamp this process loaded or gave. */
	clock: number;
	/** The static data of requests not yet answered: they get each key confirmed meanwhile. */
	open: Set<RecentDeliveries>;
}

let serials = 0;

export function newNodeMemory(webhookId: string): NodeMemory {
	return { serial: ++serials, webhookId, confirmed: { keys: [], stamps: [] }, clock: 0, open: new Set() };
}

/** One accepted delivery; `answer` is set until n8n's answer to its request is known. */
export interface KeyEntry {
	node: NodeMemory;
	answer?: Answer;
}

/** Keys by `<NodeMemory serial>:<key>`. */
export const deliveryKeyStore = new BoundedStore<string, KeyEntry>('trigger: accepted delivery keys', {
	maxEntries: MEMORY_MAX_KEYS,
	idleMs: MEMORY_MAX_AGE_MS,
});

/** A node idle for MEMORY_MAX_AGE_MS (deactivated, or served by another process) leaves with its keys. */
export const deliveryNodeStore = new BoundedStore<string, NodeMemory>(
	'trigger: nodes with accepted deliveries',
	{ maxEntries: MEMORY_MAX_NODES, idleMs: MEMORY_MAX_AGE_MS, touchOnRead: true },
	(_key, node) => dropKeysOf(node),
);

export function dropKeysOf(node: NodeMemory): void {
	deliveryKeyStore.deleteWhere((_key, entry) => entry.node === node);
}

/** Nodes whose Notification ID Field n8n's log already named as unusable for a delivery (once per node and field). */
export const idFallbackLogStore = new BoundedStore<string, true>('trigger: notification id fallbacks logged', {
	maxEntries: MEMORY_MAX_NODES,
	idleMs: 365 * 24 * HOUR,
});

/** Failed production activations, by node, until n8n's cleanup `delete` (failedActivations.ts), which follows at once: a minute at most. */
export const failedActivationStore = new BoundedStore<string, true>('trigger: failed activations', {
	maxEntries: 1_000,
	idleMs: 60_000,
});
