import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../shared/types';
import { listAll, listProperties } from '../../shared/pagination';
import { checkOneOf, toIsoDate } from '../../shared/validation';
import { businessIdOverrideField, checkEvents, resolveBusinessId } from './fields';
import { WEBHOOK_EVENT_OPTIONS, WEBHOOK_STATUSES } from './events';

/**
 * `events` may hold several values. They are sent as repeated keys (`events=a&events=b`), the
 * usual reading of "multiple events are allowed" for a string query parameter. n8n's request
 * helper would write an array as `events[0]=a&events[1]=b`, so the repeated keys are put into
 * the path's query string, and the helper appends `page` and `limit` after them.
 */
export function withRepeatedQuery(path: string, key: string, values: string[]): string {
	if (values.length === 0) return path;
	const query = values.map((v) => `${encodeURIComponent(key)}=${encodeURIComponent(v)}`).join('&');
	return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

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
					displayName: 'End Date',
					name: 'endDate',
					type: 'dateTime',
					default: '',
					description: 'Only webhooks created up to this date and time',
				},
				{
					displayName: 'Events',
					name: 'events',
					type: 'multiOptions',
					options: WEBHOOK_EVENT_OPTIONS,
					default: [],
					description: 'Only webhooks subscribed to these events',
				},
				{
					displayName: 'Initial Date',
					name: 'initialDate',
					type: 'dateTime',
					default: '',
					description: 'Only webhooks created from this date and time on',
				},
				{
					displayName: 'Status',
					name: 'status',
					type: 'options',
					options: [
						{ name: 'Active', value: 'active' },
						{ name: 'Inactive', value: 'inactive' },
						{ name: 'Unavailable', value: 'unavailable' },
					],
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
		if (filters.initialDate) qs.initialDate = toIsoDate.call(this, filters.initialDate, i, 'Initial Date');
		if (filters.endDate) qs.endDate = toIsoDate.call(this, filters.endDate, i, 'End Date');
		const events = checkEvents.call(this, filters.events ?? [], i, 'Events', false);
		const businessId = await resolveBusinessId.call(this, filters.businessId, i);
		const path = withRepeatedQuery(`/webhooks/list/${encodeURIComponent(businessId)}`, 'events', events);
		const { items } = await listAll.call(this, i, { method: 'GET', path, qs });
		return items;
	},
};
