import type { INodeProperties } from 'n8n-workflow';

import { extraFieldsOption, fieldsCollection } from '../../transport/records';

/**
 * Voucher request and response bodies are not shown in the spec (4.10). Vouchers belong to a
 * business, so business-id is sent; redeem and cancel pass optional JSON through.
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

export const additionalFieldsProperty: INodeProperties = fieldsCollection('additional', [extraFieldsOption('request')]);
