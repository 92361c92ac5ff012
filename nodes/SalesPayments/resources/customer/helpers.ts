import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readContactGroups } from '../../fields/contact';
import { notFound } from '../../transport/errors';
import type { RecordId } from '../../fields/recordRequest';
import { mergeBody } from '../../transport/records';
import { checkEmail, parseJsonObject, readText } from '../../fields/validation';

/**
 * The customer body from a collection's value (plus Name/Email read by the caller): the buyer
 * shape of the charge request, with the JSON pass-through merged under it.
 */
export function readCustomerBody(this: IExecuteFunctions, fields: IDataObject, i: number): IDataObject {
	const extra = parseJsonObject.call(this, fields.extraFields, i, 'Extra Fields (JSON)');
	const base: IDataObject = {};
	const name = readText(this, fields.name, 'Name', i);
	if (name !== undefined) base.name = name;
	if (fields.email !== undefined && fields.email !== '') base.email = checkEmail.call(this, fields.email, i, 'Email');
	Object.assign(base, readContactGroups.call(this, fields, i));
	return mergeBody(extra, base);
}

/** What to check before repeating a customer write whose answer was lost. */
export const CHECK_CUSTOMERS = 'look the customer up with Customer > Get Many (filter by Email) before creating it again.';

export const explainCustomerNotFound = notFound('customer');

export const CUSTOMER_ID: RecordId = { name: 'customerId', label: 'Customer' };
