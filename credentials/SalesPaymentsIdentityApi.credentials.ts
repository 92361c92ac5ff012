import type { Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

export class SalesPaymentsIdentityApi implements ICredentialType {
	name = 'salesPaymentsIdentityApi';

	displayName = 'Sales & Payments Identity API';

	icon: Icon = {
		light: 'file:../nodes/SalesPayments/salesPayments.svg',
		dark: 'file:../nodes/SalesPayments/salesPayments.dark.svg',
	};

	documentationUrl = 'https://github.com/sales-payments/n8n-nodes-sales-payments#identity-credential';

	properties: INodeProperties[] = [
		{
			displayName: 'Identity URL',
			name: 'identityUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://auth.your-platform.example',
			description: 'Address of the identity API (sign-in, devices, one-time codes), without a trailing slash',
		},
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
			description: 'The login (usually the e-mail address) of the platform account',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Device Fingerprint',
			name: 'fingerprint',
			type: 'string',
			default: '',
			required: true,
			description: 'Identifier of this device, sent as the x-fingerprint-id header on every identity call',
		},
	];

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.identityUrl.replace(/\\/+$/, "")}}',
			url: '/identity/sign-in',
			method: 'POST',
			headers: { 'x-fingerprint-id': '={{$credentials.fingerprint}}' },
			body: { username: '={{$credentials.username}}', password: '={{$credentials.password}}' },
		},
	};
}
