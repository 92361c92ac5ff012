/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * n8n 2.8.4 in queue mode (its scaling mode) on 127.0.0.1, for the queue-mode test:
 * Postgres and Redis of their own, one main (`n8n start`), webhook processes (`n8n webhook`)
 * behind a round-robin balancer that WEBHOOK_URL points at, and workers (`n8n worker`). Each
 * n8n process has its own user folder with the packed package in
 * `.n8n/nodes/node_modules/n8n-nodes-sales-payments`, as users install it on every instance.
 * Every process is started and stopped by PID (one SIGTERM each); free ports only.
 *
 * Environment (the measured recipe): every process gets EXECUTIONS_MODE=queue, the Postgres and
 * Redis settings, the same N8N_ENCRYPTION_KEY, WEBHOOK_URL (main needs it: main registers the
 * trigger's webhook with it), OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS, 127.0.0.1 listen addresses
 * for the servers, the worker health server and the task broker. Credentials and workflows are
 * imported and triggers published BEFORE main starts (the first CLI call runs the migrations).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import axios from 'axios';

import { n8nBin, n8nCacheDir } from '../n8n-install';
import { N8nInstance, sleep } from '../n8n-process';
import { Balancer } from './balancer';
import { ManagedProcess, uniquePort } from './process';
import type { ServiceBinaries } from './services';
import { exec, Postgres, Redis } from './services';

export type Role = 'main' | 'webhook' | 'worker';

/** Seconds n8n waits for running work on SIGTERM (the webhook process may wait all of it). */
const GRACEFUL_SHUTDOWN_SECONDS = 10;

/** How many times a process is started on fresh ports when its port was taken meanwhile. */
const PORT_ATTEMPTS = 3;

/** One n8n process of the cluster: its user folder (N8nInstance: env, CLI, REST) and its PID. */
export class ClusterNode {
	readonly proc: ManagedProcess;

	constructor(
		readonly role: Role,
		readonly name: string,
		readonly n8n: N8nInstance,
		logFile: string,
		args: string[],
	) {
		this.proc = new ManagedProcess(name, process.execPath, [n8nBin(), ...args], {}, logFile);
	}

	get port(): number {
		return this.n8n.port;
	}

	/**
	 * Starts the process on ports picked just now and waits (bounded) until it is ready for its
	 * role. Other programs on the machine may take a port between picking and binding: n8n then
	 * exits ("already in use") and the start is retried on new ports.
	 */
	async start(timeoutMs = 120_000): Promise<void> {
		for (let attempt = 1; ; attempt++) {
			this.n8n.port = await uniquePort();
			this.n8n.brokerPort = await uniquePort();
			if (this.role === 'worker') this.n8n.extraEnv.QUEUE_HEALTH_CHECK_PORT = String(this.n8n.port);
			try {
				await this.startOnce(timeoutMs);
				return;
			} catch (error) {
				const portTaken = /already in use/.test(this.proc.logSinceStart());
				if (!portTaken || attempt >= PORT_ATTEMPTS) throw error;
			}
		}
	}

	private async startOnce(timeoutMs: number): Promise<void> {
		// The environment is read at each start: the CLI's and the server's are the same.
		this.proc.env = this.n8n.env();
		this.proc.start();
		// main: the REST API is mounted; webhook process: database connected and migrated;
		// worker: its health server says database and Redis are reachable.
		const url =
			this.role === 'main'
				? `http://127.0.0.1:${this.port}/rest/settings`
				: `http://127.0.0.1:${this.port}/healthz/readiness`;
		// The answer must come from this process: another program may have taken the port
		// between picking and binding, so wait for this process to say it listens there.
		const listening = new RegExp(`(n8n ready on 127\\.0\\.0\\.1, port|worker server listening on port) ${this.port}\\b`);
		// Main: and its start is over (see N8nInstance.start: an owner set up earlier could be lost).
		const started = this.role === 'main' ? /Editor is now accessible via/ : /(?:)/;
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (!this.proc.running) throw new Error(`${this.name} exited early:\n${this.proc.tail()}`);
			const log = this.proc.logSinceStart();
			if (listening.test(log) && started.test(log)) {
				try {
					const res = await axios.get(url, { timeout: 2_000, validateStatus: () => true });
					if (res.status === 200) return;
				} catch {
					// not answering yet
				}
			}
			await sleep(300);
		}
		throw new Error(`${this.name} was not ready within ${timeoutMs} ms:\n${this.proc.tail()}`);
	}

	async stop(): Promise<{ graceful: boolean; ms: number }> {
		return await this.proc.stop((GRACEFUL_SHUTDOWN_SECONDS + 15) * 1000);
	}
}

