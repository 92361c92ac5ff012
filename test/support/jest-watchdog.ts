/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Global teardown of every jest run of this project: jest exits by itself once nothing is left
 * running. Should something still hold the process (a server, socket, timer or child process a
 * test did not stop), this says what it is and ends the run with a failure after
 * WATCHDOG_MS, instead of hanging (or hiding it, as --forceExit would).
 */
const WATCHDOG_MS = 15_000;

interface HandleLike {
	constructor: { name: string };
	localPort?: number;
	remotePort?: number;
	pid?: number;
	spawnfile?: string;
	_httpMessage?: { method?: string; path?: string };
}

function describeHandles(): string[] {
	const handles = (process as unknown as { _getActiveHandles(): HandleLike[] })._getActiveHandles();
	return handles
		.filter((h) => h !== process.stdout && h !== process.stderr && h !== process.stdin)
		.map((h) => {
			const parts = [h.constructor.name];
			if (h.pid) parts.push(`pid ${h.pid} (${h.spawnfile ?? '?'})`);
			if (h.localPort) parts.push(`127.0.0.1:${h.localPort}${h.remotePort ? ` -> ${h.remotePort}` : ''}`);
			if (h._httpMessage?.path) parts.push(`${h._httpMessage.method} ${h._httpMessage.path}`);
			return parts.join(' ');
		});
}

export default function watchdog(): void {
	const timer = setTimeout(() => {
		const resources = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
		process.stderr.write(
			`\n[teardown] jest could not exit ${WATCHDOG_MS / 1000} s after the last test: something a test started is still running.\n` +
				`  active resources: ${resources.join(', ') || 'none'}\n` +
				describeHandles()
					.map((h) => `  - ${h}\n`)
					.join('') +
				'  Stop it in the test file (afterAll), or register it with closeAtEnd() (docs/DEVELOPING.md, "Tests: cleaning up").\n',
		);
		process.exit(1);
	}, WATCHDOG_MS);
	timer.unref();
}
