import type { OperationDef } from '../../shared/types';
import { additionalFieldsProperty, explainCancelRedeem, patchVoucher, voucherIdProperty } from './fields';

export const cancelRedemption: OperationDef = {
	value: 'cancelRedemption',
	name: 'Cancel Redemption',
	action: 'Cancel a voucher redemption (within 15 minutes of it)',
	description:
		'Undo a redemption made by mistake, making the voucher usable again. The platform allows it only within 15 minutes after the redemption.',
	properties: [voucherIdProperty, additionalFieldsProperty],
	async execute(i) {
		return await patchVoucher.call(this, i, 'cancel-redeem', explainCancelRedeem);
	},
};
