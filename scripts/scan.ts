// `npm run scan`: n8n's community-package scanner over the packed tarball and the sources (--json for a report).
import { main } from '../test/support/scan';

void main();
