import { paymentLinkLocator } from '../../fields/locators';
import { requestOnRecord } from '../../fields/recordRequest';
import { recordOf } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { explainLinkNotFound, LINK_ID } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get a payment link',
	amounts: true,
	description: 'Read the details of one payment link',
	recordKey: 'paymentLinkId',
	properties: [paymentLinkLocator('The payment link to read')],
	async execute(i) {
		// Headers not shown in the spec: business-id is sent, as on every other payment link call.
		const { data } = await requestOnRecord.call(this, i, { ...ENDPOINTS.paymentLink.details, id: LINK_ID, explain: explainLinkNotFound });
		return recordOf(data, 'paymentLink');
	},
};
