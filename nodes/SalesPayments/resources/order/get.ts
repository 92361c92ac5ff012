import { notFound } from '../../transport/errors';
import { requestOnRecord } from '../../fields/recordRequest';
import { pick, simplifyField } from '../../fields/simplify';
import type { OperationDef } from '../../fields/types';
import { ENDPOINTS } from '../../transport/endpoints';

/** The order fields most workflows use; Simplify leaves out the status history and coupon. */
export const ORDER_SIMPLE_FIELDS = ['id', 'status', 'date', 'paidAt', 'orderBuyer', 'items', 'payments'] as const;

const explainOrderNotFound = notFound('order');

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get an order',
	amounts: true,
	description: 'Read one order of the business: buyer, items, payments and status',
	recordKey: 'orderId',
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
		const { data: order } = await requestOnRecord.call(this, i, {
			...ENDPOINTS.order.get,
			id: { name: 'orderId', label: 'Order ID' },
			explain: explainOrderNotFound,
		});
		return (this.getNodeParameter('simplify', i, true) as boolean) ? pick(order, ORDER_SIMPLE_FIELDS) : order;
	},
};