export interface ClusterOptions {
	binaries: ServiceBinaries;
	/** The packed package (npm pack), installed into every n8n user folder. */
	tgz: string;
	webhooks?: number;
	workers?: number;
	/** Jobs each worker runs at once (n8n's default is 10). */
	workerConcurrency?: number;
	/**
	 * Credentials (plain `data`) and workflows imported before main starts; credentials may be
	 * a function of the cluster (e.g. a Postgres credential needs its port).
	 */
	credentials: unknown[] | ((cluster: QueueCluster) => unknown[]);
	workflows: unknown[];
	/** Workflows to publish (activate) before main starts. */
	publish: string[];
	log?: (line: string) => void;
}

export interface ExecutionRow {
	id: number;
	status: string;
	mode: string;
	/** The execution this one retries (n8n's Retry on a failed execution). */
	retryOf?: number;
	/** From the execution's creation (the webhook process accepted the delivery) to its end. */
	createdToFinishedMs?: number;
	/** The execution's run data (`resultData.runData`...), parsed from n8n's flatted format. */
	data?: RunData;
}

export interface RunData {
	resultData: {
		error?: { message?: string; description?: string; node?: { name?: string } };
		lastNodeExecuted?: string;
		runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>>;
	};
}

/** Output items (json) of one node in an execution's run data. */
export function itemsOf(data: RunData | undefined, nodeName: string): Array<Record<string, unknown>> {
	return data?.resultData.runData[nodeName]?.[0]?.data?.main?.[0]?.map((i) => i.json) ?? [];
}

/** n8n stores execution data in the `flatted` format; its own copy of flatted reads it. */
function parseFlatted(text: string): RunData {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const flatted = require(path.join(n8nCacheDir(), 'node_modules', 'flatted')) as { parse(text: string): unknown };
	return flatted.parse(text) as RunData;
}

export class QueueCluster {
	readonly root: string;
	readonly encryptionKey = randomBytes(24).toString('hex');
	readonly postgres: Postgres;
	readonly redis: Redis;
	readonly balancer: Balancer;
	readonly webhooks: ClusterNode[] = [];
	readonly workers: ClusterNode[] = [];
	main!: ClusterNode;
	private readonly log: (line: string) => void;

	private constructor(private readonly options: ClusterOptions) {
		this.root = mkdtempSync(path.join(os.tmpdir(), 'sp-queue-'));
		// The postgres user must reach its data folder inside.
		chmodSync(this.root, 0o755);
		mkdirSync(path.join(this.root, 'logs'));
		this.postgres = new Postgres(options.binaries, path.join(this.root, 'postgres'));
		this.redis = new Redis(options.binaries, path.join(this.root, 'redis'));
		this.balancer = new Balancer(Array.from({ length: options.webhooks ?? 2 }, (_, i) => () => this.webhooks[i].port));
		this.log = options.log ?? (() => undefined);
	}

	/** What WEBHOOK_URL is set to on every process: the balancer in front of the webhook processes. */
	get webhookUrl(): string {
		return `${this.balancer.url}/`;
	}

	get nodes(): ClusterNode[] {
		return [this.main, ...this.webhooks, ...this.workers].filter(Boolean);
	}

	/**
	 * Starts everything; on failure stops what was started before rethrowing. Returns once main,
	 * every webhook process and every worker answer their readiness checks.
	 */
	static async start(options: ClusterOptions): Promise<QueueCluster> {
		const cluster = new QueueCluster(options);
		try {
			await cluster.boot();
			return cluster;
		} catch (error) {
			await cluster.stop().catch(() => undefined);
			throw error;
		}
	}

