import { runCache, runCacheSet } from './cache';
import type { ApiContext } from './credentials';
import { NotSent } from './gate';
import type { Outcome } from './items';
import type { AttemptEvent } from './retry';
import { neverSent } from './retry';

/**
 * What a run that stopped on a failure carried out (SalesPayments.node.ts, no Continue On Fail).
 * n8n outputs nothing of a failed run, yet items after the failing one may have been in flight
 * when it failed, and the platform may have carried them out. The error names them, so that a
 * user who fixes the failing item does not run them twice.
 */

/**
 * What an item's writes did, the first that applies: 'done' (a 2xx), 'unsure' (the platform may
 * have acted: a 5xx, a lost or unreadable answer), 'refused' (it answered 3xx or 4xx: nothing done).
 */
type WriteState = 'done' | 'unsure' | 'refused';
const RANK: Record<WriteState, number> = { done: 3, unsure: 2, refused: 1 };

function writeState(event: AttemptEvent): WriteState | undefined {
	if (event.status !== undefined) {
		if (event.status >= 200 && event.status < 300) return 'done';
		return event.status >= 500 ? 'unsure' : 'refused';
	}
	// No status: the request never left (nothing done), or its answer was lost or unreadable.
	return neverSent(event.code) ? undefined : 'unsure';
}

/** The writes of one run's items, told by the transport for every attempt of a write. */
export class ItemWrites {
	private readonly states = new Map<number, WriteState>();

	note(item: number | undefined, event: AttemptEvent): void {
		const state = writeState(event);
		if (item === undefined || state === undefined) return;
		const was = this.states.get(item);
		if (was === undefined || RANK[state] > RANK[was]) this.states.set(item, state);
	}

	of(item: number): WriteState | undefined {
		return this.states.get(item);
	}
}

/** The run's record of writes (set by the action node for its items); undefined elsewhere (polls, dropdowns, triggers). */
export function itemWritesOf(ctx: ApiContext): ItemWrites | undefined {
	return runCache<ItemWrites | undefined>(ctx, 'itemWrites', () => undefined);
}

export function setItemWrites(ctx: ApiContext, writes: ItemWrites): void {
	runCacheSet(ctx, 'itemWrites', writes);
}

/** "11-13, 15, 20-99": indexes in ascending order, consecutive ones as a range. */
function ranges(items: number[]): string {
	const parts: string[] = [];
	for (let k = 0; k < items.length; ) {
		let end = k;
		while (end + 1 < items.length && items[end + 1] === items[end] + 1) end++;
		parts.push(end === k ? String(items[k]) : `${items[k]}-${items[end]}`);
		k = end + 1;
	}
	return parts.join(', ');
}

function itemsWord(items: number[]): string {
	return `${items.length === 1 ? 'Item' : 'Items'} ${ranges(items)}`;
}

export interface StoppedRun<T> {
	/** The item whose failure stops the run (the lowest index that failed). */
	failed: number;
	outcomes: Array<Outcome<T> | undefined>;
	writes: ItemWrites;
	/** How the record item i wrote is named ("customer c_81"), when its answer gives its ID. */
	recordOf(i: number, value: T): string | undefined;
}

/**
 * The sentences the error's description gets: every item after the failing one, by what the
 * platform did with it (carried out, with the record's ID where the answer gave one; maybe carried
 * out; refused; failed as well; not sent), and what to run again. Indexes are n8n's item indexes (from 0),
 * as the error's own Item Index. Undefined when no item comes after the failing one.
 */
export function stoppedRunNote<T>(run: StoppedRun<T>): string | undefined {
	const { failed, outcomes, writes } = run;
	if (outcomes.length <= failed + 1) return undefined;
	const done: number[] = [];
	const named: string[] = [];
	const unsure: number[] = [];
	const refused: number[] = [];
	const failedToo: number[] = [];
	const notSent: number[] = [];
	for (let i = failed + 1; i < outcomes.length; i++) {
		const outcome = outcomes[i];
		const wrote = writes.of(i);
		if (outcome?.ok === true || wrote === 'done') {
			done.push(i);
			const record = outcome?.ok === true && wrote === 'done' ? run.recordOf(i, outcome.value) : undefined;
			if (record !== undefined) named.push(`item ${i} ${record}`);
		} else if (wrote === 'unsure') unsure.push(i);
		else if (wrote === 'refused') refused.push(i);
		else if (outcome === undefined || outcome.error instanceof NotSent) notSent.push(i);
		else failedToo.push(i);
	}
	const was = (items: number[]) => (items.length === 1 ? 'was' : 'were');
	const sentences: string[] = [];
	if (done.length > 0) sentences.push(`${itemsWord(done)} ${was(done)} carried out before the run stopped${named.length > 0 ? `: ${named.join(', ')}` : ''}.`);
	if (unsure.length > 0) sentences.push(`${itemsWord(unsure)} may have been carried out (the answer was lost or unreadable): check on the platform.`);
	if (refused.length > 0) sentences.push(`${itemsWord(refused)} ${was(refused)} refused by the platform and not carried out.`);
	if (failedToo.length > 0) sentences.push(`${itemsWord(failedToo)} failed as well and ${was(failedToo)} not carried out.`);
	if (notSent.length > 0) sentences.push(`${itemsWord(notSent)} ${was(notSent)} not sent.`);
	if (done.length + unsure.length === 0) sentences.push(`Nothing after item ${failed} was carried out.`);
	else {
		const check = unsure.length > 0 ? ', and those that may have been only once the platform shows they were not' : '';
		sentences.push(`Run again only item ${failed} and the later items not listed as carried out${check}.`);
	}
	sentences.push("Items are numbered from 0, as n8n's Item Index.");
	return sentences.join(' ');
}
