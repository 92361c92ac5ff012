import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../fields/types';
import { NO_RECORD } from '../../fields/types';
import { apiRequest } from '../../transport/transport';
import { fieldsCollection, recordOf } from '../../transport/records';
import { checkCents, requireString } from '../../fields/validation';
import { createOptions, paymentLinkRequiredProperties } from './descriptions';
import { readLinkBody } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const create: OperationDef = {
	value: 'create',
	name: 'Create',
	action: 'Create a payment link',
	description: 'Create a payment link of the business, with its checkout, payment and redirect settings',
	recordKey: NO_RECORD,
	properties: [
		...paymentLinkRequiredProperties,
		fieldsCollection('additional', createOptions),
	],
	async execute(i) {
		const name = requireString.call(this, 'name', i, 'Name');
		const valueInCents = checkCents.call(this, this.getNodeParameter('valueInCents', i, undefined), i, 'Value in Cents');
		const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
		const body = { ...readLinkBody.call(this, fields, i, 'create'), name, valueInCents };
		const data = await apiRequest.call(this, {
			...ENDPOINTS.paymentLink.create,
			body,
			itemIndex: i,
			acceptedHint: 'look for the link with Payment Link > Get Many before creating it again.',
		});
		return recordOf(data, 'paymentLink');
	},
};
