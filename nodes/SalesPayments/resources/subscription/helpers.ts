import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../../transport/records';

function obj(value: unknown): IDataObject {
	return isPlainObject(value) ? value : {};
}

/**
 * The fields of a subscription most workflows use, with the customer's email and the product
 * lifted to the top level. Fields the platform leaves out stay out.
 */
export function simplifySubscription(record: IDataObject): IDataObject {
	const product = obj(obj(record.orderItem).product);
	const customer = obj(record.customer);
	const out: IDataObject = {
		id: record.id,
		name: record.name,
		status: record.status,
		subscriptionPaymentStatus: record.subscriptionPaymentStatus,
		customerEmail: customer.email,
		productId: product.id,
		productName: product.name,
		recurrenceValueInCents: record.recurrenceValueInCents,
		periodicity: record.periodicity,
		paymentMethod: record.paymentMethod,
		nextPayment: record.nextPayment,
		expiration: record.expiration,
		subscribedAt: record.subscribedAt,
		createdAt: record.createdAt,
	};
	for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
	return out;
}
