import type { ResourceDef } from '../../fields/types';
import { getBalance } from './getBalance';
import { getMany } from './getMany';

export const business: ResourceDef = {
	value: 'business',
	name: 'Business',
	description: "Balance of the credential's business, and the businesses of the key's owner",
	operations: [getBalance, getMany],
};
