import type { OperationDef } from '../../fields/types';
import { webhookIdField } from './descriptions';
import { requestOnWebhook } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const deleteWebhook: OperationDef = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete a webhook permanently (cannot be undone)',
	description: 'Remove a webhook permanently; all future deliveries stop. Cannot be undone.',
	recordKey: 'webhookId',
	properties: [webhookIdField],
	async execute(i) {
		// A repeated delete would fail with "not found" after a first one that succeeded unseen.
		return await requestOnWebhook.call(this, i, { ...ENDPOINTS.webhook.remove, idempotent: false });
	},
};
