import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** The subscription as a resource locator: picked from the business's list or typed as an ID. */
export const subscriptionLocator: INodeProperties = {
	displayName: 'Subscription',
	name: 'subscriptionId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The subscription to read',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchSubscriptions', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 3f1c2a9b-8e4d-4a60-b1c3-5f1d7c2a9b8e',
			validation: [
				{
					type: 'regex',
					properties: { regex: '[^/?#\\s]+', errorMessage: 'An ID has no spaces, slashes, "?" or "#"' },
				},
			],
		},
	],
};

function obj(value: unknown): IDataObject {
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
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
