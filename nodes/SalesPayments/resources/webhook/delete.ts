import { webhookOperation } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const deleteWebhook = webhookOperation({
	value: 'delete',
	name: 'Delete',
	action: 'Delete a webhook',
	description: 'Remove a webhook permanently; all future deliveries stop',
	...ENDPOINTS.webhook.remove,
	// A repeated delete would fail with "not found" after a first one that succeeded unseen.
	idempotent: false,
});
