import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Endpoint } from '../../transport/endpoints';
import type { Explain, PlatformError } from '../../transport/errors';
import { notFound } from '../../transport/errors';
import { requestOnRecord } from '../../fields/recordRequest';
import { recordOf } from '../../transport/records';
import { parseJsonObject } from '../../fields/validation';

const voucherNotFound = notFound('voucher');

/** Plain words for a refused redemption (spec part 3: a redeemed voucher cannot be used again). */
export function explainRedeem(error: PlatformError): string | undefined {
	if (/already|redeemed|\bused\b/i.test(error.message)) {
		return 'This voucher has already been redeemed; a voucher can be redeemed only once. Nothing was redeemed now.';
	}
	if (/expired/i.test(error.message)) return 'This voucher has expired and can no longer be redeemed.';
	if (error.statusCode === 409 || error.statusCode === 422) {
		return 'The platform refused to redeem this voucher in its current state; nothing was redeemed.';
	}
	return voucherNotFound(error);
}

/** Plain words for a refused cancellation (spec part 3: only within 15 minutes of the redemption). */
export function explainCancelRedeem(error: PlatformError): string | undefined {
	if (/not (been )?redeemed|no redemption/i.test(error.message)) {
		return 'This voucher is not redeemed, so there is no redemption to cancel.';
	}
	if (/15|minute|window|expired|too late|time/i.test(error.message)) {
		return 'The redemption can no longer be cancelled: the platform allows cancelling only within 15 minutes after the redemption. The voucher stays redeemed.';
	}
	if (error.statusCode === 409 || error.statusCode === 422) {
		return 'The platform refused to cancel this redemption (cancelling is allowed only within 15 minutes after it); the voucher stays redeemed.';
	}
	return voucherNotFound(error);
}

/**
 * Redeem or Cancel Redemption of the voucher of item `i`, with the optional extra JSON (their bodies
 * are not shown in the spec): it changes value, so it is never repeated once the platform may have
 * processed it.
 */
export async function changeRedemption(this: IExecuteFunctions, i: number, endpoint: Endpoint, explain: Explain): Promise<IDataObject> {
	const { data } = await requestOnRecord.call(this, i, {
		...endpoint,
		id: { name: 'voucherId', label: 'Voucher ID' },
		idempotent: false,
		explain,
		acceptedHint: 'look the voucher up with Voucher > Get by Code to see whether it is redeemed now.',
		body: () => {
			const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
			return parseJsonObject.call(this, fields.extraFields, i, 'Extra Fields (JSON)');
		},
	});
	return recordOf(data, 'voucher');
}
