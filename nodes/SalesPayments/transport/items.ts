/**
 * The input items of one run side by side (SalesPayments.node.ts), as n8n's HTTP Request node runs
 * them, within bounds:
 *
 * - items start lowest index first, at most `limit()` at a time (the requests themselves wait at the
 *   credential's gate, gate.ts);
 * - an item whose key names the same record as an earlier item waits until that one settled; it
 *   holds back only its own record: later items of other records start meanwhile and keep the
 *   window full;
 * - an item keyed ALONE runs alone (every earlier item settled, no later one started);
 * - with `stopOnFailure`, a failure of item f stops the starts of the items after f (items before f,
 *   such as one waiting for its record, still run); items started settle, and the caller throws the
 *   failure of the lowest index. `onStop` tells the lane, so that requests of later items still
 *   waiting for a slot or a retry are not sent.
 *
 * Every item's outcome is kept at its index; an item never runs twice.
 */

/** The item acts on no record another item could name (a create, a list): nothing orders it. */
export const INDEPENDENT = undefined;
/** The item's record is not known: it runs alone, after every earlier item and before every later one. */
export const ALONE = Symbol('alone');
export type ItemKey = string | typeof INDEPENDENT | typeof ALONE;

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface ItemRun<T> {
	count: number;
	keyOf(i: number): ItemKey;
	/** Items that may be started and not yet settled, read before each start. */
	limit(): number;
	run(i: number): Promise<T>;
	stopOnFailure: boolean;
	/** Item i failed and the run stops (stopOnFailure). */
	onStop?(i: number): void;
}

/** Runs the items; outcome i is undefined for an item that never started (the run stopped before it). */
export async function runItems<T>(plan: ItemRun<T>): Promise<Array<Outcome<T> | undefined>> {
	const outcomes = new Array<Outcome<T> | undefined>(plan.count);
	// Items after this index start no more: set by a failure (stopOnFailure), only ever lowered.
	let stopAfter = Infinity;
	// The next item not looked at yet, and its key once read (each key is read once).
	let next = 0;
	let nextKey: { key: ItemKey } | undefined;
	// Items looked at that may start now, lowest first: the earlier item of their record settled.
	const ready: Array<{ i: number; key: string }> = [];
	// Records held: one of their items runs or is ready; the record's later items wait here in input
	// order, `next` the first of them (an index, not shift(): a long queue stays linear).
	const held = new Map<string, { items: number[]; next: number }>();
	let running = 0;
	// An ALONE item runs: nothing else starts.
	let alone = false;

	/** The next item to start, or undefined when none may start now. */
	const pick = (): { i: number; key: ItemKey } | undefined => {
		const first = ready.shift();
		if (first) return first;
		while (next < plan.count && next <= stopAfter) {
			nextKey ??= { key: plan.keyOf(next) };
			const key = nextKey.key;
			// Every earlier item settles first, including those waiting for their record.
			if (key === ALONE && (running > 0 || held.size > 0)) return undefined;
			const i = next++;
			nextKey = undefined;
			if (typeof key !== 'string') return { i, key };
			const waiting = held.get(key);
			if (waiting === undefined) {
				held.set(key, { items: [], next: 0 });
				return { i, key };
			}
			waiting.items.push(i);
		}
		return undefined;
	};

	/** An item of this record settled: the record's next waiting item becomes ready, unless the run stopped before it. */
	const release = (key: string) => {
		const waiting = held.get(key);
		const j = waiting?.items[waiting.next++];
		if (j === undefined || j > stopAfter) {
			held.delete(key);
			return;
		}
		const at = ready.findIndex((r) => r.i > j);
		ready.splice(at < 0 ? ready.length : at, 0, { i: j, key });
	};

	/** Item i failed: later items start no more; ready ones are dropped with their records (their waiting items come after them). */
	const stop = (i: number) => {
		stopAfter = Math.min(stopAfter, i);
		while (ready.length > 0 && ready[ready.length - 1].i > stopAfter) held.delete((ready.pop() as { key: string }).key);
	};

	return await new Promise((resolve) => {
		const pump = (): void => {
			while (!alone && running < Math.max(1, plan.limit())) {
				const picked = pick();
				if (picked === undefined) break;
				start(picked.i, picked.key);
			}
			if (running === 0) resolve(outcomes);
		};
		const start = (i: number, key: ItemKey): void => {
			running++;
			if (key === ALONE) alone = true;
			let task: Promise<T>;
			try {
				task = plan.run(i);
			} catch (error) {
				task = Promise.reject(error);
			}
			// Settled tasks never reject: they keep their outcome.
			void task
				.then(
					(value) => {
						outcomes[i] = { ok: true, value };
					},
					(error: unknown) => {
						outcomes[i] = { ok: false, error };
						if (!plan.stopOnFailure) return;
						stop(i);
						plan.onStop?.(i);
					},
				)
				.then(() => {
					running--;
					if (key === ALONE) alone = false;
					if (typeof key === 'string') release(key);
					pump();
				});
		};
		pump();
	});
}
