import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { requireString } from '../../shared/validation';
import {
	businessIdOverrideField,
	checkEvents,
	dispatchersField,
	eventsField,
	notifyOnFailFields,
	readDispatchers,
	readNotifyOnFail,
	resolveBusinessId,
} from './fields';

export const create: OperationDef = {
	value: 'create',
	name: 'Create',
	action: 'Create a webhook',
	description: 'Register a webhook that notifies HTTP endpoints of order and subscription events',
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
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [businessIdOverrideField, ...notifyOnFailFields],
		},
	],
	async execute(i) {
		const name = requireString.call(this, 'name', i, 'Name');
		const events = checkEvents.call(this, this.getNodeParameter('events', i, []), i, 'Events', true);
		const dispatchers = readDispatchers.call(this, i, true);
		const additional = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
		const notifyOnFail = readNotifyOnFail.call(this, additional, i);
		const externalAccountId = await resolveBusinessId.call(this, additional.businessId, i);
		const body: IDataObject = { externalAccountId, dispatchers, events, name };
		if (notifyOnFail) body.notifyOnFail = notifyOnFail;
		return await apiRequest.call(this, { method: 'POST', path: '/webhooks', body, itemIndex: i });
	},
};
