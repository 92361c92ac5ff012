import type { ResourceDef } from '../../fields/types';
import { getMany } from './getMany';

export const product: ResourceDef = {
	value: 'product',
	name: 'Product',
	description: 'Products the business sells: courses, events, subscriptions, e-books and more',
	operations: [getMany],
};
