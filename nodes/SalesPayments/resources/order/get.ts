import { notFound } from '../../shared/errors';
import { recordOperation } from '../../shared/recordOperation';
import { pick, simplifyField } from '../../shared/simplify';
import { ENDPOINTS } from '../../shared/endpoints';

/** The order fields most workflows use; Simplify leaves out the status history and coupon. */
export const ORDER_SIMPLE_FIELDS = ['id', 'status', 'date', 'paidAt', 'orderBuyer', 'items', 'payments'] as const;

export const get = recordOperation({
	value: 'get',
	name: 'Get',
	action: 'Get an order',
	amounts: true,
	description: 'Read one order of the business: buyer, items, payments and status',
	id: {
		property: {
			displayName: 'Order ID',
			name: 'orderId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 3f1c2a9e-7b7d-4c1e-9a55-0d2f6c1b8e21',
			description: 'ID of the order, as returned by Create Charge or sent in order events',
		},
		label: 'Order ID',
	},
	properties: [simplifyField],
	...ENDPOINTS.order.get,
	explain: notFound('order'),
	output(order, _id, i) {
		return (this.getNodeParameter('simplify', i, true) as boolean) ? pick(order, ORDER_SIMPLE_FIELDS) : order;
	},
});
