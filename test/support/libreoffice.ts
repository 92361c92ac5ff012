/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * LibreOffice Calc for the .xlsx round trip (test/e2e/export-xlsx-libreoffice.test.ts): `SOFFICE_PATH`,
 * else Debian's soffice. When it is missing and this machine allows it (root, apt-get present), the
 * test installs Debian's `libreoffice-calc-nogui` package once, with progress lines (a few minutes);
 * `SP_SKIP_LIBREOFFICE=1` skips the test instead. Without Calc the test is skipped with the reason,
 * never passed silently.
 */
import { existsSync } from 'node:fs';

import type { Log } from './progress';
import { aptWatcher, runStep, toStderr } from './progress';

const CANDIDATES = ['/usr/bin/soffice', '/usr/bin/libreoffice', '/usr/lib/libreoffice/program/soffice'];
export const SKIP_VARIABLE = 'SP_SKIP_LIBREOFFICE';

export function findSoffice(): string | undefined {
	return process.env.SOFFICE_PATH && existsSync(process.env.SOFFICE_PATH) ? process.env.SOFFICE_PATH : CANDIDATES.find((p) => existsSync(p));
}

/** Finds LibreOffice, or installs Debian's Calc package when allowed; the reason when there is none. */
export async function ensureSoffice(log: Log = toStderr): Promise<{ path?: string; reason?: string }> {
	if (process.env[SKIP_VARIABLE]) return { reason: `${SKIP_VARIABLE} is set` };
	const existing = findSoffice();
	if (existing) return { path: existing };
	if (process.env.SOFFICE_PATH) return { reason: `SOFFICE_PATH=${process.env.SOFFICE_PATH} does not exist` };
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		return { reason: 'LibreOffice is not installed and installing it needs root (apt-get install libreoffice-calc-nogui)' };
	}
	if (!existsSync('/usr/bin/apt-get')) return { reason: 'LibreOffice is not installed and apt-get is not available' };
	log(
		"[libreoffice] the .xlsx round trip needs LibreOffice Calc: installing Debian's libreoffice-calc-nogui package with apt-get, as root " +
			`(once, a few minutes; set SOFFICE_PATH to use your own, or ${SKIP_VARIABLE}=1 to skip the test)`,
	);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const update = await runStep('libreoffice', 'apt-get update: reading the package lists', 'apt-get', ['update', '-o', 'DPkg::Lock::Timeout=300'], {
		env,
		timeoutMs: 5 * 60_000,
		log,
		watcher: aptWatcher(),
	});
	if (update.code !== 0) return { reason: `apt-get update failed: ${update.stderr.trim().split('\n').pop()}` };
	const install = await runStep(
		'libreoffice',
		'apt-get install libreoffice-calc-nogui',
		'apt-get',
		['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=300', 'libreoffice-calc-nogui'],
		{ env, timeoutMs: 20 * 60_000, log, watcher: aptWatcher() },
	);
	if (install.code !== 0) return { reason: `apt-get install libreoffice-calc-nogui failed: ${install.stderr.trim().split('\n').pop()}` };
	const installed = findSoffice();
	return installed ? { path: installed } : { reason: 'apt-get install libreoffice-calc-nogui left no soffice binary' };
}

// `npx tsx test/support/libreoffice.ts` installs it ahead of the test.
if (require.main === module) {
	void ensureSoffice().then((r) => toStderr(r.path ? `[libreoffice] ${r.path}` : `[libreoffice] none: ${r.reason}`));
}
