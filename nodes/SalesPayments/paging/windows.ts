/**
 * Date windows: a date range cut into parts that each fit one page of a list, where a full page's
 * dates suggest. The polling trigger reads its ranges so (polling/dateWindows.ts), and a file output
 * its Order › Oldest First (files/oldestFirst.ts). Ends are inclusive, in epoch milliseconds.
 */

export interface DateWindow {
	from: number;
	/** Undefined: open (up to now and beyond). */
	to?: number;
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/**
 * Windows covering a full `window`, cut where its page's dates suggest (after the newest of an
 * oldest-first page, before the oldest of a newest-first one, else the median; a tie gets its
 * millisecond alone); undefined for one millisecond. Each part is still checked whole.
 */
export function splitWindow(window: DateWindow, dates: number[], now: number): DateWindow[] | undefined {
	const { from, to } = window;
	const inside = dates.filter((d) => d >= from && (to === undefined || d <= to));
	const sorted = [...inside].sort((a, b) => a - b);
	const lo = sorted[0];
	const hi = sorted[sorted.length - 1];
	if (lo === undefined) {
		// Open window: close it past the poll's clock; a closed one is cut in the middle.
		if (to === undefined) return [{ from, to: Math.max(now, from) + 1 }, { from: Math.max(now, from) + 1 }];
		const middle = from + Math.floor((to - from) / 2);
		return middle > from ? [{ from, to: middle }, { from: middle + 1, to }] : to > from ? [{ from, to: from }, { from: to, to }] : undefined;
	}
	if (lo === hi) {
		// A tie: that millisecond alone (it is paged), and each side of it.
		if (from === to) return undefined;
		const parts: DateWindow[] = [];
		if (lo > from) parts.push({ from, to: lo - 1 });
		parts.push({ from: lo, to: lo });
		if (to === undefined || lo < to) parts.push({ from: lo + 1, to });
		return parts;
	}
	const ascending = inside.every((d, k) => k === 0 || d >= inside[k - 1]);
	const descending = inside.every((d, k) => k === 0 || d <= inside[k - 1]);
	const at = ascending ? hi : descending ? lo : sorted[Math.floor(sorted.length / 2)];
	if (at <= from) return [{ from, to: from }, { from: from + 1, to }];
	if (to !== undefined && at >= to) return [{ from, to: to - 1 }, { from: to, to }];
	// Newest first: the page says nothing of the older records, and those are read first, so the
	// older side is halved (a poll reaches its oldest records in a few requests whatever the backlog).
	const middle = from + Math.floor((at - from) / 2);
	if (descending && middle > from && middle + 1 < at) return [{ from, to: middle }, { from: middle + 1, to: at }, { from: at, to }];
	return [{ from, to: at }, { from: at, to }];
}
