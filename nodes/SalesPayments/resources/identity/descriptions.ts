import type { INodeProperties } from 'n8n-workflow';

/** The Access Token and Code fields the Identity operations share. */

export const ACCESS_TOKEN_HINT = 'usually the expression {{ $json.token }} after a Sign In or Verify 2FA step';

/** Access Token of the operations that work after sign-in; empty means "sign in first". */
export const accessTokenField: INodeProperties = {
	displayName: 'Access Token',
	name: 'accessToken',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	description: `Bearer token of an earlier sign-in, ${ACCESS_TOKEN_HINT}. Leave empty to sign in with the credential first.`,
};

export function codeField(description: string): INodeProperties {
	return {
		displayName: 'Code',
		name: 'code',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 123456',
		description,
	};
}
