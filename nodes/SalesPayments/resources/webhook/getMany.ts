import type { IDataObject } from 'n8n-workflow';

import type { OperationDef } from '../../fields/types';
import type { ModelRecord } from '../../fields/simplify';
import { NO_RECORD } from '../../fields/types';
import { listAll, listProperties } from '../../lists/lists';
import { businessIdOf } from '../../transport/credentials';
import { field, fieldOf } from '../../fields/fields';
import { convertFilters, filterCollection } from '../../lists/filters';
import { eventsProperty, WEBHOOK_STATUS_OPTIONS } from '../../fields/webhooks';
import { businessIdOverrideField } from './descriptions';
import { ENDPOINTS } from '../../transport/endpoints';

const filterFields = [
	fieldOf('text', businessIdOverrideField),
	field.date('initialDate', 'Created After', 'Only webhooks created at or after this moment'),
	field.date('endDate', 'Created Before', 'Only webhooks created at or before this moment'),
	fieldOf('options', eventsProperty('Only webhooks subscribed to these events', false)),
	field.option('status', 'Status', WEBHOOK_STATUS_OPTIONS, 'Only webhooks in this status'),
];

/** What an agent reads of a webhook (Simplify): never its dispatchers, whose headers may hold a secret. */
export const WEBHOOK_FOR_MODEL: ModelRecord = ['id', 'name', 'status', 'events', 'createdAt'];

export const getMany: OperationDef = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many webhooks',
	description: 'List the webhooks of a business',
	recordKey: NO_RECORD,
	properties: [...listProperties, filterCollection(filterFields)],
	async execute(i) {
		const raw = this.getNodeParameter('filters', i, {}) as IDataObject;
		// Several events go out as repeated keys (`events=a&events=b`), the usual reading of
		// "multiple events are allowed" for a string query parameter (the transport sends arrays so).
		const qs = convertFilters(this, raw, filterFields, i);
		// Business ID goes into the path, not the query: read as given (empty: the credential's).
		delete qs.businessId;
		const businessId = await businessIdOf(this, raw.businessId, i);
		return await listAll.call(this, i, {
			...ENDPOINTS.webhook.list,
			pathParams: { businessId: { value: businessId, label: 'Business ID' } },
			qs,
		}, WEBHOOK_FOR_MODEL);
	},
};
