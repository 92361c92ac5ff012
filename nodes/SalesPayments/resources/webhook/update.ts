import type { IDataObject } from 'n8n-workflow';

import { checkEvents, eventsProperty, notifyOnFailFields, readNotifyOnFail } from '../../fields/webhooks';
import { extraFieldsOption, fieldsCollection } from '../../transport/records';
import type { OperationDef } from '../../fields/types';
import { parseJsonObject } from '../../fields/validation';
import { dispatchersField, webhookIdField } from './descriptions';
import { readDispatchers, requestOnWebhook } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const update: OperationDef = {
	value: 'update',
	name: 'Update',
	action: 'Update a webhook',
	description: 'Change the events, name, failure contact or HTTP dispatchers of a webhook',
	recordKey: 'webhookId',
	properties: [
		webhookIdField,
		fieldsCollection('update', [
			eventsProperty('The events the webhook notifies (replaces the current list)', false),
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'New name of the webhook',
			},
			...notifyOnFailFields,
			extraFieldsOption('webhook'),
		]),
		{
			...dispatchersField,
			description: 'Replace the HTTP dispatchers of the webhook. Leave empty to keep the current ones.',
		},
	],
	async execute(i) {
		return await requestOnWebhook.call(this, i, {
			...ENDPOINTS.webhook.update,
			// Setting the same configuration twice has the same effect.
			idempotent: true,
			body: () => {
				const fields = this.getNodeParameter('updateFields', i, {}) as IDataObject;
				const body: IDataObject = parseJsonObject.call(this, fields.extraFields, i, 'Extra Fields (JSON)');
				if (fields.events !== undefined) {
					const events = checkEvents(this, fields.events, 'Events', false, i);
					if (events.length) body.events = events;
				}
				if (typeof fields.name === 'string' && fields.name.trim()) body.name = fields.name.trim();
				const notifyOnFail = readNotifyOnFail(this, fields, i);
				if (notifyOnFail) body.notifyOnFail = notifyOnFail;
				const dispatchers = readDispatchers.call(this, i, false);
				if (dispatchers) body.dispatchers = dispatchers;
				return body;
			},
			requireBody: 'Update Fields: set at least one field or dispatcher to change',
		});
	},
};
