/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Drives a real n8n process (installed by n8n-install.ts) for the end-to-end tests, the demo, the
 * queue tests and the matrix: one user folder with this package loaded as a community package,
 * credentials and workflows imported, workflows executed with the CLI, the server started and its
 * REST API called.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import axios from 'axios';

import type { N8nTarget, NodeRuntime } from './n8n-install';
import { DEFAULT_TARGET, ensureNode, n8nBin, n8nCacheDir, PACKAGE_NAME, run } from './n8n-install';
import { closeAtEnd } from './teardown';

/** The kernel's ephemeral range: where every `listen(0)` and outgoing connection takes its port. */
function ephemeralRange(): [number, number] {
	try {
		const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
		if (low > 0 && high >= low) return [low, high];
	} catch {
		// not Linux: the IANA range
	}
	return [49_152, 65_535];
}

function listenable(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/**
 * A free 127.0.0.1 port for a server that starts later (n8n, its task broker). Drawn below the
 * ephemeral range: a port from `listen(0)` stays free until n8n binds it, often minutes later,
 * and meanwhile any `listen(0)` may take it (the other jest worker starts hundreds of
 * simulators). Seen in CI: n8n could not bind, and its REST calls reached another test's n8n.
 */
export async function freePort(): Promise<number> {
	const [ephemeralLow] = ephemeralRange();
	const high = Math.min(ephemeralLow, 49_152) - 1;
	const low = Math.max(10_000, high - 20_000);
	for (let attempt = 0; attempt < 200; attempt++) {
		const port = low + Math.floor(Math.random() * (high - low + 1));
		if (await listenable(port)) return port;
	}
	throw new Error(`no free port between ${low} and ${high} after 200 attempts`);
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Probes every 250 ms until `probe` gives a value; fails naming `what` once `timeoutMs` has passed (one probe at least). */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(250);
	}
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

/**
 * A new connection per REST request: Node's global agent keeps connections alive, and n8n closing
 * an idle one (after 5 s) as the next request reuses it answered "socket hang up" (seen when a test
 * file spent seconds filling its simulator between two calls).
 */
const NEW_CONNECTIONS = new http.Agent({ keepAlive: false });

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
	/**
	 * A file the server's output is appended to as well, for other processes to read (the e2e
	 * run's shared n8n, started by the global setup and used by the jest workers).
	 */
	logFile?: string;

	/** The n8n release this instance runs (installed by ensureN8n). */
	readonly target: N8nTarget;
	private runtime?: NodeRuntime;

	constructor(userFolder?: string, target: N8nTarget = DEFAULT_TARGET) {
		this.userFolder = userFolder ?? mkdtempSync(path.join(os.tmpdir(), 'sp-n8n-'));
		this.target = target;
	}

	/** Set on an n8n another process started and runs: this object only calls its REST API, and leaves it be. */
	private attachedTo = false;

	/**
	 * An n8n server another process started and still runs (the e2e run's shared one,
	 * test/e2e/setup.ts): REST calls only; `stop()` and `cleanup()` leave it and its folder alone.
	 */
	static attached(o: { userFolder: string; port: number; logFile: string; cookie: string }): N8nInstance {
		const n8n = new N8nInstance(o.userFolder);
		n8n.port = o.port;
		n8n.logFile = o.logFile;
		n8n.attachedTo = true;
		// The owner's session of the process that set the owner up: n8n answers a sixth login within
		// 5 minutes with 429 (its rate limit), and every file of the run would log in once.
		n8n.cookie = o.cookie;
		n8n.owner = DEFAULT_OWNER;
		return n8n;
	}

	/** The owner's session cookie (for an n8n another process attaches to: `attached()`). */
	get sessionCookie(): string {
		return this.cookie;
	}

	/** The Node.js executable n8n runs on. */
	async nodeBin(): Promise<string> {
		this.runtime ??= await ensureNode(this.target.node);
		return this.runtime.bin;
	}

	/** The server process' id while it runs (the bench samples its memory). */
	get pid(): number | undefined {
		return this.proc?.exitCode === null ? this.proc.pid : undefined;
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
		if (this.attachedTo) throw new Error(`n8n ${args[0]}: not run against an n8n another process runs (the shared one); use its REST API (test/support/n8n-session.ts)`);
		await this.allocatePorts();
		const started = performance.now();
		const result = await run(await this.nodeBin(), [n8nBin(this.target), ...args], { env: this.env(), timeoutMs });
		// SP_TRACE=1: each CLI call's time on stderr (what the e2e files spend in n8n starts).
		if (process.env.SP_TRACE) process.stderr.write(`[n8n ${args[0]}] ${Math.round(performance.now() - started)} ms\n`);
		return result;
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
	async execute(
		workflowId: string,
		timeoutMs?: number,
	): Promise<{ code: number; signal?: string; run?: ExecutedRun; after: string; stdout: string; stderr: string }> {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], timeoutMs);
		// The pretty-printed JSON starts at a line that is `{` and ends at a line that is `}`; n8n's
		// log lines may come before it (one may start with `{`) and error reports after it.
		const lines = result.stdout.split('\n');
		let parsed: ExecutedRun | undefined;
		let after = '';
		for (let start = lines.indexOf('{'); start !== -1 && parsed === undefined; start = lines.indexOf('{', start + 1)) {
			for (let end = lines.indexOf('}', start + 1); end !== -1; end = lines.indexOf('}', end + 1)) {
				try {
					parsed = JSON.parse(lines.slice(start, end + 1).join('\n')) as ExecutedRun;
					after = lines.slice(end + 1).join('\n');
					break;
				} catch {
					// Not the whole run yet: a later closing line may end it.
				}
			}
		}
		return { code: result.code, signal: result.signal, run: parsed, after, stdout: result.stdout, stderr: result.stderr };
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
		const killOnExit = () => {
			if (proc.exitCode === null) proc.kill('SIGKILL');
		};
		process.once('exit', killOnExit);
		// Removed once n8n has exited: an instance started many times (the bench) adds one per start.
		proc.once('exit', () => process.off('exit', killOnExit));
		this.unregister = closeAtEnd(`n8n ${this.target.version} on ${this.baseUrl}`, () => this.stop());
		const log = this.logFile;
		const keep = (chunk: Buffer) => {
			this.output.push(chunk.toString());
			if (this.output.length > 500) this.output.shift();
			if (log) appendFileSync(log, chunk);
		};
		// The first lines of this process, until it says it listens.
		let started = '';
		const watch = (chunk: Buffer) => {
			if (started.length < 1_000_000) started += chunk.toString();
		};
		for (const stream of [this.proc.stdout, this.proc.stderr]) {
			stream?.on('data', keep);
			stream?.on('data', watch);
		}
		// Ready when this process says so: "ready on <address>, port <port>" once it listens (the
		// answer below is then its own), "Editor is now accessible via" once its start is over
		// (workflows activated). An owner set up before that was, now and then, gone a moment later
		// (a session answered 401, then "wrong username or password"; seen in CI with 2.8.4).
		const listening = new RegExp(`ready on .*port ${this.port}\\b[\\s\\S]*Editor is now accessible via`);
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (this.proc.exitCode !== null) throw new Error(`n8n exited early:\n${this.output.join('')}`);
			try {
				// /healthz answers before the REST API is mounted; /rest/settings answers once it is.
				const res = await axios.get(`${this.baseUrl}/rest/settings`, { timeout: 2_000, validateStatus: () => true });
				// (Both lines are logged at level info, the default here.)
				if (res.status === 200 && (!this.logsInfo() || listening.test(started))) {
					this.proc.stdout?.off('data', watch);
					this.proc.stderr?.off('data', watch);
					return;
				}
			} catch {
				// not listening yet
			}
			await sleep(500);
		}
		throw new Error(`n8n did not become ready in ${timeoutMs} ms:\n${this.output.join('')}`);
	}

	private logsInfo(): boolean {
		return ['info', 'debug'].includes(this.env().N8N_LOG_LEVEL ?? 'info');
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

	/** Kills n8n at once (SIGKILL), as a crash does: nothing of its shutdown runs. */
	async kill(): Promise<void> {
		this.unregister();
		const proc = this.proc;
		if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
		const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
		// The whole group: n8n's task runner is its child.
		try {
			process.kill(-proc.pid!, 'SIGKILL');
		} catch {
			proc.kill('SIGKILL');
		}
		await exited;
	}

	/**
	 * Rows of a read-only query on this instance's sqlite database (`$N8N_USER_FOLDER/.n8n/database.sqlite`),
	 * read with n8n's own sqlite3 module on n8n's Node (safe while n8n runs).
	 */
	async sqlite<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
		const script = `
const sqlite3 = require(${JSON.stringify(path.join(n8nCacheDir(this.target), 'node_modules', 'sqlite3'))});
const db = new sqlite3.Database(${JSON.stringify(path.join(this.userFolder, '.n8n', 'database.sqlite'))}, sqlite3.OPEN_READONLY);
db.configure('busyTimeout', 10000);
db.all(process.argv[1], JSON.parse(process.argv[2]), (error, rows) => {
	if (error) { process.stderr.write(String(error)); process.exit(1); }
	process.stdout.write(JSON.stringify(rows));
	db.close();
});`;
		const result = await run(await this.nodeBin(), ['-e', script, query, JSON.stringify(params)], { timeoutMs: 60_000 });
		if (result.code !== 0) throw new Error(`sqlite query failed: ${result.stderr.slice(0, 500)}`);
		return JSON.parse(result.stdout) as T[];
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
		const send = async () =>
			await axios.post(
				`${this.baseUrl}/rest/login`,
				{ emailOrLdapLoginId: owner.email, password: owner.password },
				{ headers: { 'browser-id': 'sp-tests' }, validateStatus: () => true },
			);
		let res = await send();
		// A queue-mode main restarted a moment ago once answered "Cannot POST /rest/login" (404)
		// although /rest/settings had answered: give the route a bounded while to appear.
		for (const deadline = Date.now() + 20_000; res.status === 404 && Date.now() < deadline; res = await send()) await sleep(500);
		if (res.status !== 200) {
			throw new Error(`n8n login failed: ${res.status} ${JSON.stringify(res.data)}\nn8n's last output:\n${this.output.join('').slice(-3000)}`);
		}
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
				httpAgent: NEW_CONNECTIONS,
			});
		let res = await send();
		// A session answered 401 now and then when the owner was set up during n8n's start (see
		// start()): log in again, or set the owner up again when n8n no longer knows it; say so.
		if (res.status === 401 && this.owner) {
			process.stderr.write(`[n8n ${this.target.version}] ${method} ${pathName} answered 401: logging in again\n`);
			try {
				await this.login(this.owner);
			} catch (error) {
				process.stderr.write(`[n8n ${this.target.version}] ${(error as Error).message.split('\n')[0]}: setting the owner up again\n`);
				await this.setupOwner(this.owner);
			}
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

	/** "Listen for test event" on a trigger of a saved workflow, as the editor asks for it; true when n8n waits for the event. */
	async listenForTestEvent(workflowId: string, triggerName: string): Promise<boolean> {
		const saved = await this.rest<{ data: Record<string, unknown> }>('GET', `/workflows/${workflowId}`);
		const res = await this.rest<{ data: { waitingForWebhook?: boolean } }>('POST', `/workflows/${workflowId}/run`, {
			workflowData: { ...saved.data.data, pinData: {} },
			triggerToStartFrom: { name: triggerName },
		});
		return res.data.data.waitingForWebhook === true;
	}

	/** Executions of a workflow, newest first, with their data. */
	async executions(workflowId: string): Promise<Array<{ id: string; status: string; data?: unknown }>> {
		const res = await this.rest<{ data: { results: Array<{ id: string; status: string }> } }>(
			'GET',
			`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
		);
		return res.data?.data?.results ?? [];
	}

	/** Removes the user folder (stop first); not the folder of an n8n this object only attached to. */
	cleanup(): void {
		if (this.attachedTo) return;
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
