import { notFound } from '../../shared/errors';
import { recordOperation } from '../../shared/recordOperation';
import { recordOf } from '../../shared/records';

export const getByCode = recordOperation({
	value: 'getByCode',
	name: 'Get by Code',
	action: 'Get a voucher by its code',
	amounts: true,
	description: 'Look up a voucher by its unique code, to validate or display it. Changes nothing.',
	id: {
		property: {
			displayName: 'Voucher Code',
			name: 'code',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. WELCOME-7F3K',
			description: 'The code the buyer has',
		},
		label: 'Voucher Code',
		rule: 'code',
	},
	method: 'GET',
	path: '/vouchers/voucher-code/{id}',
	business: true,
	explain: notFound('voucher', 'code'),
	output: (data) => recordOf(data, 'voucher'),
});
