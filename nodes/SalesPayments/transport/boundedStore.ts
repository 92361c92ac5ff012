/**
 * The one shape of state this package holds in an n8n process between executions: a named map with
 * its limits given where it is made. Entries leave oldest first, past `maxEntries` or idle for
 * `idleMs` (since set, or since last read with `touchOnRead`). PROCESS_STORES lists them all.
 */
export interface StoreLimits {
	/** Most entries the store holds; the oldest leaves first. */
	maxEntries: number;
	/** An entry idle this long is dropped at the next access to the store. */
	idleMs: number;
	/** Whether a read counts as use (moves the entry to the newest end). Default false. */
	touchOnRead?: boolean;
}

interface Slot<V> {
	value: V;
	at: number;
}

export class BoundedStore<K, V> {
	private readonly slots = new Map<K, Slot<V>>();

	constructor(
		readonly name: string,
		readonly limits: StoreLimits,
		/** Told about every entry the bounds drop (not about delete()). */
		private readonly onDrop?: (key: K, value: V) => void,
	) {
		PROCESS_STORES.push(this as BoundedStore<unknown, unknown>);
	}

	get size(): number {
		return this.slots.size;
	}

	/** The value under `key`, or undefined (also when it idled out). */
	get(key: K, now = Date.now()): V | undefined {
		this.prune(now);
		const slot = this.slots.get(key);
		if (!slot) return undefined;
		if (this.limits.touchOnRead) {
			this.slots.delete(key);
			slot.at = now;
			this.slots.set(key, slot);
		}
		return slot.value;
	}

	has(key: K, now = Date.now()): boolean {
		this.prune(now);
		return this.slots.has(key);
	}

	/** Stores `value` as the newest entry. */
	set(key: K, value: V, now = Date.now()): void {
		this.slots.delete(key);
		this.slots.set(key, { value, at: now });
		this.prune(now);
	}

	/** The value under `key`, made by `make()` (and stored) when there is none. */
	getOrCreate(key: K, make: () => V, now = Date.now()): V {
		const found = this.get(key, now);
		if (found !== undefined) return found;
		const value = make();
		this.set(key, value, now);
		return value;
	}

	delete(key: K): boolean {
		return this.slots.delete(key);
	}

	/** Deletes every entry `drop` says so of. */
	deleteWhere(drop: (key: K, value: V) => boolean): void {
		for (const [key, slot] of this.slots) if (drop(key, slot.value)) this.slots.delete(key);
	}

	/** Entries oldest first (a snapshot: safe to change the store while iterating). */
	entries(): Array<[K, V]> {
		return [...this.slots].map(([key, slot]) => [key, slot.value]);
	}

	clear(): void {
		this.slots.clear();
	}

	/** Drops what is past the bounds: idle entries, then the oldest beyond maxEntries. */
	prune(now = Date.now()): void {
		for (const [key, slot] of this.slots) {
			if (this.slots.size <= this.limits.maxEntries && now - slot.at < this.limits.idleMs) break;
			this.slots.delete(key);
			this.onDrop?.(key, slot.value);
		}
	}
}

/** Every BoundedStore made in this process, in the order the modules made them. */
export const PROCESS_STORES: Array<BoundedStore<unknown, unknown>> = [];
