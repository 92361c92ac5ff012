import type { OperationDef } from '../../fields/types';
import { signInWithCredential } from './helpers';

export const signIn: OperationDef = {
	value: 'signIn',
	name: 'Sign In',
	action: 'Sign in with the credential',
	description:
		'Sign in with the username, password and device fingerprint of the credential and return the token pair. When the account uses two-factor authentication, the token returned is good only for the next step, Identity › Verify 2FA (the observation field of the answer says so).',
	properties: [],
	async execute(i) {
		return await signInWithCredential.call(this, i);
	},
};
