// Installs the project's dev dependencies when they are missing (a fresh clone), so that
// `npm run demo` and `npm test` work as the first commands a newcomer runs. Plain JavaScript:
// it has to run before TypeScript tooling exists.
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const needed = ['typescript', 'jest', 'tsx', 'n8n-core', 'n8n-workflow', 'gulp', 'playwright-core'];
const missing = needed.filter((name) => !existsSync(path.join(root, 'node_modules', name, 'package.json')));

if (missing.length) {
	process.stdout.write(`Installing the project's dependencies (missing: ${missing.join(', ')})...\n`);
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	execFileSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}
