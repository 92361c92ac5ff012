import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { recordOf } from '../../shared/records';
import { requireId } from '../../shared/validation';
import { customerLocator, customerOptions, readCustomerBody } from './fields';

export const update: OperationDef = {
	value: 'update',
	name: 'Update',
	action: 'Update a customer',
	description: 'Change the fields of a customer; fields left out stay as they are',
	properties: [
		customerLocator('The customer to update'),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add field',
			default: {},
			options: customerOptions(true),
		},
	],
	async execute(i) {
		const id = requireId.call(this, 'customerId', i, 'Customer');
		const fields = this.getNodeParameter('updateFields', i, {}) as IDataObject;
		const body = readCustomerBody.call(this, fields, i);
		if (!Object.keys(body).length) {
			throw new NodeOperationError(this.getNode(), 'Update Fields: set at least one field to change', { itemIndex: i });
		}
		// Headers not shown in the spec: business-id is sent because customers belong to a
		// business (they are listed per business), as for Create.
		const data = await apiRequest.call(this, {
			method: 'PATCH',
			path: `/customers/update/${id}`,
			body,
			business: true,
			itemIndex: i,
		});
		return recordOf(data, 'customer');
	},
};
