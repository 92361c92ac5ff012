import { webhookOperation } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const resume = webhookOperation({
	value: 'resume',
	name: 'Resume Queue',
	action: 'Resume the queue of a webhook',
	description: 'Retry the delivery of every pending (failed) notification of a webhook',
	...ENDPOINTS.webhook.resume,
	// Each call starts new delivery attempts, so it is not repeated automatically.
	idempotent: false,
});
