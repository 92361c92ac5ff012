import type { OperationDef } from '../../fields/types';
import { webhookIdField } from './descriptions';
import { requestOnWebhook } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const getQueue: OperationDef = {
	value: 'getQueue',
	name: 'Get Queue',
	action: 'Get the queue of a webhook',
	description: 'Retrieve the queue of failed notifications of a webhook, with the count of pending messages',
	recordKey: 'webhookId',
	properties: [webhookIdField],
	async execute(i) {
		return await requestOnWebhook.call(this, i, { ...ENDPOINTS.webhook.queue, idempotent: true });
	},
};
