import { webhookOperation } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const flush = webhookOperation({
	value: 'flush',
	name: 'Flush Queue',
	action: 'Flush the queue of a webhook',
	description: 'Discard every pending (failed) notification of a webhook',
	...ENDPOINTS.webhook.flush,
	idempotent: true,
});
