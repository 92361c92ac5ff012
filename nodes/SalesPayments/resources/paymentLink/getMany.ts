import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { listAll, listProperties } from '../../lists/lists';
import { ENDPOINTS } from '../../transport/endpoints';

/** What an agent reads of a payment link (Simplify). */
export const PAYMENT_LINK_FOR_MODEL: ModelRecord = ['id', 'name', 'status', 'valueInCents', 'url', 'salesCount', 'createdAt'];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many payment links',
	amounts: true,
	description: 'List the payment links of the business',
	recordKey: NO_RECORD,
	properties: [...listProperties],
	async execute(i) {
		return await listAll.call(this, i, ENDPOINTS.paymentLink.list, PAYMENT_LINK_FOR_MODEL);
	},
};
