import type { OperationDef } from '../../shared/types';
import { ENDPOINTS } from '../../shared/endpoints';
import { listAll, listProperties } from '../../shared/lists';

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many payment links',
	amounts: true,
	description: 'List the payment links of the business',
	properties: [...listProperties],
	async execute(i) {
		const { items } = await listAll.call(this, i, {
			...ENDPOINTS.paymentLink.list,
		});
		return items;
	},
};
