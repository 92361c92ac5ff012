import type { IDataObject, IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';

import type { ApiContext } from '../transport/credentials';
import { Lane, setLane } from '../transport/gate';
import type { ItemKey, Outcome } from '../transport/items';
import { ALONE, INDEPENDENT, runItems } from '../transport/items';
import { strictInteger } from '../transport/numbers';
import { AUTO_CONCURRENCY, MAX_CONCURRENCY } from '../transport/concurrency';
import { ItemEffects, setItemEffects } from '../transport/stoppedRun';
import type { OperationDef } from './types';
import { NO_RECORD } from './types';

/**
 * What the action node needs to run its items side by side (transport/items.ts): which record an
 * item acts on, the run's Max Concurrent Requests, and the run on a lane of its own.
 */

/** The record item i acts on (its operation's `recordKey` field), INDEPENDENT, or ALONE when it cannot tell. */
export function itemKeyOf(ctx: IExecuteFunctions, op: OperationDef | undefined, i: number): ItemKey {
	if (op?.recordKey === NO_RECORD) return INDEPENDENT;
	if (op?.recordKey === undefined) return ALONE;
	try {
		const raw = ctx.getNodeParameter(op.recordKey, i, '', { extractValue: true }) as string | number | INodeParameterResourceLocator;
		const value = typeof raw === 'object' && raw !== null ? raw.value : raw;
		const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim().toLowerCase() : '';
		// An item whose ID is missing fails on its own; until then it may be any record.
		return text === '' ? ALONE : `${op.recordKey}:${text}`;
	} catch {
		return ALONE;
	}
}

/**
 * The run's Max Concurrent Requests (Pagination's for the lists, Request Options' for the others),
 * read from the first item: undefined for auto. A value that is not a whole number from 0 to
 * MAX_CONCURRENCY runs one item at a time here; the item's own check names it.
 */
export function runConcurrencyOf(ctx: IExecuteFunctions, op: OperationDef | undefined): number | undefined {
	try {
		const paged = op?.properties.some((p) => p.name === 'pagination') === true;
		const options = ctx.getNodeParameter(paged ? 'pagination' : 'requestOptions', 0, {}) as IDataObject;
		const value = options.maxConcurrency;
		if (value === undefined || value === null || value === '') return undefined;
		const n = strictInteger(value, AUTO_CONCURRENCY);
		if (n === AUTO_CONCURRENCY) return undefined;
		return n !== undefined && n <= MAX_CONCURRENCY ? n : 1;
	} catch {
		return 1;
	}
}

export interface SideBySide<T> {
	count: number;
	keyOf(i: number): ItemKey;
	/** Max Concurrent Requests N, or undefined: the credential's automatic window. */
	fixed: number | undefined;
	run(i: number): Promise<T>;
	stopOnFailure: boolean;
}

/**
 * Runs a run's items side by side on a lane of their own (transport/gate.ts): a failure that stops
 * the run stops the lane, so that no request of a later item is sent or retried; what the platform
 * did with each item is recorded, for the error of a run that stops (transport/stoppedRun.ts).
 */
export async function runSideBySide<T>(ctx: ApiContext, plan: SideBySide<T>): Promise<{ outcomes: Array<Outcome<T> | undefined>; effects: ItemEffects }> {
	const lane = new Lane(plan.fixed);
	setLane(ctx, lane);
	const effects = new ItemEffects();
	setItemEffects(ctx, effects);
	const outcomes = await runItems({
		count: plan.count,
		keyOf: plan.keyOf,
		// Auto: twice what the credential's window lets be in flight, so that it sees the demand.
		limit: () => plan.fixed ?? 2 * Math.max(1, ...[...lane.gates].map((gate) => gate.window)),
		run: plan.run,
		stopOnFailure: plan.stopOnFailure,
		onStop: (i) => lane.stop(i),
	});
	return { outcomes, effects };
}
