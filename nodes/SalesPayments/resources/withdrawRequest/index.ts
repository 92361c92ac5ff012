import type { ResourceDef } from '../../fields/types';
import { getMany } from './getMany';

export const withdrawRequest: ResourceDef = {
	value: 'withdrawRequest',
	name: 'Withdraw Request',
	description: "Withdrawals of the business's funds to its bank account",
	operations: [getMany],
};
