import { webhookOperation } from './helpers';

export const get = webhookOperation({
	value: 'get',
	name: 'Get',
	action: 'Get a webhook',
	description: 'Retrieve the configuration and current status of a webhook',
	method: 'GET',
	path: '/webhooks/details/{id}',
	idempotent: true,
});
