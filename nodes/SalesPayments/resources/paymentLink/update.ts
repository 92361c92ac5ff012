import type { IDataObject } from 'n8n-workflow';

import { paymentLinkLocator } from '../../fields/locators';
import { requestOnRecord } from '../../fields/recordRequest';
import { fieldsCollection } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { updateOptions } from './descriptions';
import { explainLinkRefusal, LINK_ID, readLinkBody } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

const explainUpdateRefusal = explainLinkRefusal('changing its fields');

export const update: OperationDef = {
	value: 'update',
	name: 'Update',
	action: 'Update a payment link',
	description: 'Change the fields of a payment link. The platform refuses once the link has a sale.',
	recordKey: 'paymentLinkId',
	properties: [paymentLinkLocator('The payment link to update'), fieldsCollection('update', updateOptions)],
	async execute(i) {
		const { id, data } = await requestOnRecord.call(this, i, {
			...ENDPOINTS.paymentLink.update,
			id: LINK_ID,
			explain: explainUpdateRefusal,
			body: () => readLinkBody.call(this, this.getNodeParameter('updateFields', i, {}) as IDataObject, i, 'update'),
			requireBody: 'Update Fields: set at least one field to change',
		});
		// The platform answers `{ updated: boolean }`; the ID tells which link it was.
		return { id, ...data };
	},
};
