import type { ResourceDef } from '../../fields/types';
import { cancelRedemption } from './cancelRedemption';
import { getByCode } from './getByCode';
import { redeem } from './redeem';

export const voucher: ResourceDef = {
	value: 'voucher',
	name: 'Voucher',
	description: 'Look up, redeem and cancel the redemption of vouchers',
	operations: [cancelRedemption, getByCode, redeem],
};
