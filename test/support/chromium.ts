/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Chromium for the editor test (test/e2e/demo.test.ts): `CHROMIUM_PATH`, else Debian's chromium.
 * The e2e layer's global setup (test/e2e/global-setup.ts) installs Debian's package with apt-get
 * when it is missing and this machine allows it (root, apt-get present), with progress lines;
 * `SP_NO_BROWSER_INSTALL` forbids that. The test file, while jest collects it, only looks:
 * without a browser it is skipped with the reason, never passed silently.
 */
import { existsSync } from 'node:fs';

import type { Log } from './progress';
import { aptInstall, toStderr } from './progress';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];
/** Why the global setup found no browser, for the test's skip message (set in the same process, or inherited by jest's workers). */
const REASON_VARIABLE = 'SP_CHROMIUM_MISSING';

export function findChromium(): string | undefined {
	return process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)
		? process.env.CHROMIUM_PATH
		: CANDIDATES.find((p) => existsSync(p));
}

/** What the editor test uses: the browser found, else the reason there is none. */
export function chromiumForTests(): { path?: string; reason?: string } {
	const found = findChromium();
	if (found) return { path: found };
	if (process.env.CHROMIUM_PATH) return { reason: `CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist` };
	return { reason: process.env[REASON_VARIABLE] ?? 'Chromium is not installed (the e2e global setup installs it; or set CHROMIUM_PATH)' };
}

/** Finds Chromium, or installs Debian's package when allowed; the reason when there is none. */
export async function ensureChromium(log: Log = toStderr): Promise<{ path?: string; reason?: string }> {
	const result = await findOrInstall(log);
	if (result.reason) {
		process.env[REASON_VARIABLE] = result.reason;
		log(`[chromium] the editor test will be skipped: ${result.reason}`);
	}
	return result;
}

async function findOrInstall(log: Log): Promise<{ path?: string; reason?: string }> {
	const existing = findChromium();
	if (existing) return { path: existing };
	if (process.env.CHROMIUM_PATH) return { reason: `CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist` };
	if (process.env.SP_NO_BROWSER_INSTALL) return { reason: 'Chromium is not installed and SP_NO_BROWSER_INSTALL is set' };
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		return { reason: 'Chromium is not installed and installing it needs root (apt-get install chromium)' };
	}
	if (!existsSync('/usr/bin/apt-get')) return { reason: 'Chromium is not installed and apt-get is not available' };
	log(
		"[chromium] the editor test needs a browser: installing Debian's chromium package with apt-get, as root (once; " +
			'set CHROMIUM_PATH to use your own browser, or SP_NO_BROWSER_INSTALL=1 to skip the editor test)',
	);
	const failed = await aptInstall('chromium', 'chromium', 15 * 60_000, log);
	if (failed) return { reason: failed };
	const installed = findChromium();
	return installed ? { path: installed } : { reason: 'apt-get install chromium left no chromium binary' };
}
