import type { INodeType, INodeTypeDescription, IHookFunctions, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { PACKAGE_DESCRIPTION } from './fields/describe';
import { eventsProperty, notifyOnFailFields } from './fields/webhooks';
import { DUPLICATE_WINDOW, PROCESS_WINDOW, receive } from './trigger/delivery';
import { checkExists, create, remove } from './trigger/registration';

export class SalesPaymentsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sales & Payments Trigger',
		name: 'salesPaymentsTrigger',
		icon: { light: 'file:salesPaymentsTrigger.svg', dark: 'file:salesPaymentsTrigger.dark.svg' },
		group: ['trigger'],
		// Version 2: Ignore Duplicate Deliveries is on unless switched off (version 1: off unless added).
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["events"].join(", ")}}',
		// n8n's node picker merges this trigger into the action node's entry and shows this
		// description there: the same sentence as the action node's (the events are listed as actions).
		description: PACKAGE_DESCRIPTION,
		defaults: { name: 'Sales & Payments Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'salesPaymentsApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			eventsProperty('The events that start the workflow'),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Ignore Duplicate Deliveries',
						name: 'ignoreDuplicates',
						type: 'boolean',
						default: true,
						description: `Whether to drop a delivery that repeats a notification already accepted: one whose body is the same JSON value (key order, whitespace and escapes aside), or, when Notification ID Field is set, the same event and ID. A body that differs anywhere runs. Checked by this n8n process among the last ${PROCESS_WINDOW.toLocaleString('en-US')} of the last 24 hours (all trigger nodes together), even while the first is still running; after a restart or at another webhook process among the last ${DUPLICATE_WINDOW} saved. In node version 2 it is on unless switched off; in version 1, only once this option is added.`,
					},
					{
						displayName: 'Notification ID Field',
						name: 'notificationIdField',
						type: 'string',
						default: '',
						placeholder: 'e.g. data.eventId',
						description:
							'For Ignore Duplicate Deliveries: the field of the delivered body that names the notification, as a dot path such as data.eventId (a top-level field is its name alone). When set, two deliveries of one event with the same value there are one notification whatever else differs (a retry with a new sending time is dropped, but two notifications that share that value run once). A delivery where it is missing, empty, or not a text or whole number is judged by its whole body, and n8n\'s log says so once. Empty: the whole body decides.',
					},
					...notifyOnFailFields,
					{
						displayName: 'Resume Failed Deliveries on Activation',
						name: 'resumeOnActivation',
						type: 'boolean',
						default: false,
						description:
							'Whether to ask the platform to redeliver the notifications that failed (for example while n8n was down) when the workflow is activated again or n8n restarts',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await remove(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receive(this);
	}
}
