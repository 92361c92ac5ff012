/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The commands of package.json (`npm run demo`, `bench`, `simulator`, `docs`, `scan`, `schemas`,
 * `matrix:install`, and the lint's n8n-node) run their module of test/support directly with tsx.
 * `runCommand(module, main)` at the end of such a module starts `main` only when the module is the
 * process's entry, never when a test imports it; a failure prints its stack and exits with 1.
 */
export function runCommand(entry: NodeModule, main: () => unknown): void {
	if (require.main !== entry) return;
	Promise.resolve()
		.then(main)
		.catch((error: Error) => {
			process.stderr.write(`${error.stack ?? error.message}\n`);
			process.exit(1);
		});
}
