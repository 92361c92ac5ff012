import { noticeField } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { additionalFieldsProperty, voucherIdProperty } from './descriptions';
import { changeRedemption, explainCancelRedeem } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const cancelRedemption: OperationDef = {
	value: 'cancelRedemption',
	name: 'Cancel Redemption',
	action: 'Cancel a voucher redemption for real (the voucher becomes usable again; only within 15 minutes of it)',
	description:
		'Undo a redemption made by mistake, for real: the voucher becomes usable again. The platform allows it only within 15 minutes after the redemption.',
	recordKey: 'voucherId',
	properties: [
		noticeField(
			'cancelRedemption',
			'This makes a redeemed voucher usable again. The platform allows it only within 15 minutes after the redemption; after that the redemption cannot be undone and the voucher stays used.',
		),
		voucherIdProperty,
		additionalFieldsProperty,
	],
	async execute(i) {
		return await changeRedemption.call(this, i, ENDPOINTS.voucher.cancelRedeem, explainCancelRedeem);
	},
};
