import type { OperationDef } from '../../fields/types';
import { webhookIdField } from './descriptions';
import { requestOnWebhook } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

export const resume: OperationDef = {
	value: 'resume',
	name: 'Resume Queue',
	action: 'Resume the queue of a webhook',
	description: 'Retry the delivery of every pending (failed) notification of a webhook',
	recordKey: 'webhookId',
	properties: [webhookIdField],
	async execute(i) {
		// Each call starts new delivery attempts, so it is not repeated automatically.
		return await requestOnWebhook.call(this, i, { ...ENDPOINTS.webhook.resume, idempotent: false });
	},
};
