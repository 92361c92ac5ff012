import type { ResourceDef } from '../../fields/types';
import { create } from './create';
import { deleteCustomer } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { update } from './update';

export const customer: ResourceDef = {
	value: 'customer',
	name: 'Customer',
	description: 'Customers of the business',
	operations: [create, deleteCustomer, get, getMany, update],
};
