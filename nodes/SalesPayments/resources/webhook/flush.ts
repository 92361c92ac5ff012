import { singleWebhookOperation } from './fields';

export const flush = singleWebhookOperation({
	value: 'flush',
	name: 'Flush Queue',
	action: 'Flush the queue of a webhook',
	description: 'Discard every pending (failed) notification of a webhook',
	method: 'PATCH',
	path: (id) => `/webhooks/flush/${id}`,
	idempotent: true,
});
