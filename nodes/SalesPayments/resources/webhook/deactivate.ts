import { webhookOperation } from './helpers';

export const deactivate = webhookOperation({
	value: 'deactivate',
	name: 'Deactivate',
	action: 'Deactivate a webhook',
	description: 'Stop the delivery of notifications to the webhook\'s dispatchers immediately',
	method: 'PATCH',
	path: '/webhooks/deactivate/{id}',
	idempotent: true,
});
