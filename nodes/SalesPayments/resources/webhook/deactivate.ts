import { singleWebhookOperation } from './fields';

export const deactivate = singleWebhookOperation({
	value: 'deactivate',
	name: 'Deactivate',
	action: 'Deactivate a webhook',
	description: 'Stop the delivery of notifications to the webhook\'s dispatchers immediately',
	method: 'PATCH',
	path: (id) => `/webhooks/deactivate/${id}`,
	idempotent: true,
});
