import type { IDataObject } from 'n8n-workflow';

import { customerLocator } from '../../shared/locators';
import { requestOnRecord } from '../../shared/recordRequest';
import { fieldsCollection, recordOf } from '../../shared/records';
import type { OperationDef } from '../../shared/types';
import { customerOptions } from './descriptions';
import { CUSTOMER_ID, explainCustomerNotFound, readCustomerBody } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const update: OperationDef = {
	value: 'update',
	name: 'Update',
	action: 'Update a customer',
	description: 'Change the fields of a customer; fields left out stay as they are',
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
