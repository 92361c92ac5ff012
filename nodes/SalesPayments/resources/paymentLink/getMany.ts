import type { OperationDef } from '../../fields/types';
import { NO_RECORD } from '../../fields/types';
import { listAll, listProperties } from '../../lists/lists';
import { ENDPOINTS } from '../../transport/endpoints';

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many payment links',
	amounts: true,
	description: 'List the payment links of the business',
	recordKey: NO_RECORD,
	properties: [...listProperties],
	async execute(i) {
		return await listAll.call(this, i, {
			...ENDPOINTS.paymentLink.list,
		});
	},
};
