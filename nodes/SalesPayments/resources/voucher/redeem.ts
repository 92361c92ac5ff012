import { recordOperation } from '../../shared/recordOperation';
import { recordOf } from '../../shared/records';
import { additionalFieldsProperty, voucherIdProperty } from './descriptions';
import { CHECK_VOUCHER, explainRedeem, voucherBody } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const redeem = recordOperation({
	value: 'redeem',
	name: 'Redeem',
	action: 'Redeem a voucher (uses it up for real)',
	description:
		'Redeem the voucher for real: once redeemed it cannot be used again. Not a lookup; use Get by Code to only check a voucher. A mistaken redemption can be cancelled only within 15 minutes.',
	notice:
		'Redeeming uses the voucher up for real: a redeemed voucher cannot be used again. A redemption made by mistake can be undone with Cancel Redemption only within 15 minutes; after that it is final. It is never retried automatically.',
	id: { property: voucherIdProperty, label: 'Voucher ID' },
	properties: [additionalFieldsProperty],
	// Changes value: never repeated once the platform may have processed it.
	...ENDPOINTS.voucher.redeem,
	idempotent: false,
	explain: explainRedeem,
	acceptedHint: CHECK_VOUCHER,
	body: voucherBody,
	output: (data) => recordOf(data, 'voucher'),
});
