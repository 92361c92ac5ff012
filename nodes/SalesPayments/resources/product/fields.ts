import type { INodeProperties } from 'n8n-workflow';

/** The product as a resource locator: picked from the business's products or typed as an ID. */
export const productLocator: INodeProperties = {
	displayName: 'Product',
	name: 'productId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchProducts', searchable: true },
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
