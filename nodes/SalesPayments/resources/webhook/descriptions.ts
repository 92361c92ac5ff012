import type { INodeProperties } from 'n8n-workflow';

import { webhookLocator } from '../../fields/locators';
import { eventsProperty } from '../../fields/webhooks';

/** The webhook a single-webhook operation acts on: From list or By ID. */
export const webhookIdField: INodeProperties = webhookLocator('The webhook to act on');

export const eventsField: INodeProperties = eventsProperty('The events the webhook notifies');

/** HTTP dispatchers: where and how the platform delivers notifications. */
export const dispatchersField: INodeProperties = {
	displayName: 'Dispatchers',
	name: 'dispatchers',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Dispatcher',
	default: {},
	description: 'HTTP endpoints the platform sends each notification to',
	options: [
		{
			displayName: 'HTTP Dispatcher',
			name: 'http',
			values: [
				{
					displayName: 'URL',
					name: 'url',
					type: 'string',
					default: '',
					required: true,
					placeholder: 'e.g. https://example.com/hooks/sales',
					description: 'Address the platform sends the notifications to',
				},
				{
					displayName: 'Method',
					name: 'method',
					type: 'options',
					options: [
						{ name: 'PATCH', value: 'PATCH' },
						{ name: 'POST', value: 'POST' },
						{ name: 'PUT', value: 'PUT' },
					],
					default: 'POST',
					description: 'HTTP method of the notification requests',
				},
				{
					displayName: 'Headers',
					name: 'headers',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					placeholder: 'Add Header',
					default: {},
					description: 'Headers sent with every notification, for example a shared secret your endpoint checks',
					options: [
						{
							displayName: 'Header',
							name: 'header',
							values: [
								{ displayName: 'Name', name: 'name', type: 'string', default: '' },
								{ displayName: 'Value', name: 'value', type: 'string', default: '' },
							],
						},
					],
				},
			],
		},
	],
};

export const businessIdOverrideField: INodeProperties = {
	displayName: 'Business ID',
	name: 'businessId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 3f1c2a9e-7b7d-4c1e-9a55-0d2f6c1b8e21',
	description: "Business the webhook belongs to. Leave empty to use the credential's Business ID.",
};
