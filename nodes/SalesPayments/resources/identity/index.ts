import type { ResourceDef } from '../../fields/types';
import { approveDevice } from './approveDevice';
import { refreshToken } from './refreshToken';
import { registerDevice } from './registerDevice';
import { requestEmailOtp } from './requestEmailOtp';
import { requestSmsOtp } from './requestSmsOtp';
import { signIn } from './signIn';
import { validateAccount } from './validateAccount';
import { verify2fa } from './verify2fa';

export const identity: ResourceDef = {
	value: 'identity',
	name: 'Identity',
	description: 'Sign-in, tokens, devices and one-time codes of the identity API (uses the Identity credential)',
	operations: [
		approveDevice,
		refreshToken,
		registerDevice,
		requestEmailOtp,
		requestSmsOtp,
		signIn,
		validateAccount,
		verify2fa,
	],
};
