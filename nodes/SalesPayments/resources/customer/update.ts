import type { IDataObject } from 'n8n-workflow';

import { customerLocator } from '../../shared/locators';
import { recordOperation } from '../../shared/recordOperation';
import { fieldsCollection, recordOf } from '../../shared/records';
import { customerOptions } from './descriptions';
import { explainCustomerNotFound, readCustomerBody } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const update = recordOperation({
	value: 'update',
	name: 'Update',
	action: 'Update a customer',
	description: 'Change the fields of a customer; fields left out stay as they are',
	id: { property: customerLocator('The customer to update'), label: 'Customer' },
	properties: [
		fieldsCollection('update', customerOptions(true)),
	],
	// Headers not shown in the spec: business-id is sent because customers belong to a
	// business (they are listed per business), as for Create.
	...ENDPOINTS.customer.update,
	explain: explainCustomerNotFound,
	body(i) {
		return readCustomerBody.call(this, this.getNodeParameter('updateFields', i, {}) as IDataObject, i);
	},
	requireBody: 'Update Fields: set at least one field to change',
	output: (data) => recordOf(data, 'customer'),
});
