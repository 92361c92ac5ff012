import type { OperationDef } from '../../fields/types';
import { accessTokenField, codeField } from './descriptions';
import { accessTokenFor, identityRequest, requireCode } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const approveDevice: OperationDef = {
	value: 'approveDevice',
	name: 'Approve Device',
	action: 'Approve this device',
	description: "Approve the credential's registered device with the code sent when it was registered",
	properties: [accessTokenField, codeField('The approval code sent to the account when the device was registered')],
	async execute(i) {
		const code = requireCode.call(this, i);
		const accessToken = await accessTokenFor.call(this, i);
		return await identityRequest.call(this, i, {
			...ENDPOINTS.identity.approveDevice,
			accessToken,
			fingerprint: true,
			body: { code },
		});
	},
};
