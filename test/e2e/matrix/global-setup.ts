/**
 * Global setup of `npm run test:matrix`: every n8n of the matrix (or of SP_N8N_VERSIONS) installed
 * with its Node before the tests run, with progress lines on stderr (what `npm run matrix:install` does).
 */
import { installMatrix } from '../../support/matrix';
import { toStderr } from '../../support/progress';

export default async function globalSetup(): Promise<void> {
	await installMatrix([], toStderr);
}
