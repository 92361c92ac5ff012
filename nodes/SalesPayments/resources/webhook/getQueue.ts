import { webhookOperation } from './helpers';

export const getQueue = webhookOperation({
	value: 'getQueue',
	name: 'Get Queue',
	action: 'Get the queue of a webhook',
	description: 'Retrieve the queue of failed notifications of a webhook, with the count of pending messages',
	method: 'GET',
	path: '/webhooks/dynamic-queues/{id}',
	idempotent: true,
});
