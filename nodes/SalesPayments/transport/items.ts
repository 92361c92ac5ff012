/**
 * The input items of one run side by side (SalesPayments.node.ts), as n8n's HTTP Request node runs
 * them, within bounds:
 *
 * - items start in input order, at most `limit()` at a time (the requests themselves wait at the
 *   credential's gate, gate.ts);
 * - an item whose key names the same record as an earlier item starts once that one settled;
 *   an item keyed ALONE runs alone (every earlier item settled, no later one started);
 * - with `stopOnFailure`, the first failure stops the starts: items already started settle, and the
 *   caller throws the failure of the lowest index (`onStop` tells the lane, so that requests of
 *   later items still waiting for a slot are not sent).
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
	const outcomes: Array<Outcome<T> | undefined> = new Array<Outcome<T> | undefined>(plan.count);
	const running = new Set<Promise<void>>();
	// The last started item of each record, while it runs.
	const lastOf = new Map<string, Promise<void>>();
	let failed = false;
	for (let i = 0; i < plan.count && !(failed && plan.stopOnFailure); i++) {
		const key = plan.keyOf(i);
		// Settled tasks never reject: they keep their outcome.
		if (key === ALONE) await Promise.all(running);
		else if (key !== INDEPENDENT) await lastOf.get(key);
		while (running.size >= Math.max(1, plan.limit())) await Promise.race(running);
		if (failed && plan.stopOnFailure) break;
		const task: Promise<void> = plan
			.run(i)
			.then(
				(value) => {
					outcomes[i] = { ok: true, value };
				},
				(error: unknown) => {
					outcomes[i] = { ok: false, error };
					failed = true;
					if (plan.stopOnFailure) plan.onStop?.(i);
				},
			)
			.then(() => {
				running.delete(task);
				if (typeof key === 'string' && lastOf.get(key) === task) lastOf.delete(key);
			});
		running.add(task);
		if (typeof key === 'string') lastOf.set(key, task);
		if (key === ALONE) await task;
	}
	await Promise.all(running);
	return outcomes;
}
