import type { Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';
import { ENDPOINTS } from '../nodes/SalesPayments/transport/endpoints';

/**
 * The identity API (sign-in, two-factor codes, tokens, devices, one-time codes). It has no
 * `authenticate` block: sign-in sends username and password in its body, and every later call
 * carries the bearer token of that sign-in, which the Identity operations pass from step to step.
 */
export class SalesPaymentsIdentityApi implements ICredentialType {
	name = 'salesPaymentsIdentityApi';

	displayName = 'Sales & Payments Identity API';

	icon: Icon = {
		light: 'file:../nodes/SalesPayments/salesPayments.svg',
		dark: 'file:../nodes/SalesPayments/salesPayments.dark.svg',
	};

	documentationUrl = 'https://github.com/sales-payments/n8n-nodes-sales-payments#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Identity URL',
			name: 'identityUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://auth.your-platform.example',
			description:
				'Address of the identity API (sign-in, devices, one-time codes), without a trailing slash. It differs from the Base URL of the data API.',
		},
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. name@email.com',
			description: 'The login of the platform account, usually its email address',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The password of the platform account',
		},
		{
			displayName: 'Device Fingerprint',
			name: 'fingerprint',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. n8n-production-01',
			description:
				'A stable identifier of this n8n instance, sent as the x-fingerprint-id header. Tokens are tied to it, and devices are registered and approved under it.',
		},
	];

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.identityUrl.replace(/\\/+$/, "")}}',
			url: ENDPOINTS.identity.signIn.path,
			method: ENDPOINTS.identity.signIn.method,
			headers: {
				'Content-Type': 'application/json',
				'x-fingerprint-id': '={{$credentials.fingerprint}}',
			},
			body: { username: '={{$credentials.username}}', password: '={{$credentials.password}}' },
			// The keys never follow a redirect to another address: a moved API fails the test instead.
			disableFollowRedirect: true,
		},
	};
}
