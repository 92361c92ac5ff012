import type { RecentDeliveries } from './stores';

/**
 * The accepted keys a request's static data holds (Ignore Duplicate Deliveries across restarts and
 * queue mode's webhook processes): the newest `window` of every process, oldest first. n8n loads a
 * workflow's static data per request and writes it back whole, so a request's copy keeps what it
 * loaded (keys other processes wrote) beside the keys this process answered 2xx. "Newest" is by a
 * Lamport stamp beside each key (`recentDeliveryStamps`): a process's counter goes past every
 * stamp it loads, and counts each key it accepts, so a key answered after another was seen is
 * newer, in every process, whatever their clocks say. Keys saved without stamps (earlier versions)
 * are older than all stamped ones, in their order.
 */

export interface Stamped {
	key: string;
	stamp: number;
}

/** What a request loaded: its keys with their stamps (0 where none was saved). */
export function loadedKeys(data: RecentDeliveries): Stamped[] {
	const keys: unknown[] = Array.isArray(data.recentDeliveries) ? data.recentDeliveries : [];
	const stamps: unknown[] = Array.isArray(data.recentDeliveryStamps) && data.recentDeliveryStamps.length === keys.length ? data.recentDeliveryStamps : [];
	const out: Stamped[] = [];
	keys.forEach((key, i) => {
		const stamp = stamps[i];
		if (typeof key === 'string') out.push({ key, stamp: typeof stamp === 'number' && Number.isFinite(stamp) ? stamp : 0 });
	});
	return out;
}

/** The highest stamp of `keys` (0 for none). */
export function latestStamp(keys: Stamped[]): number {
	let latest = 0;
	for (const { stamp } of keys) if (stamp > latest) latest = stamp;
	return latest;
}

/** The newest `window` keys of the lists together, each with its newest stamp, oldest first (ties in the order given). */
export function newestKeys(lists: Stamped[][], window: number): Stamped[] {
	const newest = new Map<string, number>();
	for (const list of lists) {
		for (const { key, stamp } of list) {
			const known = newest.get(key);
			if (known === undefined || stamp > known) newest.set(key, stamp);
		}
	}
	const all = Array.from(newest, ([key, stamp]) => ({ key, stamp }));
	all.sort((a, b) => a.stamp - b.stamp);
	return all.length > window ? all.slice(-window) : all;
}

/** Sets a request's static data to `keys`. */
export function saveKeys(data: RecentDeliveries, keys: Stamped[]): void {
	data.recentDeliveries = keys.map((k) => k.key);
	data.recentDeliveryStamps = keys.map((k) => k.stamp);
}

/** Adds a key answered since (the newest) to an unanswered request's static data, in place. */
export function appendKey(data: RecentDeliveries, added: Stamped, window: number): void {
	const keys = loadedKeys(data).filter((k) => k.key !== added.key);
	keys.push(added);
	saveKeys(data, keys.length > window ? keys.slice(-window) : keys);
}
