import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { parseJsonObject } from '../../shared/validation';
import {
	checkEvents,
	dispatchersField,
	notifyOnFailFields,
	readDispatchers,
	readNotifyOnFail,
	readWebhookId,
	resultOrSuccess,
	webhookIdField,
} from './fields';
import { WEBHOOK_EVENT_OPTIONS } from './events';

export const update: OperationDef = {
	value: 'update',
	name: 'Update',
	action: 'Update a webhook',
	description: 'Change the events, name, failure contact or HTTP dispatchers of a webhook',
	properties: [
		webhookIdField,
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Events',
					name: 'events',
					type: 'multiOptions',
					options: WEBHOOK_EVENT_OPTIONS,
					default: [],
					description: 'The events the webhook notifies (replaces the current list)',
				},
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					description: 'New name of the webhook',
				},
				...notifyOnFailFields,
				{
					displayName: 'Other Fields (JSON)',
					name: 'otherFields',
					type: 'json',
					default: '{}',
					description:
						'Further body fields sent as they are, for fields the API documentation does not list. Fields set above take precedence.',
				},
			],
		},
		{
			...dispatchersField,
			description: 'Replace the HTTP dispatchers of the webhook. Leave empty to keep the current ones.',
		},
	],
	async execute(i) {
		const { id, segment } = readWebhookId.call(this, i);
		const fields = this.getNodeParameter('updateFields', i, {}) as IDataObject;
		const body: IDataObject = parseJsonObject.call(this, fields.otherFields, i, 'Other Fields (JSON)');
		if (fields.events !== undefined) {
			const events = checkEvents.call(this, fields.events, i, 'Events', false);
			if (events.length) body.events = events;
		}
		if (typeof fields.name === 'string' && fields.name.trim()) body.name = fields.name.trim();
		const notifyOnFail = readNotifyOnFail.call(this, fields, i);
		if (notifyOnFail) body.notifyOnFail = notifyOnFail;
		const dispatchers = readDispatchers.call(this, i, false);
		if (dispatchers) body.dispatchers = dispatchers;
		if (Object.keys(body).length === 0) {
			throw new NodeOperationError(this.getNode(), 'Update Fields: set at least one field or dispatcher to change', {
				itemIndex: i,
			});
		}
		const data = await apiRequest.call(this, {
			method: 'PATCH',
			path: `/webhooks/${segment}`,
			body,
			idempotent: true,
			itemIndex: i,
		});
		return resultOrSuccess(data, id);
	},
};
