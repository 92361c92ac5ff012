// `npm run simulator`: the platform simulator on 127.0.0.1 (options: --port, --seed, --size, --log).
import '../test/support/simulator/cli';