	private async boot(): Promise<void> {
		const { options } = this;
		const t0 = Date.now();
		await Promise.all([this.postgres.start(), this.redis.start(), this.balancer.start()]);
		await this.postgres.createDatabase('n8n');
		this.log(`postgres :${this.postgres.port}, redis :${this.redis.port}, balancer ${this.balancer.url} (${Date.now() - t0} ms)`);

		this.main = await this.makeNode('main', 'main', ['start']);
		for (let i = 1; i <= (options.webhooks ?? 2); i++) this.webhooks.push(await this.makeNode('webhook', `webhook-${i}`, ['webhook']));
		for (let i = 1; i <= (options.workers ?? 2); i++) {
			this.workers.push(
				await this.makeNode('worker', `worker-${i}`, ['worker', `--concurrency=${options.workerConcurrency ?? 10}`]),
			);
		}

		// Import and publish before main starts (the first CLI call runs the Postgres migrations).
		const t1 = Date.now();
		await this.main.n8n.importCredentials(typeof options.credentials === 'function' ? options.credentials(this) : options.credentials);
		await this.main.n8n.importWorkflows(options.workflows);
		for (const id of options.publish) await this.main.n8n.publish(id);
		this.log(`imported and published in ${Date.now() - t1} ms`);

		const t2 = Date.now();
		await Promise.all(this.nodes.map(async (node) => await node.start()));
		await this.withMainDiagnostics(() => this.main.n8n.setupOwner());
		this.log(`main, ${this.webhooks.length} webhook processes and ${this.workers.length} workers ready in ${Date.now() - t2} ms`);
	}

	/** Logs in to main again (after a restart of main). */
	async loginToMain(): Promise<void> {
		await this.withMainDiagnostics(() => this.main.n8n.login());
	}

	/** Runs a call to main's REST API; a failure says what listens on main's port and how main's log ends. */
	private async withMainDiagnostics(call: () => Promise<void>): Promise<void> {
		try {
			await call();
		} catch (error) {
			const listeners = await exec('ss', ['-ltnp', `sport = :${this.main.port}`]);
			throw new Error(`${(error as Error).message}\nlisteners on ${this.main.port}: ${listeners.stdout}\nmain:\n${this.main.proc.tail(3000)}`);
		}
	}

	private async makeNode(role: Role, name: string, args: string[]): Promise<ClusterNode> {
		const n8n = new N8nInstance(path.join(this.root, name));
		mkdirSync(n8n.userFolder, { recursive: true });
		// Ports for the CLI (import, publish); start() picks fresh ones just before binding.
		n8n.port = await uniquePort();
		n8n.brokerPort = await uniquePort();
		await n8n.installPackage(this.options.tgz);
		n8n.extraEnv = { ...this.commonEnv(), ...this.roleEnv(role) };
		return new ClusterNode(role, name, n8n, path.join(this.root, 'logs', `${name}.log`), args);
	}

	private commonEnv(): Record<string, string> {
		return {
			EXECUTIONS_MODE: 'queue',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.postgres.port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'postgres',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(this.redis.port),
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			WEBHOOK_URL: this.webhookUrl,
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: String(GRACEFUL_SHUTDOWN_SECONDS),
			N8N_LOG_LEVEL: 'info',
		};
	}

