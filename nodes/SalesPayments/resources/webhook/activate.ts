import type { OperationDef } from '../../fields/types';
import { webhookIdField } from './descriptions';
import { requestOnWebhook } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const activate: OperationDef = {
	value: 'activate',
	name: 'Activate',
	action: 'Activate a webhook',
	description: 'Enable the delivery of notifications to the webhook\'s dispatchers',
	recordKey: 'webhookId',
	properties: [webhookIdField],
	async execute(i) {
		return await requestOnWebhook.call(this, i, { ...ENDPOINTS.webhook.activate, idempotent: true });
	},
};
