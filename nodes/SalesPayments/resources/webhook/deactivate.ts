import { webhookOperation } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const deactivate = webhookOperation({
	value: 'deactivate',
	name: 'Deactivate',
	action: 'Deactivate a webhook',
	description: 'Stop the delivery of notifications to the webhook\'s dispatchers immediately',
	...ENDPOINTS.webhook.deactivate,
	idempotent: true,
});
