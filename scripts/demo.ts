// `npm run demo`: see test/support/demo.ts.
import { main } from '../test/support/demo';

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? error}\n`);
	process.exit(1);
});
