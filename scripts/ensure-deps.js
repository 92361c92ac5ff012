// Installs the project's dev dependencies when they are missing (a fresh clone), so that
// `npm run demo` and `npm test` work as the first commands a newcomer runs, saying every few
// seconds how far `npm ci` got. Plain JavaScript: it has to run before TypeScript tooling exists.
const { spawn } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');

const { npmProgress } = require('./npm-progress');

const root = path.resolve(__dirname, '..');
const needed = ['typescript', 'jest', 'tsx', 'n8n-core', 'n8n-workflow', 'gulp', 'playwright-core', 'jest-environment-node'];
const missing = needed.filter((name) => !existsSync(path.join(root, 'node_modules', name, 'package.json')));

/** Packages of the lockfile npm installs on this machine (other platforms' optional ones left out). */
function expectedPackages() {
	try {
		const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
		return Object.entries(lock.packages).filter(
			([key, p]) => key.startsWith('node_modules/') && !(p.optional && (p.os || p.cpu || p.libc)),
		).length;
	} catch {
		return 0;
	}
}

function seconds(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

if (missing.length) {
	const total = expectedPackages();
	const started = Date.now();
	process.stdout.write(`[npm ci] installing the project's dependencies (missing: ${missing.join(', ')}; about ${total} packages)...\n`);
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const child = spawn(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=http'], { cwd: root, stdio: ['ignore', 'inherit', 'pipe'] });
	const progress = npmProgress();
	let partial = '';
	child.stderr.on('data', (chunk) => {
		const lines = (partial + chunk.toString()).split('\n');
		partial = lines.pop();
		for (const line of lines) {
			progress.line(line);
			if (!line.startsWith('npm http ')) process.stderr.write(`${line}\n`);
		}
	});
	const timer = setInterval(() => process.stdout.write(`[npm ci] ${progress.status()}, ${seconds(Date.now() - started)}\n`), 5000);
	child.on('close', (code) => {
		clearInterval(timer);
		if (partial && !partial.startsWith('npm http ')) process.stderr.write(`${partial}\n`);
		const result = code === 0 ? `done in ${seconds(Date.now() - started)}: ${progress.summary()}` : `failed (exit code ${code}) after ${seconds(Date.now() - started)}`;
		process.stdout.write(`[npm ci] ${result}\n`);
		process.exitCode = code === null ? 1 : code;
	});
}
