import { webhookOperation } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const get = webhookOperation({
	value: 'get',
	name: 'Get',
	action: 'Get a webhook',
	description: 'Retrieve the configuration and current status of a webhook',
	...ENDPOINTS.webhook.details,
	idempotent: true,
});
