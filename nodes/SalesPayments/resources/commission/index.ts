import type { ResourceDef } from '../../fields/types';
import { getMany } from './getMany';

export const commission: ResourceDef = {
	value: 'commission',
	name: 'Commission',
	description: "Commissions on the business's sales, with their status",
	operations: [getMany],
};
