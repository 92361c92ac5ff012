import type { OperationDef } from '../../fields/types';
import { webhookIdField } from './descriptions';
import { requestOnWebhook } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const deactivate: OperationDef = {
	value: 'deactivate',
	name: 'Deactivate',
	action: 'Deactivate a webhook',
	description: 'Stop the delivery of notifications to the webhook\'s dispatchers immediately',
	recordKey: 'webhookId',
	properties: [webhookIdField],
	async execute(i) {
		return await requestOnWebhook.call(this, i, { ...ENDPOINTS.webhook.deactivate, idempotent: true });
	},
};
