import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { recordOf, resultOr } from '../../shared/records';
import { requireId } from '../../shared/validation';
import { explainLinkNotFound, paymentLinkLocator } from './fields';

export const unpublish: OperationDef = {
	value: 'unpublish',
	name: 'Unpublish',
	action: 'Unpublish a payment link',
	description: 'Make a payment link inactive, so buyers can no longer pay through it',
	properties: [paymentLinkLocator('The payment link to unpublish')],
	async execute(i) {
		const id = requireId.call(this, 'paymentLinkId', i, 'Payment Link');
		// Request and headers not shown in the spec: no body, business-id sent as on the other link calls.
		const data = await apiRequest.call(this, {
			method: 'PATCH',
			path: `/payment-links/unpublish/${id}`,
			business: true,
			// Setting the same state twice has the same effect, so a lost answer may be retried.
			idempotent: true,
			itemIndex: i,
			explain: explainLinkNotFound,
		});
		// Success body not shown: the link when the platform returns it, otherwise what it said.
		return resultOr(recordOf(data, 'paymentLink'), { id, unpublished: true });
	},
};
