import type { IDataObject } from 'n8n-workflow';

import { customerLocator } from '../../fields/locators';
import { requestOnRecord } from '../../fields/recordRequest';
import { fieldsCollection, recordOf } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { customerOptions } from './descriptions';
import { CUSTOMER_ID, explainCustomerNotFound, readCustomerBody } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const update: OperationDef = {
	value: 'update',
	name: 'Update',
	action: 'Update a customer',
	description: 'Change the fields of a customer; fields left out stay as they are',
	recordKey: 'customerId',
	properties: [customerLocator('The customer to update'), fieldsCollection('update', customerOptions(true))],
	async execute(i) {
		// Headers not shown in the spec: business-id is sent because customers belong to a
		// business (they are listed per business), as for Create.
		const { data } = await requestOnRecord.call(this, i, {
			...ENDPOINTS.customer.update,
			id: CUSTOMER_ID,
			explain: explainCustomerNotFound,
			body: () => readCustomerBody.call(this, this.getNodeParameter('updateFields', i, {}) as IDataObject, i),
			requireBody: 'Update Fields: set at least one field to change',
		});
		return recordOf(data, 'customer');
	},
};
