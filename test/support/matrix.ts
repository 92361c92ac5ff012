/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The compatibility matrix outside jest: `npm run matrix:install` installs every n8n of the
 * matrix (N8N_TARGETS in ./n8n-install) with its Node into the cache, or only the versions given as
 * arguments or in SP_N8N_VERSIONS. The matrix tests (test/e2e/matrix) install on first use too;
 * this lets CI or a developer do the slow part up front.
 */
import { ensureN8n, installedVersion, matrixTargets, n8nCacheDir } from './n8n-install';
import { runCommand } from './command';

export async function installMatrix(versions: string[], log: (line: string) => void): Promise<void> {
	for (const target of matrixTargets(versions.length ? versions.join(',') : undefined)) {
		const started = Date.now();
		await ensureN8n(log, target);
		const seconds = Math.round((Date.now() - started) / 1000);
		log(`[n8n ${target.version}] ready in ${n8nCacheDir(target)} (n8n-workflow ${installedVersion(target, 'n8n-workflow')}; ${seconds} s)`);
	}
}

export async function main(): Promise<void> {
	await installMatrix(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
}

runCommand(module, main);