	private roleEnv(role: Role): Record<string, string> {
		// Production webhooks are served by the webhook processes only. (A worker's
		// QUEUE_HEALTH_CHECK_PORT is set at each start.)
		return role === 'main' ? { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' } : {};
	}

	/** Executions of a workflow, oldest first; with `withData`, their parsed run data. */
	async executions(workflowId: string, withData = false): Promise<ExecutionRow[]> {
		const id = workflowId.replace(/'/g, "''");
		if (!withData) {
			const out = await this.postgres.query(
				`SELECT id, status, mode, round(EXTRACT(EPOCH FROM ("stoppedAt" - "createdAt")) * 1000), "retryOf" ` +
					`FROM execution_entity WHERE "workflowId" = '${id}' ORDER BY id`,
			);
			return out
				.split('\n')
				.filter(Boolean)
				.map((line) => {
					const [eid, status, mode, ms, retryOf] = line.split('|');
					return {
						id: Number(eid),
						status,
						mode,
						createdToFinishedMs: ms === '' ? undefined : Number(ms),
						retryOf: retryOf ? Number(retryOf) : undefined,
					};
				});
		}
		const out = await this.postgres.query(
			`SELECT e.id || '|' || e.status || '|' || e.mode || '|' || d.data FROM execution_entity e ` +
				`JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = '${id}' ORDER BY e.id`,
		);
		// Flatted JSON has no raw newlines: one execution per line.
		return out
			.split('\n')
			.filter(Boolean)
			.map((line) => {
				const [eid, status, mode] = line.split('|', 3);
				const data = line.slice(eid.length + status.length + mode.length + 3);
				return { id: Number(eid), status, mode, data: parseFlatted(data) };
			});
	}

	/**
	 * Waits (bounded) until a workflow has `count` executions that are no longer new or running,
	 * and returns them all. Throws with the counts when the time is up.
	 */
	async waitForExecutions(workflowId: string, count: number, timeoutMs: number): Promise<ExecutionRow[]> {
		const deadline = Date.now() + timeoutMs;
		let rows: ExecutionRow[] = [];
		for (;;) {
			rows = await this.executions(workflowId);
			const done = rows.filter((r) => !['new', 'running', 'waiting'].includes(r.status));
			if (done.length >= count && done.length === rows.length) return rows;
			if (Date.now() > deadline) {
				throw new Error(
					`timed out waiting for ${count} finished executions of ${workflowId}: ${rows.length} exist, ${done.length} finished`,
				);
			}
			await sleep(500);
		}
	}

	/** Failed executions of a workflow with their error and the worker that ran them (for assertion messages). */
	async failures(workflowId: string): Promise<Array<Record<string, unknown>>> {
		const workers = this.workerOfExecutions();
		return (await this.executions(workflowId, true))
			.filter((r) => r.status !== 'success')
			.map((r) => ({
				id: r.id,
				status: r.status,
				worker: workers.get(r.id),
				lastNode: r.data?.resultData.lastNodeExecuted,
				error: r.data?.resultData.error?.message,
				description: r.data?.resultData.error?.description,
			}));
	}

	/** Which worker started each execution ("Worker started execution N (job J)" in its log). */
	workerOfExecutions(): Map<number, string> {
		const found = new Map<number, string>();
		for (const worker of this.workers) {
			for (const match of worker.proc.log().matchAll(/Worker started execution (\d+) \(job [^)]*\)/g)) {
				found.set(Number(match[1]), worker.name);
			}
		}
		return found;
	}

	/**
	 * Which processes enqueued each execution ("Enqueued execution N (job J)" in their logs): the
	 * webhook process that accepted a delivery, or main for a poll's or a trigger's emission.
	 */
	enqueuersOfExecutions(): Map<number, string[]> {
		const found = new Map<number, string[]>();
		for (const node of this.nodes) {
			for (const match of node.proc.log().matchAll(/Enqueued execution (\d+) \(job [^)]*\)/g)) {
				const id = Number(match[1]);
				found.set(id, [...(found.get(id) ?? []), node.name]);
			}
		}
		return found;
	}

	/** The workflow's static data as saved in Postgres (null when none). */
	async staticData(workflowId: string): Promise<Record<string, unknown> | null> {
		const out = (await this.postgres.query(`SELECT "staticData" FROM workflow_entity WHERE id = '${workflowId.replace(/'/g, "''")}'`)).trim();
		return out ? (JSON.parse(out) as Record<string, unknown>) : null;
	}

	/** Every "Worker started execution" line, per worker (an execution started twice counts twice). */
	workerStartCounts(): Record<string, number> {
		const counts: Record<string, number> = {};
		for (const worker of this.workers) {
			counts[worker.name] = [...worker.proc.log().matchAll(/Worker started execution (\d+)/g)].length;
		}
		return counts;
	}

	/**
	 * Stops every n8n process (one SIGTERM each, in parallel), then Redis, Postgres and the
	 * balancer, and removes the data folders unless SP_KEEP_QUEUE_CLUSTER is set.
	 */
	async stop(): Promise<void> {
		await Promise.allSettled(this.nodes.map(async (node) => await node.stop()));
		await Promise.allSettled([this.redis.stop(), this.postgres.stop(), this.balancer.close()]);
		if (process.env.SP_KEEP_QUEUE_CLUSTER) this.log(`cluster folder kept: ${this.root}`);
		else rmSync(this.root, { recursive: true, force: true });
	}
}
