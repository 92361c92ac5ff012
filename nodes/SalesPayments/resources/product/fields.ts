import type { INodeProperties } from 'n8n-workflow';
import { idLocator } from '../../shared/locator';

/** The product as a resource locator: picked from the business's products or typed as an ID. */
export const productLocator: INodeProperties = idLocator({
	displayName: 'Product',
	name: 'productId',
	searchListMethod: 'searchProducts',
	description: 'The product',
});
