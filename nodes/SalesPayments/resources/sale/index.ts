import type { ResourceDef } from '../../shared/types';
import { getMany } from './getMany';

export const sale: ResourceDef = {
	value: 'sale',
	name: 'Sale',
	operations: [getMany],
};
