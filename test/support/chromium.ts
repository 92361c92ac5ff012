/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Finds Debian's Chromium for the editor test, installing it with apt-get when it is missing and
 * this machine allows it (root, apt-get present). Returns the browser path or why there is none,
 * so the test is skipped with a reason rather than passed silently.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];

function found(): string | undefined {
	return process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)
		? process.env.CHROMIUM_PATH
		: CANDIDATES.find((p) => existsSync(p));
}

export function ensureChromium(log: (line: string) => void = () => undefined): { path?: string; reason?: string } {
	const existing = found();
	if (existing) return { path: existing };
	if (process.env.SP_NO_BROWSER_INSTALL) return { reason: 'Chromium is not installed and SP_NO_BROWSER_INSTALL is set' };
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		return { reason: 'Chromium is not installed and installing it needs root (apt-get install chromium)' };
	}
	if (!existsSync('/usr/bin/apt-get')) return { reason: 'Chromium is not installed and apt-get is not available' };
	try {
		log('Installing Debian\'s chromium package for the editor test (once)...');
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		execFileSync('apt-get', ['update'], { stdio: 'ignore', timeout: 5 * 60_000, env });
		execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
			stdio: 'ignore',
			timeout: 10 * 60_000,
			env,
		});
	} catch (error) {
		return { reason: `apt-get install chromium failed: ${(error as Error).message.split('\n')[0]}` };
	}
	const installed = found();
	return installed ? { path: installed } : { reason: 'apt-get install chromium left no chromium binary' };
}
