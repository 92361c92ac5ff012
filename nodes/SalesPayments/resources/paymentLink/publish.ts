import { paymentLinkLocator } from '../../fields/locators';
import type { OperationDef } from '../../fields/types';
import { setLinkState } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const publish: OperationDef = {
	value: 'publish',
	name: 'Publish',
	action: 'Publish a payment link',
	description: 'Make a payment link active, so buyers can pay through it',
	recordKey: 'paymentLinkId',
	properties: [paymentLinkLocator('The payment link to publish')],
	async execute(i) {
		// Request and headers not shown in the spec: no body, business-id sent as on the other link calls.
		return await setLinkState.call(this, i, ENDPOINTS.paymentLink.publish, { published: true });
	},
};
