import type { OperationDef } from '../../fields/types';
import { NO_RECORD } from '../../fields/types';
import { apiRequest } from '../../transport/transport';
import { ENDPOINTS } from '../../transport/endpoints';

export const getBalance: OperationDef = {
	value: 'getBalance',
	name: 'Get Balance',
	action: 'Get the balance of the business',
	amounts: true,
	description: 'Read the account, receivable, blocked and total funds (in cents) of the credential\'s business',
	recordKey: NO_RECORD,
	properties: [],
	async execute(i) {
		return await apiRequest.call(this, { ...ENDPOINTS.business.balance, itemIndex: i });
	},
};
