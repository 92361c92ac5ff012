import type { IDataObject } from 'n8n-workflow';
import { fieldsCollection } from '../../transport/records';

import { businessIdOf } from '../../transport/credentials';
import type { OperationDef } from '../../fields/types';
import { NO_RECORD } from '../../fields/types';
import { apiRequest } from '../../transport/transport';
import { requireString } from '../../fields/validation';
import { checkEvents, notifyOnFailFields, readNotifyOnFail } from '../../fields/webhooks';
import { businessIdOverrideField, dispatchersField, eventsField } from './descriptions';
import { readDispatchers } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const create: OperationDef = {
	value: 'create',
	name: 'Create',
	action: 'Create a webhook',
	description: 'Register a webhook that notifies HTTP endpoints of order and subscription events',
	recordKey: NO_RECORD,
	properties: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. Paid orders to ERP',
			description: 'Name of the webhook',
		},
		eventsField,
		{ ...dispatchersField, required: true },
		fieldsCollection('additional', [businessIdOverrideField, ...notifyOnFailFields]),
	],
	async execute(i) {
		const name = requireString.call(this, 'name', i, 'Name');
		const events = checkEvents(this, this.getNodeParameter('events', i, []), 'Events', true, i);
		const dispatchers = readDispatchers.call(this, i, true);
		const additional = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
		const notifyOnFail = readNotifyOnFail(this, additional, i);
		const externalAccountId = await businessIdOf(this, additional.businessId, i);
		const body: IDataObject = { externalAccountId, dispatchers, events, name };
		if (notifyOnFail) body.notifyOnFail = notifyOnFail;
		return await apiRequest.call(this, {
			...ENDPOINTS.webhook.create,
			body,
			itemIndex: i,
			acceptedHint: 'look for the webhook with Webhook > Get Many before creating it again.',
		});
	},
};
