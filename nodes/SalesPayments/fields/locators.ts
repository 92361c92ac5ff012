import type { INodeProperties } from 'n8n-workflow';

/**
 * A resource locator for a record the API can list: "From List" (filled by a listSearch method)
 * or "By ID". Read it with requireId(), which refuses an empty ID or one outside the ID rule of
 * transport/paths.ts with an error naming the field, whether typed or from an expression. No regex
 * validation here: n8n would then refuse the whole workflow with a generic "has issues" error.
 */
export function idLocator(options: {
	displayName: string;
	name: string;
	searchListMethod: string;
	description: string;
	required?: boolean;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${options.displayName.toLowerCase()}...`,
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3f1c2a9e-7b7d-4c1e-9a55-0d2f6c1b8e21',
			},
		],
	};
}

/** The customer to act on: picked from the business's customers or typed as an ID. */
export function customerLocator(description: string, required = true): INodeProperties {
	return idLocator({ displayName: 'Customer', name: 'customerId', searchListMethod: 'searchCustomers', description, required });
}

/** The payment link to act on. */
export function paymentLinkLocator(description: string, required = true): INodeProperties {
	return idLocator({ displayName: 'Payment Link', name: 'paymentLinkId', searchListMethod: 'searchPaymentLinks', description, required });
}

/** The pixel to act on. */
export function pixelLocator(description: string): INodeProperties {
	return idLocator({ displayName: 'Pixel', name: 'pixelId', searchListMethod: 'searchPixels', description });
}

/** The product to act on (Offer > Get Many lists its offers). */
export function productLocator(description: string): INodeProperties {
	return idLocator({ displayName: 'Product', name: 'productId', searchListMethod: 'searchProducts', description });
}

/** The subscription to act on. */
export function subscriptionLocator(description: string): INodeProperties {
	return idLocator({ displayName: 'Subscription', name: 'subscriptionId', searchListMethod: 'searchSubscriptions', description });
}

/** The webhook to act on. */
export function webhookLocator(description: string): INodeProperties {
	return idLocator({ displayName: 'Webhook', name: 'webhookId', searchListMethod: 'searchWebhooks', description });
}
