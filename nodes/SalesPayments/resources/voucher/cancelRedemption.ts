import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { recordOf } from '../../shared/records';
import { parseJsonObject, requireId } from '../../shared/validation';
import { additionalFieldsProperty, explainCancelRedeem, voucherIdProperty } from './fields';

export const cancelRedemption: OperationDef = {
	value: 'cancelRedemption',
	name: 'Cancel Redemption',
	action: 'Cancel a voucher redemption (within 15 minutes of it)',
	description:
		'Undo a redemption made by mistake, making the voucher usable again. The platform allows it only within 15 minutes after the redemption.',
	properties: [voucherIdProperty, additionalFieldsProperty],
	async execute(i) {
		const id = requireId.call(this, 'voucherId', i, 'Voucher ID');
		const fields = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
		const body = parseJsonObject.call(this, fields.extraFields, i, 'Extra Fields (JSON)');
		const data = await apiRequest.call(this, {
			method: 'PATCH',
			path: `/vouchers/cancel-redeem/${id}`,
			body: Object.keys(body).length ? body : undefined,
			business: true,
			idempotent: false,
			itemIndex: i,
			explain: explainCancelRedeem,
		});
		return recordOf(data, 'voucher');
	},
};
