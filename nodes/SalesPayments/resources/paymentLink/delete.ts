import { paymentLinkLocator } from '../../shared/locators';
import { recordOperation } from '../../shared/recordOperation';
import { resultOr } from '../../shared/records';
import { explainLinkNotFound } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const deletePaymentLink = recordOperation({
	value: 'delete',
	name: 'Delete',
	action: 'Delete a payment link',
	description: 'Delete a payment link permanently',
	id: { property: paymentLinkLocator('The payment link to delete'), label: 'Payment Link' },
	// Headers not shown in the spec: business-id is sent, as on the other payment link calls.
	...ENDPOINTS.paymentLink.remove,
	open: true,
	explain: explainLinkNotFound,
	acceptedHint: 'check with Payment Link > Get whether the link still exists.',
	// Success body not shown: what the platform says, or that the link is gone.
	output: (data, id) => resultOr(data, { id, deleted: true }),
});
