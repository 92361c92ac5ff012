import type { ResourceDef } from '../../fields/types';
import { getMany } from './getMany';

export const refund: ResourceDef = {
	value: 'refund',
	name: 'Refund',
	description: 'Refund requests (order revert requests)',
	operations: [getMany],
};
