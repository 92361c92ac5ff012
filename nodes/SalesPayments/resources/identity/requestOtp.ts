import type { OperationDef } from '../../shared/types';
import { accessTokenField } from './descriptions';
import { accessTokenFor, identityRequest } from './helpers';
import type { Endpoint } from '../../shared/endpoints';
import { ENDPOINTS } from '../../shared/endpoints';

/** Request Email OTP and Request SMS OTP differ only in the endpoint. */
function requestOtp(endpoint: Endpoint, def: Pick<OperationDef, 'value' | 'name' | 'action' | 'description'>): OperationDef {
	return {
		...def,
		properties: [accessTokenField],
		async execute(i) {
			const accessToken = await accessTokenFor.call(this, i);
			return await identityRequest.call(this, i, {
				...endpoint,
				accessToken,
				fingerprint: true,
			});
		},
	};
}

export const requestEmailOtp = requestOtp(ENDPOINTS.identity.emailOtp, {
	value: 'requestEmailOtp',
	name: 'Request Email OTP',
	action: 'Request a one-time code by email',
	description: "Send a one-time code to the account's email address, to use with Validate Account",
});

export const requestSmsOtp = requestOtp(ENDPOINTS.identity.smsOtp, {
	value: 'requestSmsOtp',
	name: 'Request SMS OTP',
	action: 'Request a one-time code by SMS',
	description: "Send a one-time code to the account's phone number, to use with Validate Account",
});
