import { recordOperation } from '../../shared/recordOperation';
import { recordOf } from '../../shared/records';
import { additionalFieldsProperty, voucherIdProperty } from './descriptions';
import { CHECK_VOUCHER, explainCancelRedeem, voucherBody } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const cancelRedemption = recordOperation({
	value: 'cancelRedemption',
	name: 'Cancel Redemption',
	action: 'Cancel a voucher redemption (within 15 minutes of it)',
	description:
		'Undo a redemption made by mistake, making the voucher usable again. The platform allows it only within 15 minutes after the redemption.',
	notice:
		'This makes a redeemed voucher usable again. The platform allows it only within 15 minutes after the redemption; after that the redemption cannot be undone and the voucher stays used.',
	id: { property: voucherIdProperty, label: 'Voucher ID' },
	properties: [additionalFieldsProperty],
	// Changes value: never repeated once the platform may have processed it.
	...ENDPOINTS.voucher.cancelRedeem,
	idempotent: false,
	explain: explainCancelRedeem,
	acceptedHint: CHECK_VOUCHER,
	body: voucherBody,
	output: (data) => recordOf(data, 'voucher'),
});
