import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../fields/types';
import { apiRequest } from '../../transport/transport';
import { fieldsCollection, recordOf } from '../../transport/records';
import { checkEmail, requireString } from '../../fields/validation';
import { customerRequiredProperties, customerOptions } from './descriptions';
import { CHECK_CUSTOMERS, readCustomerBody } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const create: OperationDef = {
	value: 'create',
	name: 'Create',
	action: 'Create a customer',
	description: 'Add a customer to the business',
	recordKey: 'email',
	properties: [
		...customerRequiredProperties,
		fieldsCollection('additional', customerOptions(false)),
	],
	async execute(i) {
		const name = requireString.call(this, 'name', i, 'Name');
		const email = checkEmail.call(this, requireString.call(this, 'email', i, 'Email'), i, 'Email');
		const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
		const body = { ...readCustomerBody.call(this, fields, i), name, email };
		// The spec does not show this endpoint's headers. Customers are listed per business
		// (GET /customers/list is KEYS+BIZ), so the business the customer belongs to is sent.
		const data = await apiRequest.call(this, {
			...ENDPOINTS.customer.create,
			body,
			itemIndex: i,
			acceptedHint: CHECK_CUSTOMERS,
		});
		return recordOf(data, 'customer');
	},
};
