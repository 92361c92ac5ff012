// `npm run schemas`: regenerates the schema preview files (nodes/SalesPayments/__schema__) from the built node.
import { main } from '../test/support/schemas/files';

main();
