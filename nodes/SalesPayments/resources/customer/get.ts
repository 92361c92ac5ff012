import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { recordOf } from '../../shared/records';
import { requireId } from '../../shared/validation';
import { customerLocator } from './fields';

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get a customer',
	description: 'Read one customer by its ID',
	properties: [customerLocator('The customer to read')],
	async execute(i) {
		const id = requireId.call(this, 'customerId', i, 'Customer');
		// KEYS only (spec 4.7): the customer ID alone identifies the record.
		const data = await apiRequest.call(this, { method: 'GET', path: `/customers/${id}`, itemIndex: i });
		return recordOf(data, 'customer');
	},
};
