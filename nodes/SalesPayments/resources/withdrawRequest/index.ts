import type { ResourceDef } from '../../shared/types';
import { getMany } from './getMany';

export const withdrawRequest: ResourceDef = {
	value: 'withdrawRequest',
	name: 'Withdraw Request',
	operations: [getMany],
};
