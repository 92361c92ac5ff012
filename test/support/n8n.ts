/**
 * Drives a real n8n 2.8.4 (the newest n8n that runs on Node 20) for the end-to-end tests, the
 * demo and the editor test: installs it once into a cache outside the repo, loads this package
 * as a community package, imports credentials and workflows, executes workflows with the CLI,
 * starts the server and talks to its REST API.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import axios from 'axios';

export const N8N_VERSION = '2.8.4';
export const REPO_DIR = path.resolve(__dirname, '../..');
export const PACKAGE_NAME = 'n8n-nodes-sales-payments';

/** Where n8n is installed once and reused (override with SP_N8N_CACHE). */
export function n8nCacheDir(): string {
	return process.env.SP_N8N_CACHE ?? path.join(os.homedir(), '.cache', PACKAGE_NAME, `n8n-${N8N_VERSION}`);
}

export function n8nBin(): string {
	return path.join(n8nCacheDir(), 'node_modules', 'n8n', 'bin', 'n8n');
}

function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}) {
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

/**
 * Installs n8n into the cache unless it is already there (about 6 minutes and 2.3 GB the first
 * time). `overrides.xlsx` keeps n8n-nodes-base from fetching xlsx from outside the npm registry.
 */
export async function ensureN8n(log: (line: string) => void = () => {}): Promise<string> {
	const dir = n8nCacheDir();
	const marker = path.join(dir, '.installed');
	if (existsSync(marker) && existsSync(n8nBin())) return n8nBin();
	mkdirSync(dir, { recursive: true });
	const lock = path.join(dir, '.installing');
	try {
		mkdirSync(lock);
	} catch {
		log(`Another process is installing n8n ${N8N_VERSION} into ${dir}; waiting for it...`);
		for (let waited = 0; waited < 20 * 60_000 && !existsSync(marker); waited += 5_000) await sleep(5_000);
		if (existsSync(marker)) return n8nBin();
		throw new Error(`n8n install in ${dir} did not finish; remove ${lock} and retry`);
	}
	try {
		log(`Installing n8n ${N8N_VERSION} into ${dir} (once; about 6 minutes)...`);
		writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify(
				{
					name: 'n8n-cache-install',
					private: true,
					dependencies: { n8n: N8N_VERSION },
					overrides: { xlsx: '0.18.5' },
				},
				null,
				2,
			),
		);
		const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
		const result = await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: dir,
			timeoutMs: 30 * 60_000,
		});
		if (result.code !== 0 || !existsSync(n8nBin())) {
			throw new Error(`npm install of n8n ${N8N_VERSION} failed:\n${result.stderr.slice(-4000)}`);
		}
		writeFileSync(marker, new Date().toISOString());
		log(`n8n ${N8N_VERSION} installed.`);
		return n8nBin();
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
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
	/** Server output, for diagnosing failures. */
	readonly output: string[] = [];
	/** More environment for the CLI and the server (e.g. N8N_RESTRICT_FILE_ACCESS_TO). */
	extraEnv: Record<string, string> = {};

	constructor(userFolder?: string) {
		this.userFolder = userFolder ?? mkdtempSync(path.join(os.tmpdir(), 'sp-n8n-'));
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/** Installs the packed package where n8n looks for community packages. */
	async installPackage(tgz: string): Promise<void> {
		const target = path.join(this.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		rmSync(target, { recursive: true, force: true });
		mkdirSync(target, { recursive: true });
		const result = await run('tar', ['xzf', tgz, '-C', target, '--strip-components=1']);
		if (result.code !== 0) throw new Error(`extracting ${tgz} failed: ${result.stderr}`);
	}

	async allocatePorts(): Promise<void> {
		if (!this.port) this.port = await freePort();
		if (!this.brokerPort) this.brokerPort = await freePort();
	}

	env(): NodeJS.ProcessEnv {
		// Jest sets NODE_ENV=test, under which n8n silences its logger (and --rawOutput with it).
		const { JEST_WORKER_ID: _worker, NODE_ENV: _env, ...inherited } = process.env;
		return {
			...inherited,
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
		return await run(process.execPath, [n8nBin(), ...args], { env: this.env(), timeoutMs });
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
	async execute(workflowId: string): Promise<{ code: number; run?: ExecutedRun; stdout: string; stderr: string }> {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput']);
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
		const result = await this.cli(['publish:workflow', `--id=${workflowId}`]);
		if (result.code !== 0) throw new Error(`publish:workflow failed: ${result.stdout}\n${result.stderr}`);
	}

	async start(timeoutMs = 90_000): Promise<void> {
		await this.allocatePorts();
		// Own process group: a Ctrl-C in the terminal must reach the demo, which deactivates the
		// trigger through n8n before stopping it, not n8n directly.
		this.proc = spawn(process.execPath, [n8nBin(), 'start'], {
			env: this.env(),
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		const proc = this.proc;
		process.once('exit', () => {
			if (proc.exitCode === null) proc.kill('SIGKILL');
		});
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

	async stop(): Promise<void> {
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
		this.cookie = cookieOf(res.headers['set-cookie']);
	}

	async rest<T = unknown>(method: string, pathName: string, body?: unknown): Promise<{ status: number; data: T }> {
		const res = await axios.request({
			method,
			url: `${this.baseUrl}/rest${pathName}`,
			data: body,
			headers: { cookie: this.cookie, 'browser-id': 'sp-tests' },
			validateStatus: () => true,
		});
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
