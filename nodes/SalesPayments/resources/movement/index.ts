import type { ResourceDef } from '../../fields/types';
import { getMany } from './getMany';

export const movement: ResourceDef = {
	value: 'movement',
	name: 'Movement',
	description: 'Financial movements: credits and debits of the business',
	operations: [getMany],
};
