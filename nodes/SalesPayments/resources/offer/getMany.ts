import { productLocator } from '../../fields/locators';
import { listAll, listProperties } from '../../lists/lists';
import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { requireId } from '../../fields/validation';
import { ENDPOINTS } from '../../transport/endpoints';

/** What an agent reads of an offer (Simplify). */
export const OFFER_FOR_MODEL: ModelRecord = ['id', 'name', 'status', 'valueInCents', 'paymentMethods', 'maxInstallments'];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many offers of a product',
	amounts: true,
	description: 'List the offers (prices and conditions) of one product',
	recordKey: NO_RECORD,
	properties: [productLocator('The product whose offers to list'), ...listProperties],
	async execute(i) {
		const productId = requireId.call(this, 'productId', i, 'Product');
		return await listAll.call(this, i, {
			...ENDPOINTS.offer.listByProduct,
			pathParams: { id: { value: productId, label: 'Product' } },
		}, OFFER_FOR_MODEL);
	},
};
