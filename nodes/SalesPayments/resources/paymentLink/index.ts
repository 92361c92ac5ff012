import type { ResourceDef } from '../../fields/types';
import { create } from './create';
import { deletePaymentLink } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { publish } from './publish';
import { unpublish } from './unpublish';
import { update } from './update';
import { uploadImage } from './uploadImage';

export const paymentLink: ResourceDef = {
	value: 'paymentLink',
	name: 'Payment Link',
	description: 'Payment links of the business: checkout pages buyers pay through',
	operations: [create, deletePaymentLink, get, getMany, publish, unpublish, update, uploadImage],
};
