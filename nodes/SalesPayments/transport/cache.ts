/**
 * The one per-run cache (credentials, an item's Request Options, a learned page size, an identity
 * session), held by the context n8n hands the node for that run and dropped with it. A poll context
 * lives as long as the workflow is active: the polling trigger calls `newRun()` at each poll.
 */
const runs = new WeakMap<object, Map<string, unknown>>();

function valuesOf(ctx: object): Map<string, unknown> {
	let values = runs.get(ctx);
	if (!values) runs.set(ctx, (values = new Map()));
	return values;
}

/** The value cached under `key` for this run, made by `make()` the first time. */
export function runCache<T>(ctx: object, key: string, make: () => T): T {
	const values = valuesOf(ctx);
	if (values.has(key)) return values.get(key) as T;
	const value = make();
	values.set(key, value);
	// A failed promise is dropped (unless replaced meanwhile): the next call tries again.
	if (value instanceof Promise) value.catch(() => values.get(key) === value && values.delete(key));
	return value;
}

/** Replaces the value cached under `key`. */
export function runCacheSet(ctx: object, key: string, value: unknown): void {
	valuesOf(ctx).set(key, value);
}

/** Forgets everything cached for `ctx`: the next call starts a new run. */
export function newRun(ctx: object): void {
	runs.delete(ctx);
}
