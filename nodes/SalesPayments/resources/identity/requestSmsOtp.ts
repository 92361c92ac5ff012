import type { OperationDef } from '../../fields/types';
import { accessTokenField } from './descriptions';
import { accessTokenFor, identityRequest } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const requestSmsOtp: OperationDef = {
	value: 'requestSmsOtp',
	name: 'Request SMS OTP',
	action: 'Request a one-time code by SMS',
	description: "Send a one-time code to the account's phone number, to use with Validate Account",
	properties: [accessTokenField],
	async execute(i) {
		const accessToken = await accessTokenFor.call(this, i);
		return await identityRequest.call(this, i, { ...ENDPOINTS.identity.smsOtp, accessToken, fingerprint: true });
	},
};
