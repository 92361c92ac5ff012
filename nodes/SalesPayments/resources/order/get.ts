import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { pick, simplifyField } from '../../shared/simplify';
import { requireId } from '../../shared/validation';

/** The order fields most workflows use; Simplify leaves out the status history and coupon. */
export const ORDER_SIMPLE_FIELDS = ['id', 'status', 'date', 'paidAt', 'orderBuyer', 'items', 'payments'] as const;

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get an order',
	description: 'Read one order of the business: buyer, items, payments and status',
	properties: [
		{
			displayName: 'Order ID',
			name: 'orderId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 3f1c2a9e-7b7d-4c1e-9a55-0d2f6c1b8e21',
			description: 'ID of the order, as returned by Create Charge or sent in order events',
		},
		simplifyField,
	],
	async execute(i) {
		const id = requireId.call(this, 'orderId', i, 'Order ID');
		const order = await apiRequest.call(this, {
			method: 'GET',
			path: `/orders/${id}`,
			business: true,
			itemIndex: i,
			explain: (e) =>
				e.statusCode === 404 ? 'No order with this ID exists in the credential\'s business.' : undefined,
		});
		const simplify = this.getNodeParameter('simplify', i, true) as boolean;
		return simplify ? pick(order, ORDER_SIMPLE_FIELDS) : order;
	},
};
