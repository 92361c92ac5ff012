/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Global teardown of the e2e layer: stops the n8ns the test files shared and removes its folders,
 * and removes the n8n user folder the global setup made (setup.ts, SHARED_VARIABLE, SEED_VARIABLE).
 */
import { rmSync } from 'node:fs';

import type { N8nInstance } from '../support/n8n-process';
import { SEED_VARIABLE, stopSharedN8ns } from './setup';

/** Where the global setup leaves the shared n8ns for this teardown (both run in jest's main process). */
export const SHARED_KEY = '__spSharedN8n';

export default async function globalTeardown(): Promise<void> {
	const scope = globalThis as Record<string, unknown>;
	await stopSharedN8ns((scope[SHARED_KEY] as N8nInstance[] | undefined) ?? []);
	delete scope[SHARED_KEY];
	const seed = process.env[SEED_VARIABLE];
	if (seed) rmSync(seed, { recursive: true, force: true });
}
