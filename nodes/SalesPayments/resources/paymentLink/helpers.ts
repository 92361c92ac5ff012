import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Explain } from '../../transport/errors';
import { fieldError, notFound } from '../../transport/errors';
import type { Endpoint } from '../../transport/endpoints';
import type { RecordId } from '../../fields/recordRequest';
import { requestOnRecord } from '../../fields/recordRequest';
import { fixedList, fixedValues, mergeBody, recordOf, resultOr, setPath } from '../../transport/records';
import { readField } from '../../fields/fields';
import { checkCents, checkInteger, checkNumber, parseJsonObject } from '../../fields/validation';
import { commonFields, createOnlyFields, nameField, updateOnlyFields, valueInCents } from './descriptions';

function readInstallmentOptions(ctx: IExecuteFunctions, value: unknown, i: number): IDataObject[] {
	return fixedList(value, 'option').map((o, n) => {
		const label = `Installment Options ${n + 1}`;
		const rate = checkNumber.call(ctx, o.interestRate ?? 0, i, `${label}: Interest Rate`, 0);
		return {
			installments: checkInteger.call(ctx, o.installments, i, `${label}: Installments`, 1),
			installmentValueInCents: checkCents.call(ctx, o.installmentValueInCents, i, `${label}: Installment Value in Cents`),
			interestRate: rate,
		};
	});
}

function readRedirect(ctx: IExecuteFunctions, value: unknown, i: number): IDataObject | undefined {
	const r = fixedValues(value);
	if (!Object.keys(r).length) return undefined;
	const url = typeof r.url === 'string' ? r.url.trim() : '';
	if (!/^https?:\/\/\S+$/i.test(url)) fieldError(ctx, `Redirect URL must start with http:// or https:// (got ${JSON.stringify(r.url ?? '')})`, i);
	const out: IDataObject = { url };
	const buttonName = typeof r.buttonName === 'string' ? r.buttonName.trim() : '';
	if (buttonName) out.buttonName = buttonName;
	if (r.delayInSeconds !== undefined && r.delayInSeconds !== '') {
		out.delayInSeconds = checkInteger.call(ctx, r.delayInSeconds, i, 'Redirect Delay in Seconds', 0);
	}
	return out;
}

/**
 * Builds the request body from the item's Name/Value (Create) and a collection's value: each
 * field goes to its place in the spec's body (`preference.*`, `paymentConfiguration.*` ...).
 */
export function readLinkBody(
	this: IExecuteFunctions,
	fields: IDataObject,
	i: number,
	mode: 'create' | 'update',
): IDataObject {
	const known = mode === 'create' ? [nameField, valueInCents, ...commonFields, ...createOnlyFields] : [nameField, valueInCents, ...commonFields, ...updateOnlyFields];
	const body: IDataObject = {};
	for (const f of known) {
		if (!(f.property.name in fields)) continue;
		const value = readField(this, f, fields[f.property.name], i);
		if (value !== undefined) setPath(body, f.path, value);
	}
	if (mode === 'create') {
		const options = readInstallmentOptions(this, fields.installmentOptions, i);
		if (options.length) setPath(body, ['paymentConfiguration', 'creditCard', 'installmentOptions'], options);
		const redirect = readRedirect(this, fields.redirect, i);
		if (redirect) setPath(body, ['advanced', 'redirect'], redirect);
	}
	const extra = parseJsonObject.call(this, fields.extraFields, i, 'Extra Fields (JSON)');
	return mergeBody(extra, body);
}

export const LINK_ID: RecordId = { name: 'paymentLinkId', label: 'Payment Link' };

/** Plain words for a link that does not exist. */
export const explainLinkNotFound = notFound('payment link');

/** Plain words for a refused change of a link (spec part 3: locked once a sale exists). */
export function explainLinkRefusal(change: string): Explain {
	const missing = explainLinkNotFound;
	return (error) => {
		const gone = missing(error);
		if (gone) return gone;
		if (/\bsales?\b|\bsold\b/i.test(error.message)) {
			return `This payment link already has a sale, so the platform no longer allows ${change}.`;
		}
		if (error.statusCode === 409 || error.statusCode === 422) {
			return `The platform refused ${change} in the link's current state (a link that has a sale can no longer be changed).`;
		}
		return undefined;
	};
}

/**
 * Publish or Unpublish (no body): the link when the platform returns it, otherwise what it said,
 * or `done` (e.g. `{ published: true }`) with the link's ID when it said nothing (not shown in the spec).
 */
export async function setLinkState(this: IExecuteFunctions, i: number, endpoint: Endpoint, done: IDataObject): Promise<IDataObject> {
	const { id, data } = await requestOnRecord.call(this, i, {
		...endpoint,
		id: LINK_ID,
		// Setting the same state twice has the same effect, so a lost answer may be retried.
		idempotent: true,
		open: true,
		explain: explainLinkNotFound,
	});
	return resultOr(recordOf(data, 'paymentLink'), { id, ...done });
}
