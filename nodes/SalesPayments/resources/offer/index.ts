import type { ResourceDef } from '../../fields/types';
import { getMany } from './getMany';

export const offer: ResourceDef = {
	value: 'offer',
	name: 'Offer',
	description: 'Offers of a product',
	operations: [getMany],
};
