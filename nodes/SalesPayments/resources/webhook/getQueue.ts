import { singleWebhookOperation } from './fields';

export const getQueue = singleWebhookOperation({
	value: 'getQueue',
	name: 'Get Queue',
	action: 'Get the queue of a webhook',
	description: 'Retrieve the queue of failed notifications of a webhook, with the count of pending messages',
	method: 'GET',
	path: (id) => `/webhooks/dynamic-queues/${id}`,
	idempotent: true,
});
