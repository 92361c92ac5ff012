import type { OperationDef } from '../../fields/types';
import { webhookIdField } from './descriptions';
import { requestOnWebhook } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const resume: OperationDef = {
	value: 'resume',
	name: 'Resume Queue',
	action: 'Resume the queue of a webhook (delivers every pending notification again now; cannot be undone)',
	description: 'Retry the delivery of every pending (failed) notification of a webhook now. Cannot be undone: the receiving systems act on them.',
	recordKey: 'webhookId',
	properties: [webhookIdField],
	async execute(i) {
		// Each call starts new delivery attempts, so it is not repeated automatically.
		return await requestOnWebhook.call(this, i, { ...ENDPOINTS.webhook.resume, idempotent: false });
	},
};
