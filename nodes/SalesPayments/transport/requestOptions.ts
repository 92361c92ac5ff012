import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { runCache } from './cache';
import type { ApiContext } from './credentials';
import { wholeNumberOption } from './numbers';

/** Timeout and retries of one item's requests (its Request Options). */
export interface RequestSettings {
	/** Deadline of one request, from sending to the last byte of the answer, in milliseconds. */
	timeout: number;
	/** Further attempts after the first, for requests that may be repeated safely. */
	maxRetries: number;
}

export const DEFAULT_SETTINGS: RequestSettings = { timeout: 30_000, maxRetries: 3 };
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
				'How often to repeat a request refused with 429 (rate limit), or, for reads only, one that failed with 502/503/504, a dropped connection or the timeout. Writes such as charges and redemptions are never repeated once the platform may have processed them.',
		},
	],
};

function readSettings(ctx: IExecuteFunctions, itemIndex: number): RequestSettings {
	const options = ctx.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	return {
		timeout: wholeNumberOption(ctx, options.timeout, { label: 'Timeout (Ms)', min: 1, max: MAX_TIMEOUT_MS, fallback: DEFAULT_SETTINGS.timeout }, itemIndex),
		maxRetries: wholeNumberOption(ctx, options.maxRetries, { label: 'Max Retries', min: 0, max: MAX_RETRIES, fallback: DEFAULT_SETTINGS.maxRetries }, itemIndex),
	};
}

/** Request Options of an item (execute contexts only; dropdowns, hooks, webhooks and polls use the defaults), read once per run. */
export function getRequestSettings(this: ApiContext, itemIndex: number): RequestSettings {
	if (!('getInputData' in this) || !('continueOnFail' in this)) return DEFAULT_SETTINGS;
	return runCache(this, `requestOptions:${itemIndex}`, () => readSettings(this as IExecuteFunctions, itemIndex));
}
