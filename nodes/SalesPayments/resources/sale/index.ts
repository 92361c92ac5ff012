import type { ResourceDef } from '../../fields/types';
import { getMany } from './getMany';

export const sale: ResourceDef = {
	value: 'sale',
	name: 'Sale',
	description: 'Sales of the business',
	operations: [getMany],
};
