/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
// `npm run verify` (n8n-node lint + cloud-support) and the lint's preparation: see test/support/node-cli.ts.
import { main } from '../test/support/node-cli';

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? error}\n`);
	process.exit(1);
});
