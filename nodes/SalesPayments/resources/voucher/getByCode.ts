import { notFound } from '../../shared/errors';
import { recordOperation } from '../../shared/recordOperation';
import { recordOf } from '../../shared/records';
import { ENDPOINTS } from '../../shared/endpoints';

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
	...ENDPOINTS.voucher.byCode,
	explain: notFound('voucher', 'code'),
	output: (data) => recordOf(data, 'voucher'),
});
