import type { ResourceDef } from '../../shared/types';
import { getMany } from './getMany';

export const commission: ResourceDef = {
	value: 'commission',
	name: 'Commission',
	operations: [getMany],
};
