/**
 * Global setup of the queue layer (jest.config.js): Postgres and Redis from Debian's packages when
 * missing, and n8n 2.8.4 on first use, with progress lines on stderr, before the test file runs.
 */
import { ensureN8n } from '../support/n8n-install';
import { toStderr } from '../support/progress';
import { ensureQueueServices } from '../support/queue/services';

export default async function globalSetup(): Promise<void> {
	await ensureQueueServices(toStderr);
	await ensureN8n(toStderr);
}
