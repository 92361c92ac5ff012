import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { recordOf } from '../../shared/records';
import { parseJsonObject, requireId } from '../../shared/validation';
import { additionalFieldsProperty, explainRedeem, voucherIdProperty } from './fields';

export const redeem: OperationDef = {
	value: 'redeem',
	name: 'Redeem',
	action: 'Redeem a voucher (uses it up for real)',
	description:
		'Redeem the voucher for real: once redeemed it cannot be used again. Not a lookup; use Get by Code to only check a voucher. A mistaken redemption can be cancelled only within 15 minutes.',
	properties: [voucherIdProperty, additionalFieldsProperty],
	async execute(i) {
		const id = requireId.call(this, 'voucherId', i, 'Voucher ID');
		const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
		const body = parseJsonObject.call(this, fields.extraFields, i, 'Extra Fields (JSON)');
		// Redeeming uses up value: never repeated once the platform may have processed it.
		const data = await apiRequest.call(this, {
			method: 'PATCH',
			path: `/vouchers/redeem/${id}`,
			body: Object.keys(body).length ? body : undefined,
			business: true,
			idempotent: false,
			itemIndex: i,
			explain: explainRedeem,
		});
		return recordOf(data, 'voucher');
	},
};
