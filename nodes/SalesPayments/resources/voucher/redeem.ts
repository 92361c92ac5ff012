import type { OperationDef } from '../../shared/types';
import { additionalFieldsProperty, explainRedeem, patchVoucher, voucherIdProperty } from './fields';

export const redeem: OperationDef = {
	value: 'redeem',
	name: 'Redeem',
	action: 'Redeem a voucher (uses it up for real)',
	description:
		'Redeem the voucher for real: once redeemed it cannot be used again. Not a lookup; use Get by Code to only check a voucher. A mistaken redemption can be cancelled only within 15 minutes.',
	properties: [voucherIdProperty, additionalFieldsProperty],
	async execute(i) {
		return await patchVoucher.call(this, i, 'redeem', explainRedeem);
	},
};
