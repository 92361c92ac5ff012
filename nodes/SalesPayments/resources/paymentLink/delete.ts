import { paymentLinkLocator } from '../../fields/locators';
import { requestOnRecord } from '../../fields/recordRequest';
import { resultOr } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { explainLinkNotFound, LINK_ID } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const deletePaymentLink: OperationDef = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a payment link permanently (cannot be undone)',
	description: 'Delete a payment link permanently. Cannot be undone.',
	recordKey: 'paymentLinkId',
	properties: [paymentLinkLocator('The payment link to delete')],
	async execute(i) {
		// Headers not shown in the spec: business-id is sent, as on the other payment link calls.
		const { id, data } = await requestOnRecord.call(this, i, {
			...ENDPOINTS.paymentLink.remove,
			id: LINK_ID,
			open: true,
			explain: explainLinkNotFound,
			acceptedHint: 'check with Payment Link > Get whether the link still exists.',
		});
		// Success body not shown: what the platform says, or that the link is gone.
		return resultOr(data, { id, deleted: true });
	},
};
