import type { IDataObject } from 'n8n-workflow';
import { fieldsCollection } from '../../shared/records';

import { paymentLinkLocator } from '../../shared/locators';
import { recordOperation } from '../../shared/recordOperation';
import { updateOptions } from './descriptions';
import { explainLinkRefusal, readLinkBody } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const update = recordOperation({
	value: 'update',
	name: 'Update',
	action: 'Update a payment link',
	description: 'Change the fields of a payment link. The platform refuses once the link has a sale.',
	id: { property: paymentLinkLocator('The payment link to update'), label: 'Payment Link' },
	properties: [
		fieldsCollection('update', updateOptions),
	],
	...ENDPOINTS.paymentLink.update,
	explain: explainLinkRefusal('changing its fields'),
	body(i) {
		return readLinkBody.call(this, this.getNodeParameter('updateFields', i, {}) as IDataObject, i, 'update');
	},
	requireBody: 'Update Fields: set at least one field to change',
	// The platform answers `{ updated: boolean }`; the ID tells which link it was.
	output: (data, id) => ({ id, ...data }),
});
