/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
// `npm run matrix:install [version...]`: see test/support/matrix.ts.
import { main } from '../test/support/matrix';

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? error}\n`);
	process.exit(1);
});
