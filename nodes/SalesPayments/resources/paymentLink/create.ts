import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { fieldsCollection, recordOf } from '../../shared/records';
import { checkCents, requireString } from '../../shared/validation';
import { createOptions, createRequiredProperties } from './descriptions';
import { readLinkBody } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const create: OperationDef = {
	value: 'create',
	name: 'Create',
	action: 'Create a payment link',
	description: 'Create a payment link of the business, with its checkout, payment and redirect settings',
	properties: [
		...createRequiredProperties,
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
