import { singleWebhookOperation } from './fields';

export const activate = singleWebhookOperation({
	value: 'activate',
	name: 'Activate',
	action: 'Activate a webhook',
	description: 'Enable the delivery of notifications to the webhook\'s dispatchers',
	method: 'PATCH',
	path: (id) => `/webhooks/activate/${id}`,
	idempotent: true,
});
