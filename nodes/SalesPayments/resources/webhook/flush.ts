import type { OperationDef } from '../../fields/types';
import { webhookIdField } from './descriptions';
import { requestOnWebhook } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const flush: OperationDef = {
	value: 'flush',
	name: 'Flush Queue',
	action: 'Flush the queue of a webhook (discards every pending notification; cannot be undone)',
	description: 'Discard every pending (failed) notification of a webhook. Cannot be undone: they are never delivered.',
	recordKey: 'webhookId',
	properties: [webhookIdField],
	async execute(i) {
		return await requestOnWebhook.call(this, i, { ...ENDPOINTS.webhook.flush, idempotent: true });
	},
};
