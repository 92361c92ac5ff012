import type { ResourceDef } from '../../shared/types';
import { getBalance } from './getBalance';
import { getMany } from './getMany';

export const business: ResourceDef = {
	value: 'business',
	name: 'Business',
	operations: [getBalance, getMany],
};
