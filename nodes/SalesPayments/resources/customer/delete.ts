import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { requireId } from '../../shared/validation';
import { customerLocator } from './fields';

export const deleteCustomer: OperationDef = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a customer',
	description: 'Remove a customer permanently',
	properties: [customerLocator('The customer to remove')],
	async execute(i) {
		const id = requireId.call(this, 'customerId', i, 'Customer');
		// KEYS only (spec 4.7); the platform answers `{ deleted: boolean }`.
		return await apiRequest.call(this, { method: 'DELETE', path: `/customers/remove/${id}`, itemIndex: i });
	},
};
