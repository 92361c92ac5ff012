import { noticeField } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { additionalFieldsProperty, voucherIdProperty } from './descriptions';
import { changeRedemption, explainRedeem } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const redeem: OperationDef = {
	value: 'redeem',
	name: 'Redeem',
	action: 'Redeem a voucher (uses it up for real)',
	description:
		'Redeem the voucher for real: once redeemed it cannot be used again. Not a lookup; use Get by Code to only check a voucher. A mistaken redemption can be cancelled only within 15 minutes.',
	recordKey: 'voucherId',
	properties: [
		noticeField(
			'redeem',
			'Redeeming uses the voucher up for real: a redeemed voucher cannot be used again. A redemption made by mistake can be undone with Cancel Redemption only within 15 minutes; after that it is final. It is never retried automatically.',
		),
		voucherIdProperty,
		additionalFieldsProperty,
	],
	async execute(i) {
		return await changeRedemption.call(this, i, ENDPOINTS.voucher.redeem, explainRedeem);
	},
};
