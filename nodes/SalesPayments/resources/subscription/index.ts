import type { ResourceDef } from '../../fields/types';
import { get } from './get';
import { getMany } from './getMany';

export const subscription: ResourceDef = {
	value: 'subscription',
	name: 'Subscription',
	description: 'Subscriptions of buyers, with their status, payments and recurrences',
	operations: [get, getMany],
};
