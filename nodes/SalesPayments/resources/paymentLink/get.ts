import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { recordOf } from '../../shared/records';
import { requireId } from '../../shared/validation';
import { explainLinkNotFound, paymentLinkLocator } from './fields';

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get a payment link',
	description: 'Read the details of one payment link',
	properties: [paymentLinkLocator('The payment link to read')],
	async execute(i) {
		const id = requireId.call(this, 'paymentLinkId', i, 'Payment Link');
		// Headers not shown in the spec: business-id is sent, as on every other payment link call.
		const data = await apiRequest.call(this, {
			method: 'GET',
			path: `/payment-links/details/${id}`,
			business: true,
			itemIndex: i,
			explain: explainLinkNotFound,
		});
		return recordOf(data, 'paymentLink');
	},
};
