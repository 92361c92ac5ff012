import type { OperationDef } from '../../shared/types';
import { accessTokenField } from './descriptions';
import { accessTokenFor, identityRequest } from './helpers';

/** Request Email OTP and Request SMS OTP differ only in the path. */
function requestOtp(path: '/identity/otps/email' | '/identity/otps/sms', def: Pick<OperationDef, 'value' | 'name' | 'action' | 'description'>): OperationDef {
	return {
		...def,
		properties: [accessTokenField],
		async execute(i) {
			const accessToken = await accessTokenFor.call(this, i);
			return await identityRequest.call(this, i, {
				method: 'POST',
				path,
				accessToken,
				fingerprint: true,
			});
		},
	};
}

export const requestEmailOtp = requestOtp('/identity/otps/email', {
	value: 'requestEmailOtp',
	name: 'Request Email OTP',
	action: 'Request a one-time code by email',
	description: "Send a one-time code to the account's email address, to use with Validate Account",
});

export const requestSmsOtp = requestOtp('/identity/otps/sms', {
	value: 'requestSmsOtp',
	name: 'Request SMS OTP',
	action: 'Request a one-time code by SMS',
	description: "Send a one-time code to the account's phone number, to use with Validate Account",
});
