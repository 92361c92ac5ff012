import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { listAll, listProperties } from '../../shared/lists';
import { businessIdOf } from '../../shared/credentials';
import { checkOneOf, toIsoDate } from '../../shared/validation';
import { checkEvents, eventsProperty, WEBHOOK_STATUS_OPTIONS, WEBHOOK_STATUSES } from '../../shared/webhooks';
import { businessIdOverrideField } from './descriptions';
import { ENDPOINTS } from '../../shared/endpoints';

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many webhooks',
	description: 'List the webhooks of a business',
	properties: [
		...listProperties,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				businessIdOverrideField,
				{
					displayName: 'Created After',
					name: 'initialDate',
					type: 'dateTime',
					default: '',
					description: 'Only webhooks created at or after this moment',
				},
				{
					displayName: 'Created Before',
					name: 'endDate',
					type: 'dateTime',
					default: '',
					description: 'Only webhooks created at or before this moment',
				},
				eventsProperty('Only webhooks subscribed to these events', false),
				{
					displayName: 'Status',
					name: 'status',
					type: 'options',
					options: WEBHOOK_STATUS_OPTIONS,
					default: 'active',
					description: 'Only webhooks in this status',
				},
			],
		},
	],
	async execute(i) {
		const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
		const qs: IDataObject = {};
		if (filters.status !== undefined && filters.status !== '') {
			qs.status = checkOneOf.call(this, filters.status, WEBHOOK_STATUSES, i, 'Status');
		}
		if (filters.initialDate) qs.initialDate = toIsoDate.call(this, filters.initialDate, i, 'Created After');
		if (filters.endDate) qs.endDate = toIsoDate.call(this, filters.endDate, i, 'Created Before');
		const events = checkEvents(this, filters.events ?? [], 'Events', false, i);
		// Several events go out as repeated keys (`events=a&events=b`), the usual reading of
		// "multiple events are allowed" for a string query parameter (the transport sends arrays so).
		if (events.length) qs.events = events;
		const businessId = await businessIdOf(this, filters.businessId, i);
		return await listAll.call(this, i, {
			...ENDPOINTS.webhook.list,
			pathParams: { businessId: { value: businessId, label: 'Business ID' } },
			qs,
		});
	},
};
