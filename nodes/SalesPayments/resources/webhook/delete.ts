import { webhookOperation } from './helpers';

export const deleteWebhook = webhookOperation({
	value: 'delete',
	name: 'Delete',
	action: 'Delete a webhook',
	description: 'Remove a webhook permanently; all future deliveries stop',
	method: 'DELETE',
	path: '/webhooks/delete/{id}',
	// A repeated delete would fail with "not found" after a first one that succeeded unseen.
	idempotent: false,
});
