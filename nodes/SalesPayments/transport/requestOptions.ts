import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { runCache } from './cache';
import type { ApiContext } from './credentials';
import { wholeNumberOption } from './numbers';
import { AUTO_CONCURRENCY, MAX_CONCURRENCY, NETWORK_MAX_CONCURRENCY } from './concurrency';

/** Timeout and retries of one item's requests (its Request Options). */
export interface RequestSettings {
	/** Deadline of one request, from sending to the last byte of the answer, in milliseconds. */
	timeout: number;
	/** Further attempts after the first, for requests that may be repeated safely. */
	maxRetries: number;
	/** Items at a time (Max Concurrent Requests of the operations without Pagination): 0 = the automatic window. */
	maxConcurrency: number;
}

export const DEFAULT_SETTINGS: RequestSettings = { timeout: 30_000, maxRetries: 3, maxConcurrency: AUTO_CONCURRENCY };
export const MAX_RETRIES = 10;
export const MAX_TIMEOUT_MS = 600_000;

/** Timeout and retries, read by the transport for every request of an item. */
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30000,
			description:
				'Longest time one request may take, from sending it to the last byte of the answer, in milliseconds. A slower answer counts as a failure (reads are retried, writes never).',
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 3,
			description:
				'How often to repeat a request refused with 429 (rate limit), or, for reads only, one that failed with 502/503/504, a dropped connection or the timeout. The retries wait what the platform asks (Retry-After), 30 s per retry at most in all (3: 90 s); a longer wait fails at once, saying so. Writes such as charges and redemptions are never repeated once the platform may have processed them.',
		},
		{
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrency',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_CONCURRENCY },
			default: AUTO_CONCURRENCY,
			description: `How many input items to send at the same time. 0 (auto) follows what the platform takes: one at first, more while answers come back as fast, up to ${NETWORK_MAX_CONCURRENCY}, fewer when it slows down or refuses (429). 1 sends one item after another. Outputs keep the input order; items that name the same record always run one after another. Read from the first item.`,
			// The lists have theirs under Pagination.
			displayOptions: { hide: { '/operation': ['getMany'] } },
		},
	],
};

function readSettings(ctx: IExecuteFunctions, itemIndex: number): RequestSettings {
	const options = ctx.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	return {
		timeout: wholeNumberOption(ctx, options.timeout, { label: 'Timeout (Ms)', min: 1, max: MAX_TIMEOUT_MS, fallback: DEFAULT_SETTINGS.timeout }, itemIndex),
		maxRetries: wholeNumberOption(ctx, options.maxRetries, { label: 'Max Retries', min: 0, max: MAX_RETRIES, fallback: DEFAULT_SETTINGS.maxRetries }, itemIndex),
		maxConcurrency: wholeNumberOption(
			ctx,
			options.maxConcurrency,
			{ label: 'Max Concurrent Requests', min: 0, max: MAX_CONCURRENCY, fallback: AUTO_CONCURRENCY, minNote: ' (auto)' },
			itemIndex,
		),
	};
}

/** Request Options of an item (execute contexts only; dropdowns, hooks, webhooks and polls use the defaults), read once per run. */
export function getRequestSettings(this: ApiContext, itemIndex: number): RequestSettings {
	if (!('getInputData' in this) || !('continueOnFail' in this)) return DEFAULT_SETTINGS;
	return runCache(this, `requestOptions:${itemIndex}`, () => readSettings(this as IExecuteFunctions, itemIndex));
}
