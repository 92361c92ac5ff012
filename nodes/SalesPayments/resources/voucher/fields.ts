import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PlatformError } from '../../shared/transport';
import { apiRequest } from '../../shared/transport';
import { recordOf } from '../../shared/records';
import { parseJsonObject, requireId } from '../../shared/validation';
import { extraFieldsOption } from '../../shared/records';

/**
 * Voucher request and response bodies and headers are not shown in the spec (4.10). Vouchers
 * belong to a business, so business-id is sent; redeem and cancel pass optional JSON through.
 */

export const voucherIdProperty: INodeProperties = {
	displayName: 'Voucher ID',
	name: 'voucherId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3f1c2a9e-7b7d-4c1e-9a55-0d2f6c1b8e21',
	description: 'ID of the voucher (Get by Code returns it)',
};

export const additionalFieldsProperty: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add field',
	default: {},
	options: [extraFieldsOption('request')],
};

function notFound(error: PlatformError): string | undefined {
	return error.statusCode === 404 ? 'No voucher with this ID exists in the credential\'s business.' : undefined;
}

/** Plain words for a refused redemption (spec part 3: a redeemed voucher cannot be used again). */
export function explainRedeem(error: PlatformError): string | undefined {
	if (/already|redeemed|\bused\b/i.test(error.message)) {
		return 'This voucher has already been redeemed; a voucher can be redeemed only once. Nothing was redeemed now.';
	}
	if (/expired/i.test(error.message)) return 'This voucher has expired and can no longer be redeemed.';
	if (error.statusCode === 409 || error.statusCode === 422) {
		return 'The platform refused to redeem this voucher in its current state; nothing was redeemed.';
	}
	return notFound(error);
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
	return notFound(error);
}

/**
 * Redeem and Cancel Redemption: PATCH the voucher's action path with the optional extra JSON.
 * Both change value, so neither is ever repeated once the platform may have processed it.
 */
export async function patchVoucher(
	this: IExecuteFunctions,
	i: number,
	action: 'redeem' | 'cancel-redeem',
	explain: (error: PlatformError) => string | undefined,
): Promise<IDataObject> {
	const id = requireId.call(this, 'voucherId', i, 'Voucher ID');
	const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const body = parseJsonObject.call(this, fields.extraFields, i, 'Extra Fields (JSON)');
	const data = await apiRequest.call(this, {
		method: 'PATCH',
		path: `/vouchers/${action}/${id}`,
		body: Object.keys(body).length ? body : undefined,
		business: true,
		idempotent: false,
		itemIndex: i,
		explain,
	});
	return recordOf(data, 'voucher');
}
