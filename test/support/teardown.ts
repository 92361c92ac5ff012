/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Everything a test file starts is stopped when the file ends, so that jest exits by itself
 * (no --forceExit). What test/support starts (simulators and other servers, n8n processes,
 * queue-mode processes, n8n-core's timers) registers itself here with closeAtEnd(); its own
 * close() unregisters it. Whatever a file left open is closed by the test environment
 * (test/support/jest-environment.ts) after the file's afterAll hooks, each close bounded in time.
 * Outside jest (the demo, the bench) nothing is registered.
 */

interface Closer {
	what: string;
	close: () => unknown;
}

const KEY = '__spCloseAtEnd';

type WithRegistry = { [KEY]?: Set<Closer> };

function registry(scope: WithRegistry): Set<Closer> {
	return (scope[KEY] ??= new Set());
}

/**
 * Registers something to stop when the test file ends; returns the function that unregisters
 * it (call it once it was stopped otherwise).
 */
export function closeAtEnd(what: string, close: () => unknown): () => void {
	if (process.env.JEST_WORKER_ID === undefined) return () => undefined;
	const entry = { what, close };
	registry(globalThis as WithRegistry).add(entry);
	return () => registry(globalThis as WithRegistry).delete(entry);
}

/** Seconds one close may take before the file fails with its name. */
export const CLOSE_TIMEOUT_MS = 30_000;

/**
 * Closes what a test file left registered, newest first, each within CLOSE_TIMEOUT_MS. Returns
 * what was closed and what failed or did not finish.
 */
export async function closeRegistered(scope: object): Promise<{ closed: string[]; failed: string[] }> {
	const entries = [...registry(scope as WithRegistry)].reverse();
	registry(scope as WithRegistry).clear();
	const closed: string[] = [];
	const failed: string[] = [];
	for (const entry of entries) {
		let timer: NodeJS.Timeout | undefined;
		const bound = new Promise<'timeout'>((resolve) => {
			timer = setTimeout(() => resolve('timeout'), CLOSE_TIMEOUT_MS);
		});
		try {
			const outcome = await Promise.race([Promise.resolve(entry.close()).then(() => 'closed' as const), bound]);
			if (outcome === 'closed') closed.push(entry.what);
			else failed.push(`${entry.what}: not closed within ${CLOSE_TIMEOUT_MS / 1000} s`);
		} catch (error) {
			failed.push(`${entry.what}: ${(error as Error).message}`);
		} finally {
			clearTimeout(timer);
		}
	}
	return { closed, failed };
}
