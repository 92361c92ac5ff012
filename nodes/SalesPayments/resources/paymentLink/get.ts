import { paymentLinkLocator } from '../../shared/locators';
import { recordOperation } from '../../shared/recordOperation';
import { recordOf } from '../../shared/records';
import { explainLinkNotFound } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const get = recordOperation({
	value: 'get',
	name: 'Get',
	action: 'Get a payment link',
	amounts: true,
	description: 'Read the details of one payment link',
	id: { property: paymentLinkLocator('The payment link to read'), label: 'Payment Link' },
	// Headers not shown in the spec: business-id is sent, as on every other payment link call.
	...ENDPOINTS.paymentLink.details,
	explain: explainLinkNotFound,
	output: (data) => recordOf(data, 'paymentLink'),
});
