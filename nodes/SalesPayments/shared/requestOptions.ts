import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ApiContext } from './credentials';
import { fieldError } from './errors';
import { strictInteger } from './validation';

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

/** Settings per execution context and item: read once, not once per request. */
const settingsCache = new WeakMap<object, Map<number, RequestSettings>>();

function readSettings(ctx: IExecuteFunctions, itemIndex: number): RequestSettings {
	const options = ctx.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	const read = (key: keyof RequestSettings, label: string, min: number, max: number): number => {
		const raw = options[key];
		if (raw === undefined || raw === null || raw === '') return DEFAULT_SETTINGS[key];
		const n = strictInteger(raw, min);
		if (n === undefined || n > max) {
			fieldError(ctx, `${label} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`, itemIndex);
		}
		return n;
	};
	return {
		timeout: read('timeout', 'Timeout (Ms)', 1, MAX_TIMEOUT_MS),
		maxRetries: read('maxRetries', 'Max Retries', 0, MAX_RETRIES),
	};
}

/** Request Options of an item (execute contexts only; dropdowns, hooks, webhooks and polls use the defaults). */
export function getRequestSettings(this: ApiContext, itemIndex: number): RequestSettings {
	if (!('getInputData' in this) || !('continueOnFail' in this)) return DEFAULT_SETTINGS;
	let perContext = settingsCache.get(this);
	if (!perContext) {
		perContext = new Map();
		settingsCache.set(this, perContext);
	}
	let settings = perContext.get(itemIndex);
	if (!settings) {
		settings = readSettings(this as IExecuteFunctions, itemIndex);
		perContext.set(itemIndex, settings);
	}
	return settings;
}
