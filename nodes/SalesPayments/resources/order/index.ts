import type { ResourceDef } from '../../shared/types';
import { createCharge } from './createCharge';
import { get } from './get';

export const order: ResourceDef = {
	value: 'order',
	name: 'Order',
	description: 'Orders, and charges that create them',
	operations: [createCharge, get],
};
