import type { ResourceDef } from '../../fields/types';
import { create } from './create';
import { deletePixel } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { update } from './update';

export const pixel: ResourceDef = {
	value: 'pixel',
	name: 'Pixel',
	description: 'Google and Meta tracking pixels',
	operations: [create, deletePixel, get, getMany, update],
};
