import { productLocator } from '../../shared/locators';
import { listAll, listProperties } from '../../shared/lists';
import type { OperationDef } from '../../shared/types';
import { requireId } from '../../shared/validation';
import { ENDPOINTS } from '../../shared/endpoints';

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many offers of a product',
	amounts: true,
	description: 'List the offers (prices and conditions) of one product',
	properties: [productLocator('The product whose offers to list'), ...listProperties],
	async execute(i) {
		const productId = requireId.call(this, 'productId', i, 'Product');
		return await listAll.call(this, i, {
			...ENDPOINTS.offer.listByProduct,
			pathParams: { id: { value: productId, label: 'Product' } },
		});
	},
};
