import { paymentLinkLocator } from '../../shared/locators';
import { recordOperation } from '../../shared/recordOperation';
import { recordOf, resultOr } from '../../shared/records';
import { explainLinkNotFound } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const publish = recordOperation({
	value: 'publish',
	name: 'Publish',
	action: 'Publish a payment link',
	description: 'Make a payment link active, so buyers can pay through it',
	id: { property: paymentLinkLocator('The payment link to publish'), label: 'Payment Link' },
	// Request and headers not shown in the spec: no body, business-id sent as on the other link calls.
	...ENDPOINTS.paymentLink.publish,
	// Setting the same state twice has the same effect, so a lost answer may be retried.
	idempotent: true,
	open: true,
	explain: explainLinkNotFound,
	// Success body not shown: the link when the platform returns it, otherwise what it said.
	output: (data, id) => resultOr(recordOf(data, 'paymentLink'), { id, published: true }),
});
