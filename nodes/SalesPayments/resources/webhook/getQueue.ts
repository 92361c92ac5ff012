import { webhookOperation } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const getQueue = webhookOperation({
	value: 'getQueue',
	name: 'Get Queue',
	action: 'Get the queue of a webhook',
	description: 'Retrieve the queue of failed notifications of a webhook, with the count of pending messages',
	...ENDPOINTS.webhook.queue,
	idempotent: true,
});
