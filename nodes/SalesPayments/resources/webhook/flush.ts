import { webhookOperation } from './helpers';

export const flush = webhookOperation({
	value: 'flush',
	name: 'Flush Queue',
	action: 'Flush the queue of a webhook',
	description: 'Discard every pending (failed) notification of a webhook',
	method: 'PATCH',
	path: '/webhooks/flush/{id}',
	idempotent: true,
});
