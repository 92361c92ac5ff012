import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { resultOr } from '../../shared/records';
import { requireId } from '../../shared/validation';
import { explainLinkNotFound, paymentLinkLocator } from './fields';

export const deletePaymentLink: OperationDef = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a payment link',
	description: 'Delete a payment link permanently',
	properties: [paymentLinkLocator('The payment link to delete')],
	async execute(i) {
		const id = requireId.call(this, 'paymentLinkId', i, 'Payment Link');
		// Headers not shown in the spec: business-id is sent, as on the other payment link calls.
		const data = await apiRequest.call(this, {
			method: 'DELETE',
			path: `/payment-links/delete/${id}`,
			business: true,
			itemIndex: i,
			explain: explainLinkNotFound,
		});
		// Success body not shown: what the platform says, or that the link is gone.
		return resultOr(data, { id, deleted: true });
	},
};
