import { customerLocator } from '../../shared/locators';
import { recordOperation } from '../../shared/recordOperation';
import { explainCustomerNotFound } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const deleteCustomer = recordOperation({
	value: 'delete',
	name: 'Delete',
	action: 'Delete a customer',
	description: 'Remove a customer permanently',
	id: { property: customerLocator('The customer to remove'), label: 'Customer' },
	// KEYS only (spec 4.7); the platform answers `{ deleted: boolean }`.
	...ENDPOINTS.customer.remove,
	explain: explainCustomerNotFound,
	acceptedHint: 'check with Customer > Get whether the customer still exists.',
});
