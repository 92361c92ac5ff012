import { customerLocator } from '../../fields/locators';
import { requestOnRecord } from '../../fields/recordRequest';
import { recordOf } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { CUSTOMER_ID, explainCustomerNotFound } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get a customer',
	description: 'Read one customer by its ID',
	recordKey: 'customerId',
	properties: [customerLocator('The customer to read')],
	async execute(i) {
		// KEYS only (spec 4.7): the customer ID alone identifies the record.
		const { data } = await requestOnRecord.call(this, i, { ...ENDPOINTS.customer.get, id: CUSTOMER_ID, explain: explainCustomerNotFound });
		return recordOf(data, 'customer');
	},
};
