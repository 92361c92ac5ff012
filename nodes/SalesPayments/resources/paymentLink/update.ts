import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { requireId } from '../../shared/validation';
import { explainLinkRefusal, paymentLinkLocator, readLinkBody, updateOptions } from './fields';

export const update: OperationDef = {
	value: 'update',
	name: 'Update',
	action: 'Update a payment link',
	description: 'Change the fields of a payment link. The platform refuses once the link has a sale.',
	properties: [
		paymentLinkLocator('The payment link to update'),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add field',
			default: {},
			options: updateOptions,
		},
	],
	async execute(i) {
		const id = requireId.call(this, 'paymentLinkId', i, 'Payment Link');
		const fields = this.getNodeParameter('updateFields', i, {}) as IDataObject;
		const body = readLinkBody.call(this, fields, i, 'update');
		if (!Object.keys(body).length) {
			throw new NodeOperationError(this.getNode(), 'Update Fields: set at least one field to change', { itemIndex: i });
		}
		const data = await apiRequest.call(this, {
			method: 'PATCH',
			path: `/payment-links/${id}`,
			body,
			business: true,
			itemIndex: i,
			explain: explainLinkRefusal('changing its fields'),
		});
		// The platform answers `{ updated: boolean }`; the ID tells which link it was.
		return { id, ...data };
	},
};
