/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The request windows the built package keeps per platform and credential (transport/gate.ts)
 * live as long as the process: a test file's runs share them, as an n8n process' executions do.
 * Tests that measure a window from its start forget them first (useSimulator does before each test).
 */
import path from 'node:path';

const STORE_FILE = path.resolve(__dirname, '../../../dist/nodes/SalesPayments/transport/boundedStore.js');

interface Store {
	name: string;
	clear(): void;
	entries(): Array<[unknown, unknown]>;
}

/** The package's store of request windows (dist's instance, the one the loaded node uses), once loaded. */
export function windowStore(): Store | undefined {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { PROCESS_STORES } = require(STORE_FILE) as { PROCESS_STORES: Store[] };
	return PROCESS_STORES.find((store) => store.name === 'request windows');
}

/** Forgets every window: the next request of each credential starts a fresh one. */
export function resetWindows(): void {
	windowStore()?.clear();
}
