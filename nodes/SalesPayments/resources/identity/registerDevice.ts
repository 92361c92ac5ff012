import type { OperationDef } from '../../fields/types';
import { requireString } from '../../fields/validation';
import { accessTokenField } from './descriptions';
import { accessTokenFor, identityRequest } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const registerDevice: OperationDef = {
	value: 'registerDevice',
	name: 'Register Device',
	action: 'Register this device',
	description:
		"Register the credential's device fingerprint under a name; the platform sends a code to approve it with Approve Device",
	properties: [
		accessTokenField,
		{
			displayName: 'Device Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. n8n production',
			description: 'Name under which the device is listed on the account',
		},
	],
	async execute(i) {
		const name = requireString.call(this, 'name', i, 'Device Name');
		const accessToken = await accessTokenFor.call(this, i);
		return await identityRequest.call(this, i, {
			...ENDPOINTS.identity.registerDevice,
			accessToken,
			fingerprint: true,
			body: { name },
		});
	},
};
