import type { OperationDef } from '../../fields/types';
import { accessTokenField } from './descriptions';
import { accessTokenFor, identityRequest } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const requestEmailOtp: OperationDef = {
	value: 'requestEmailOtp',
	name: 'Request Email OTP',
	action: 'Request a one-time code by email',
	description: "Send a one-time code to the account's email address, to use with Validate Account",
	properties: [accessTokenField],
	async execute(i) {
		const accessToken = await accessTokenFor.call(this, i);
		return await identityRequest.call(this, i, { ...ENDPOINTS.identity.emailOtp, accessToken, fingerprint: true });
	},
};
