import { customerLocator } from '../../fields/locators';
import { requestOnRecord } from '../../fields/recordRequest';
import type { OperationDef } from '../../fields/types';
import { CUSTOMER_ID, explainCustomerNotFound } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const deleteCustomer: OperationDef = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a customer permanently (cannot be undone)',
	description: 'Remove a customer permanently. Cannot be undone.',
	recordKey: 'customerId',
	properties: [customerLocator('The customer to remove')],
	async execute(i) {
		// KEYS only (spec 4.7); the platform answers `{ deleted: boolean }`.
		const { data } = await requestOnRecord.call(this, i, {
			...ENDPOINTS.customer.remove,
			id: CUSTOMER_ID,
			explain: explainCustomerNotFound,
			acceptedHint: 'check with Customer > Get whether the customer still exists.',
		});
		return data;
	},
};
