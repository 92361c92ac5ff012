import { webhookOperation } from './helpers';

export const activate = webhookOperation({
	value: 'activate',
	name: 'Activate',
	action: 'Activate a webhook',
	description: 'Enable the delivery of notifications to the webhook\'s dispatchers',
	method: 'PATCH',
	path: '/webhooks/activate/{id}',
	idempotent: true,
});
