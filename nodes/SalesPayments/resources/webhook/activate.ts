import { webhookOperation } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const activate = webhookOperation({
	value: 'activate',
	name: 'Activate',
	action: 'Activate a webhook',
	description: 'Enable the delivery of notifications to the webhook\'s dispatchers',
	...ENDPOINTS.webhook.activate,
	idempotent: true,
});
