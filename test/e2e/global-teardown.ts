/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/** Global teardown of the e2e layer: removes the n8n user folder the global setup made (setup.ts, SEED_VARIABLE). */
import { rmSync } from 'node:fs';

import { SEED_VARIABLE } from './setup';

export default function globalTeardown(): void {
	const seed = process.env[SEED_VARIABLE];
	if (seed) rmSync(seed, { recursive: true, force: true });
}
