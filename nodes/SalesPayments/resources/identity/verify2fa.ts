import type { OperationDef } from '../../fields/types';
import { accessTokenField, codeField } from './descriptions';
import { accessTokenFor, identityRequest, requireCode } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const verify2fa: OperationDef = {
	value: 'verify2fa',
	name: 'Verify 2FA',
	action: 'Verify a two-factor code',
	description: 'Complete a two-factor sign-in with its code and return the full token pair',
	properties: [
		{
			...accessTokenField,
			description:
				'Token returned by the Sign In step, usually the expression {{ $json.token }}. Leave empty to sign in with the credential first.',
		},
		codeField('The two-factor code sent to the account after sign-in'),
	],
	async execute(i) {
		const code = requireCode.call(this, i);
		const accessToken = await accessTokenFor.call(this, i, true);
		// The spec lists Authorization only for this endpoint: no x-fingerprint-id.
		return await identityRequest.call(this, i, {
			...ENDPOINTS.identity.verify2fa,
			accessToken,
			fingerprint: false,
			body: { code },
		});
	},
};
