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
 * What the platform did with an item's requests, the first that applies: a write 'done' (a 2xx),
 * 'unsure' (it may have acted: a 5xx, a lost or unreadable answer) or 'refused' (a 3xx or 4xx:
 * nothing done); 'read': the item only read.
 */
type Effect = 'done' | 'unsure' | 'refused' | 'read';
const RANK: Record<Effect, number> = { done: 4, unsure: 3, refused: 2, read: 1 };

function effectOf(event: AttemptEvent, write: boolean): Effect | undefined {
	if (!write) return 'read';
	if (event.status !== undefined) {
		if (event.status >= 200 && event.status < 300) return 'done';
		return event.status >= 500 ? 'unsure' : 'refused';
	}
	// No status: the request never left (nothing done), or its answer was lost or unreadable.
	return neverSent(event.code) ? undefined : 'unsure';
}

/** What the platform did with each item of a run, told by the transport for every attempt. */
export class ItemEffects {
	private readonly effects = new Map<number, Effect>();

	note(item: number | undefined, event: AttemptEvent, write: boolean): void {
		const effect = effectOf(event, write);
		if (item === undefined || effect === undefined) return;
		const was = this.effects.get(item);
		if (was === undefined || RANK[effect] > RANK[was]) this.effects.set(item, effect);
	}

	of(item: number): Effect | undefined {
		return this.effects.get(item);
	}
}

/** The run's record (set by the action node for its items); undefined elsewhere (polls, dropdowns, triggers). */
export function itemEffectsOf(ctx: ApiContext): ItemEffects | undefined {
	return runCache<ItemEffects | undefined>(ctx, 'itemEffects', () => undefined);
}

export function setItemEffects(ctx: ApiContext, effects: ItemEffects): void {
	runCacheSet(ctx, 'itemEffects', effects);
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
	effects: ItemEffects;
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
	const { failed, outcomes, effects } = run;
	if (outcomes.length <= failed + 1) return undefined;
	const done: number[] = [];
	const named: string[] = [];
	const unsure: number[] = [];
	const refused: number[] = [];
	const readOnly: number[] = [];
	const failedToo: number[] = [];
	const notSent: number[] = [];
	for (let i = failed + 1; i < outcomes.length; i++) {
		const outcome = outcomes[i];
		const effect = effects.of(i);
		if (outcome?.ok === true || effect === 'done') {
			done.push(i);
			const record = outcome?.ok === true && effect === 'done' ? run.recordOf(i, outcome.value) : undefined;
			if (record !== undefined) named.push(`item ${i} ${record}`);
		} else if (effect === 'unsure') unsure.push(i);
		else if (effect === 'refused') refused.push(i);
		else if (outcome !== undefined && !(outcome.error instanceof NotSent)) failedToo.push(i);
		else if (effect === 'read') readOnly.push(i);
		else notSent.push(i);
	}
	const was = (items: number[]) => (items.length === 1 ? 'was' : 'were');
	const sentences: string[] = [];
	if (done.length > 0) sentences.push(`${itemsWord(done)} ${was(done)} carried out before the run stopped${named.length > 0 ? `: ${named.join(', ')}` : ''}.`);
	if (unsure.length > 0) sentences.push(`${itemsWord(unsure)} may have been carried out (the answer was lost or unreadable): check on the platform.`);
	if (refused.length > 0) sentences.push(`${itemsWord(refused)} ${was(refused)} refused by the platform and not carried out.`);
	if (failedToo.length > 0) sentences.push(`${itemsWord(failedToo)} failed as well and ${was(failedToo)} not carried out.`);
	if (readOnly.length > 0) sentences.push(`${itemsWord(readOnly)} ${was(readOnly)} stopped after reading only: nothing changed.`);
	if (notSent.length > 0) sentences.push(`${itemsWord(notSent)} ${was(notSent)} not sent.`);
	if (done.length + unsure.length === 0) sentences.push(`Nothing after item ${failed} was carried out.`);
	else {
		const check = unsure.length > 0 ? ', and those that may have been only once the platform shows they were not' : '';
		sentences.push(`Run again only item ${failed} and the later items not listed as carried out${check}.`);
	}
	sentences.push("Items are numbered from 0, as n8n's Item Index.");
	return sentences.join(' ');
}
