/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Postgres and Redis for the queue-mode cluster: installed from Debian's packages when missing
 * (`apt-get update`, then `apt-get install postgresql redis-server`; needs root), then started
 * as private instances on free 127.0.0.1 ports with their own data folders, and stopped by PID.
 * Postgres refuses to run as root: initdb and postgres run as the `postgres` user (`setpriv`).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { PACKAGE_NAME } from '../n8n-install';
import { sleep } from '../n8n-process';
import type { Log } from '../progress';
import { aptWatcher, duration, runStep, toStderr } from '../progress';
import { ManagedProcess, uniquePort } from './process';

export interface ExecResult {
	code: number;
	stdout: string;
	stderr: string;
}

/** execFile without throwing: the exit code, stdout and stderr (bounded in time). */
export function exec(
	cmd: string,
	args: string[],
	opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ExecResult> {
	return new Promise((resolve) => {
		execFile(
			cmd,
			args,
			{ env: opts.env ?? process.env, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 512 * 1024 * 1024 },
			(error, stdout, stderr) => {
				const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
				resolve({ code, stdout: String(stdout), stderr: String(stderr) });
			},
		);
	});
}

export interface ServiceBinaries {
	/** Folder of initdb, postgres and psql (/usr/lib/postgresql/<major>/bin). */
	pgBin: string;
	redisServer: string;
}

const REDIS_SERVER = '/usr/bin/redis-server';

function findBinaries(): Partial<ServiceBinaries> {
	const found: Partial<ServiceBinaries> = {};
	const root = '/usr/lib/postgresql';
	if (existsSync(root)) {
		const majors = readdirSync(root)
			.filter((v) => /^\d+$/.test(v) && existsSync(path.join(root, v, 'bin', 'postgres')))
			.sort((a, b) => Number(b) - Number(a));
		const bin = majors.length ? path.join(root, majors[0], 'bin') : undefined;
		if (bin && ['initdb', 'psql'].every((b) => existsSync(path.join(bin, b)))) found.pgBin = bin;
	}
	if (existsSync(REDIS_SERVER)) found.redisServer = REDIS_SERVER;
	return found;
}

async function userExists(name: string): Promise<boolean> {
	return (await exec('id', ['-u', name])).code === 0;
}

/**
 * Returns the Postgres and Redis binaries, installing Debian's `postgresql` and `redis-server`
 * first when either is missing. Idempotent: when both are there it only looks at a few paths.
 * A lock folder keeps two test runs from installing at once.
 */
export async function ensureQueueServices(log: Log = toStderr): Promise<ServiceBinaries> {
	let found = findBinaries();
	if (found.pgBin && found.redisServer && (await userExists('postgres'))) return found as ServiceBinaries;

	const missing = [!found.pgBin || !(await userExists('postgres')) ? 'postgresql' : '', !found.redisServer ? 'redis-server' : '']
		.filter(Boolean)
		.join(' ');
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		throw new Error(
			`Queue-mode tests need Postgres and Redis (missing: ${missing}). Run them as root once to let them install ` +
				`Debian's packages, or run: sudo apt-get update && sudo apt-get install -y postgresql redis-server`,
		);
	}
	const lockRoot = path.join(os.homedir(), '.cache', PACKAGE_NAME);
	mkdirSync(lockRoot, { recursive: true });
	const lock = path.join(lockRoot, '.installing-queue-services');
	const deadline = Date.now() + 15 * 60_000;
	for (;;) {
		try {
			mkdirSync(lock);
			break;
		} catch {
			if (Date.now() > deadline) throw new Error(`another install holds ${lock}; remove it if no install is running`);
			log('[queue services] another process is installing Postgres/Redis; waiting...');
			await sleep(5_000);
		}
	}
	try {
		found = findBinaries();
		if (!(found.pgBin && found.redisServer && (await userExists('postgres')))) {
			const started = Date.now();
			const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
			log(`[queue services] installing ${missing} from Debian's packages with apt-get, as root (once)`);
			const update = await runStep('queue services', 'apt-get update: reading the package lists', 'apt-get', ['update', '-o', 'DPkg::Lock::Timeout=300'], {
				env,
				timeoutMs: 10 * 60_000,
				log,
				watcher: aptWatcher(),
			});
			if (update.code !== 0) throw new Error(`apt-get update failed:\n${update.stderr.slice(-3000)}`);
			const install = await runStep(
				'queue services',
				`apt-get install ${missing}`,
				'apt-get',
				['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=300', 'postgresql', 'redis-server'],
				{ env, timeoutMs: 15 * 60_000, log, watcher: aptWatcher() },
			);
			if (install.code !== 0) throw new Error(`apt-get install failed:\n${install.stderr.slice(-3000)}`);
			found = findBinaries();
			if (!found.pgBin || !found.redisServer) throw new Error('apt-get install finished but postgres/redis-server are still missing');
			log(`[queue services] ${missing} installed in ${duration(Date.now() - started)}`);
		}
		return found as ServiceBinaries;
	} finally {
		rmSync(lock, { recursive: true, force: true });
	}
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port (bounded). */
export async function waitForPort(port: number, what: string, timeoutMs: number, alive: () => boolean): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (!alive()) throw new Error(`${what} exited before listening`);
		const open = await new Promise<boolean>((resolve) => {
			const socket = net.connect(port, '127.0.0.1');
			socket.once('connect', () => {
				socket.destroy();
				resolve(true);
			});
			socket.once('error', () => resolve(false));
		});
		if (open) return;
		await sleep(200);
	}
	throw new Error(`${what} did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
}

async function uidGid(user: string): Promise<{ uid: number; gid: number }> {
	const uid = Number((await exec('id', ['-u', user])).stdout.trim());
	const gid = Number((await exec('id', ['-g', user])).stdout.trim());
	return { uid, gid };
}

/** Arguments that run a command as the postgres user (initdb and postgres refuse root). */
function asPostgres(cmd: string, args: string[]): [string, string[]] {
	if (typeof process.getuid === 'function' && process.getuid() === 0) {
		return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', cmd, ...args]];
	}
	return [cmd, args];
}

/** A private Postgres: own data folder, TCP on 127.0.0.1 only, no Unix socket, trust auth. */
export class Postgres {
	port = 0;
	proc?: ManagedProcess;

	constructor(
		private readonly bin: ServiceBinaries,
		readonly dir: string,
	) {}

	async start(): Promise<void> {
		const data = path.join(this.dir, 'pgdata');
		mkdirSync(data, { recursive: true, mode: 0o700 });
		if (typeof process.getuid === 'function' && process.getuid() === 0) {
			const { uid, gid } = await uidGid('postgres');
			chownSync(this.dir, uid, gid);
			chownSync(data, uid, gid);
		}
		const [initCmd, initArgs] = asPostgres(path.join(this.bin.pgBin, 'initdb'), [
			'-D',
			data,
			'-U',
			'postgres',
			'--auth=trust',
			'--encoding=UTF8',
			'--no-locale',
			'--no-sync',
		]);
		const init = await exec(initCmd, initArgs, { timeoutMs: 120_000 });
		if (init.code !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
		this.port = await uniquePort();
		const [cmd, args] = asPostgres(path.join(this.bin.pgBin, 'postgres'), [
			'-D',
			data,
			'-p',
			String(this.port),
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			'unix_socket_directories=',
			// A throw-away test database: durability is not needed, speed is.
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
		]);
		this.proc = new ManagedProcess('postgres', cmd, args, process.env, path.join(path.dirname(this.dir), 'logs', 'postgres.log'));
		this.proc.start();
		await waitForPort(this.port, 'postgres', 60_000, () => this.proc!.running);
		// Accepting TCP is not accepting queries yet (startup); retry until a query answers.
		const deadline = Date.now() + 60_000;
		for (;;) {
			const ready = await this.psql('SELECT 1', 'postgres');
			if (ready.code === 0) break;
			if (Date.now() > deadline) throw new Error(`postgres did not answer queries: ${ready.stderr}`);
			await sleep(300);
		}
		// Answered by ours, not by a server that took the port meanwhile (ours then exits).
		await sleep(300);
		if (!this.proc.running) throw new Error(`postgres exited (port ${this.port} taken?):\n${this.proc.tail()}`);
	}

	/** Runs SQL with psql (unaligned, tuples only); resolves with the raw result. */
	async psql(sql: string, database = 'n8n'): Promise<ExecResult> {
		return await exec(
			path.join(this.bin.pgBin, 'psql'),
			['-h', '127.0.0.1', '-p', String(this.port), '-U', 'postgres', '-d', database, '-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', sql],
			{ timeoutMs: 60_000 },
		);
	}

	/** Runs SQL and returns its output; throws with psql's message on failure. */
	async query(sql: string, database = 'n8n'): Promise<string> {
		const result = await this.psql(sql, database);
		if (result.code !== 0) throw new Error(`psql failed: ${result.stderr}`);
		return result.stdout;
	}

	async createDatabase(name: string): Promise<void> {
		await this.query(`CREATE DATABASE ${name}`, 'postgres');
	}

	async stop(): Promise<void> {
		await this.proc?.stop(30_000);
	}
}

/** A private Redis: 127.0.0.1 only, nothing persisted. */
export class Redis {
	port = 0;
	proc?: ManagedProcess;

	constructor(
		private readonly bin: ServiceBinaries,
		readonly dir: string,
	) {}

	async start(): Promise<void> {
		mkdirSync(this.dir, { recursive: true });
		this.port = await uniquePort();
		const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir];
		this.proc = new ManagedProcess('redis', this.bin.redisServer, args, process.env, path.join(path.dirname(this.dir), 'logs', 'redis.log'));
		this.proc.start();
		await waitForPort(this.port, 'redis-server', 30_000, () => this.proc!.running);
		await sleep(300);
		if (!this.proc.running) throw new Error(`redis-server exited (port ${this.port} taken?):\n${this.proc.tail()}`);
	}

	async stop(): Promise<void> {
		await this.proc?.stop(15_000);
	}
}
