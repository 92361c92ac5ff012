import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { recordOf } from '../../shared/records';
import { requireString } from '../../shared/validation';

export const getByCode: OperationDef = {
	value: 'getByCode',
	name: 'Get by Code',
	action: 'Get a voucher by its code',
	description: 'Look up a voucher by its unique code, to validate or display it. Changes nothing.',
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
		const code = requireString.call(this, 'code', i, 'Voucher Code');
		const data = await apiRequest.call(this, {
			method: 'GET',
			path: `/vouchers/voucher-code/${encodeURIComponent(code)}`,
			business: true,
			itemIndex: i,
			explain: (e) => (e.statusCode === 404 ? 'No voucher with this code exists in the credential\'s business.' : undefined),
		});
		return recordOf(data, 'voucher');
	},
};
