import type { OperationDef } from '../../fields/types';
import { accessTokenField } from './descriptions';
import { identityRequest, requireToken } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const refreshToken: OperationDef = {
	value: 'refreshToken',
	name: 'Refresh Token',
	action: 'Refresh the token pair (the old pair stops working; cannot be undone)',
	description:
		'Exchange an access token (it may have expired) and its refresh token for a new pair, returned in newTokens. The old pair stops working: cannot be undone.',
	properties: [
		{
			...accessTokenField,
			required: true,
			description: 'The access token to renew, usually the expression {{ $json.token }}; an expired one is accepted',
		},
		{
			displayName: 'Refresh Token',
			name: 'refreshToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The refresh token issued together with the access token, usually an expression that reads refreshToken from the Sign In or Verify 2FA output',
		},
	],
	async execute(i) {
		const accessToken = requireToken.call(this, 'accessToken', i, 'Access Token');
		const refresh = requireToken.call(this, 'refreshToken', i, 'Refresh Token');
		return await identityRequest.call(this, i, {
			...ENDPOINTS.identity.refresh,
			accessToken,
			refreshToken: refresh,
			fingerprint: true,
		});
	},
};
