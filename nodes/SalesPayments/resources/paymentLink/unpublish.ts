import { paymentLinkLocator } from '../../fields/locators';
import type { OperationDef } from '../../fields/types';
import { setLinkState } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const unpublish: OperationDef = {
	value: 'unpublish',
	name: 'Unpublish',
	action: 'Unpublish a payment link',
	description: 'Make a payment link inactive, so buyers can no longer pay through it',
	recordKey: 'paymentLinkId',
	properties: [paymentLinkLocator('The payment link to unpublish')],
	async execute(i) {
		// Request and headers not shown in the spec: no body, business-id sent as on the other link calls.
		return await setLinkState.call(this, i, ENDPOINTS.paymentLink.unpublish, { unpublished: true });
	},
};
