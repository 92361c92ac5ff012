import { notFound } from '../../transport/errors';
import { requestOnRecord } from '../../fields/recordRequest';
import { recordOf } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { ENDPOINTS } from '../../transport/endpoints';

const explainCodeNotFound = notFound('voucher', 'code');

export const getByCode: OperationDef = {
	value: 'getByCode',
	name: 'Get by Code',
	action: 'Get a voucher by its code',
	amounts: true,
	description: 'Look up a voucher by its unique code, to validate or display it. Changes nothing.',
	recordKey: 'code',
	properties: [
		{
			displayName: 'Voucher Code',
			name: 'code',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. WELCOME-7F3K',
			description: 'The code the buyer has',
		},
	],
	async execute(i) {
		const { data } = await requestOnRecord.call(this, i, {
			...ENDPOINTS.voucher.byCode,
			id: { name: 'code', label: 'Voucher Code', rule: 'code' },
			explain: explainCodeNotFound,
		});
		return recordOf(data, 'voucher');
	},
};
