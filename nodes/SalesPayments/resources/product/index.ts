import type { ResourceDef } from '../../shared/types';
import { getMany } from './getMany';

export const product: ResourceDef = {
	value: 'product',
	name: 'Product',
	operations: [getMany],
};
