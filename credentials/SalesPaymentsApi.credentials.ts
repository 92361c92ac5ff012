import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { ENDPOINTS } from '../nodes/SalesPayments/transport/endpoints';

export class SalesPaymentsApi implements ICredentialType {
	name = 'salesPaymentsApi';

	displayName = 'Sales & Payments API';

	icon: Icon = {
		light: 'file:../nodes/SalesPayments/salesPayments.svg',
		dark: 'file:../nodes/SalesPayments/salesPayments.dark.svg',
	};

	documentationUrl = 'https://github.com/sales-payments/n8n-nodes-sales-payments#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.your-platform.example',
			description:
				'Address of the data API, without a trailing slash. Your platform account shows it next to the API key on the integrations tab.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API key created on the integrations tab of the platform',
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API secret created together with the API key',
		},
		{
			displayName: 'Business ID',
			name: 'businessId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 3f1c2a9e-7b7d-4c1e-9a55-0d2f6c1b8e21',
			description:
				'Identifier of the business the calls act on (sent as the business-id header where the API asks for it)',
		},
	];

	/**
	 * Key and secret go on every data API request; business-id is added per operation by the
	 * transport, because KEYS-only endpoints must not receive it. A function rather than a generic
	 * block: n8n evaluates a generic block's `={{$credentials...}}` expressions on every request
	 * (about half a millisecond each time, the largest part of a list page's fixed cost).
	 */
	authenticate = async (credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> => {
		requestOptions.headers = {
			...requestOptions.headers,
			'x-api-key': String(credentials.apiKey ?? ''),
			'x-api-secret': String(credentials.apiSecret ?? ''),
		};
		return requestOptions;
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: ENDPOINTS.business.balance.path,
			method: ENDPOINTS.business.balance.method,
			headers: { 'business-id': '={{$credentials.businessId}}' },
			// The keys never follow a redirect to another address: a moved API fails the test instead.
			disableFollowRedirect: true,
		},
	};
}
