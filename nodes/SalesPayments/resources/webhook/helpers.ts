import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { fieldError } from '../../transport/errors';
import type { RecordId, RecordRequest } from '../../fields/recordRequest';
import { requestOnRecord } from '../../fields/recordRequest';
import { resultOr, setOwn } from '../../transport/records';
import { checkOneOf } from '../../fields/validation';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Methods a dispatcher may use, as offered by its Method field. */
const DISPATCHER_METHODS = ['PATCH', 'POST', 'PUT'] as const;

/** Turns the Dispatchers field into the API's `dispatchers` array (type `http`). */
export function readDispatchers(this: IExecuteFunctions, i: number, required: boolean): IDataObject[] | undefined {
	const raw = this.getNodeParameter('dispatchers', i, {}) as IDataObject;
	const entries = Array.isArray(raw.http) ? (raw.http as IDataObject[]) : raw.http ? [raw.http as IDataObject] : [];
	if (entries.length === 0) {
		if (required) fieldError(this, 'Dispatchers: add at least one HTTP dispatcher', i);
		return undefined;
	}
	return entries.map((entry, n) => {
		const label = `Dispatchers (HTTP Dispatcher ${n + 1})`;
		const url = String(entry.url ?? '').trim();
		if (!/^https?:\/\/[^\s/]+\S*$/i.test(url)) fieldError(this, `${label}: URL must start with http:// or https:// (got "${url}")`, i);
		const method = checkOneOf.call(
			this,
			String(entry.method ?? 'POST').toUpperCase(),
			DISPATCHER_METHODS,
			i,
			`${label}: Method`,
		);
		const headerList = ((entry.headers as IDataObject | undefined)?.header ?? []) as IDataObject[];
		const headers: IDataObject = {};
		for (const header of Array.isArray(headerList) ? headerList : [headerList]) {
			const name = String(header.name ?? '').trim();
			if (!name) fieldError(this, `${label}: every header needs a Name`, i);
			if (!HEADER_NAME.test(name)) fieldError(this, `${label}: "${name}" is not a valid header name`, i);
			setOwn(headers, name, String(header.value ?? ''));
		}
		return { type: 'http', method, url, headers };
	});
}

const WEBHOOK_ID: RecordId = { name: 'webhookId', label: 'Webhook' };

/**
 * One request on one webhook (get, queue, activate, deactivate, delete, flush, resume, update):
 * KEYS only (spec 4.11). Answers the spec does not show (every write's) may be empty: then the
 * output is the webhook id with `success: true`.
 */
export async function requestOnWebhook(
	this: IExecuteFunctions,
	i: number,
	request: Omit<RecordRequest, 'id' | 'open'>,
): Promise<IDataObject> {
	const { id, data } = await requestOnRecord.call(this, i, { ...request, id: WEBHOOK_ID, open: request.method !== 'GET' });
	return resultOr(data, { id, success: true });
}
