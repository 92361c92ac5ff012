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

/** Keys and their stamps, oldest first (plain arrays: n8n's static data reads each element through a proxy). */
export interface KeyList {
	keys: string[];
	stamps: number[];
}

/** What a request loaded, read once: its keys with their stamps (0 where none was saved), oldest first. */
export function loadedKeys(data: RecentDeliveries): KeyList {
	const savedKeys: unknown[] = Array.isArray(data.recentDeliveries) ? data.recentDeliveries : [];
	const savedStamps: unknown[] = Array.isArray(data.recentDeliveryStamps) && data.recentDeliveryStamps.length === savedKeys.length ? data.recentDeliveryStamps : [];
	const list: KeyList = { keys: [], stamps: [] };
	let sorted = true;
	for (let i = 0; i < savedKeys.length; i++) {
		const key = savedKeys[i];
		if (typeof key !== 'string') continue;
		const stamp = savedStamps[i];
		const value = typeof stamp === 'number' && Number.isFinite(stamp) ? stamp : 0;
		if (list.stamps.length > 0 && value < list.stamps[list.stamps.length - 1]) sorted = false;
		list.keys.push(key);
		list.stamps.push(value);
	}
	if (sorted) return list;
	// Written by hand or by another tool: put in stamp order, ties as they were.
	const order = list.keys.map((_, i) => i).sort((a, b) => list.stamps[a] - list.stamps[b] || a - b);
	return { keys: order.map((i) => list.keys[i]), stamps: order.map((i) => list.stamps[i]) };
}

/** The highest stamp of a list (0 for none). */
export function latestStamp(list: KeyList): number {
	return list.stamps.length > 0 ? list.stamps[list.stamps.length - 1] : 0;
}

/** The newest `window` keys of the lists together, each at its newest stamp, oldest first: one walk from the newest end. */
export function newestKeys(lists: KeyList[], window: number): KeyList {
	const listKeys = lists.map((list) => list.keys);
	const listStamps = lists.map((list) => list.stamps);
	const next = listKeys.map((k) => k.length - 1);
	const taken = new Set<string>();
	const keys: string[] = [];
	const stamps: number[] = [];
	while (keys.length < window) {
		let from = -1;
		let newest = 0;
		for (let j = 0; j < next.length; j++) {
			const at = next[j];
			if (at >= 0 && (from < 0 || listStamps[j][at] > newest)) {
				from = j;
				newest = listStamps[j][at];
			}
		}
		if (from < 0) break;
		const key = listKeys[from][next[from]--];
		if (taken.has(key)) continue;
		taken.add(key);
		keys.push(key);
		stamps.push(newest);
	}
	return { keys: keys.reverse(), stamps: stamps.reverse() };
}

/** Sets a request's static data to `list`. */
export function saveKeys(data: RecentDeliveries, list: KeyList): void {
	data.recentDeliveries = list.keys;
	data.recentDeliveryStamps = list.stamps;
}

/**
 * Adds a key answered since (the newest) to an unanswered request's static data, in place: its
 * arrays were set by saveKeys() when the request was recorded.
 */
export function appendKey(data: RecentDeliveries, key: string, stamp: number, window: number): void {
	const keys = data.recentDeliveries;
	const stamps = data.recentDeliveryStamps;
	if (!Array.isArray(keys) || !Array.isArray(stamps) || keys.length !== stamps.length) {
		saveKeys(data, newestKeys([loadedKeys(data), { keys: [key], stamps: [stamp] }], window));
		return;
	}
	const at = keys.indexOf(key);
	if (at >= 0) {
		keys.splice(at, 1);
		stamps.splice(at, 1);
	}
	keys.push(key);
	stamps.push(stamp);
	if (keys.length > window) {
		keys.splice(0, keys.length - window);
		stamps.splice(0, stamps.length - window);
	}
}
