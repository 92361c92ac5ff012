import { customerLocator } from '../../shared/locators';
import { recordOperation } from '../../shared/recordOperation';
import { recordOf } from '../../shared/records';
import { explainCustomerNotFound } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const get = recordOperation({
	value: 'get',
	name: 'Get',
	action: 'Get a customer',
	description: 'Read one customer by its ID',
	id: { property: customerLocator('The customer to read'), label: 'Customer' },
	// KEYS only (spec 4.7): the customer ID alone identifies the record.
	...ENDPOINTS.customer.get,
	explain: explainCustomerNotFound,
	output: (data) => recordOf(data, 'customer'),
});
