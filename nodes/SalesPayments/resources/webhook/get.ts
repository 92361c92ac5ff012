import type { OperationDef } from '../../fields/types';
import { webhookIdField } from './descriptions';
import { requestOnWebhook } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get a webhook',
	description: 'Retrieve the configuration and current status of a webhook',
	recordKey: 'webhookId',
	properties: [webhookIdField],
	async execute(i) {
		return await requestOnWebhook.call(this, i, { ...ENDPOINTS.webhook.details, idempotent: true });
	},
};
