import type { ResourceDef } from '../../fields/types';
import { createCharge } from './createCharge';
import { get } from './get';

export const order: ResourceDef = {
	value: 'order',
	name: 'Order',
	description: 'Orders, and charges that create them',
	operations: [createCharge, get],
};
