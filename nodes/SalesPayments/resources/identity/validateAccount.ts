import type { OperationDef } from '../../fields/types';
import { accessTokenField, codeField } from './descriptions';
import { accessTokenFor, identityRequest, requireCode } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const validateAccount: OperationDef = {
	value: 'validateAccount',
	name: 'Validate Account',
	action: 'Validate the account',
	description:
		'Validate the account with a one-time code requested by email or SMS; returns the account status and the channels still pending validation',
	properties: [accessTokenField, codeField('The one-time code received by email or SMS')],
	async execute(i) {
		const code = requireCode.call(this, i);
		const accessToken = await accessTokenFor.call(this, i);
		return await identityRequest.call(this, i, {
			...ENDPOINTS.identity.validateAccount,
			accessToken,
			fingerprint: true,
			body: { code },
		});
	},
};
