import type { IDataObject, IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';

import type { ItemKey } from '../transport/items';
import { ALONE, INDEPENDENT } from '../transport/items';
import { strictInteger } from '../transport/numbers';
import { AUTO_CONCURRENCY, MAX_CONCURRENCY } from '../transport/concurrency';
import type { OperationDef } from './types';
import { NO_RECORD } from './types';

/**
 * What the action node needs to run its items side by side (transport/items.ts): which record an
 * item acts on, and the run's Max Concurrent Requests.
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
