// `npm run bench`: see test/support/bench/bench.ts (options: --quick, --no-build, --repeats N).
import { run } from '../test/support/bench/bench';

run();
