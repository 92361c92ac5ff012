import { singleWebhookOperation } from './fields';

export const get = singleWebhookOperation({
	value: 'get',
	name: 'Get',
	action: 'Get a webhook',
	description: 'Retrieve the configuration and current status of a webhook',
	method: 'GET',
	path: (id) => `/webhooks/details/${id}`,
	idempotent: true,
});
