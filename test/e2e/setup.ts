/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Shared setup of the real-n8n suites: n8n 2.8.4 from the cache (installed on first use),
 * this package packed and installed as a community package, a simulator in this process.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ensureN8n, packPackage } from '../support/n8n-install';
import type { ExecutedRun } from '../support/n8n-process';
import { N8nInstance } from '../support/n8n-process';
import { N8nSession } from '../support/n8n-session';
import { toStderr } from '../support/progress';
import type { Simulator } from '../support/simulator/server';
import { startSimulator } from '../support/simulator/server';

/**
 * The e2e global setup (test/e2e/global-setup.ts) installs n8n before any test file runs; a file
 * run on its own through another config may still install it here (how long: README.md, "How long the
 * first run takes").
 */
export const INSTALL_TIMEOUT = 30 * 60_000;

export interface E2eContext {
	n8n: N8nInstance;
	sim: Simulator;
}

/**
 * Where the e2e global setup left an n8n user folder made once for the whole run: this package
 * packed and installed as a community package, n8n's database created (its migrations run). Each
 * file starts from a copy of it instead of packing and migrating again (about 2 CLI calls' worth).
 */
export const SEED_VARIABLE = 'SP_E2E_SEED';

/** Packs this package, installs it into a new n8n user folder and creates n8n's database there; the packed tarball is removed. */
export async function seedUserFolder(): Promise<N8nInstance> {
	const tgz = await packPackage();
	const n8n = new N8nInstance();
	try {
		await n8n.installPackage(tgz);
	} finally {
		rmSync(path.dirname(tgz), { recursive: true, force: true });
	}
	// Any CLI command creates the database and runs n8n's migrations.
	const made = await n8n.cli(['export:credentials', '--all', `--output=${path.join(n8n.userFolder, 'none.json')}`]);
	if (!existsSync(path.join(n8n.userFolder, '.n8n', 'database.sqlite'))) throw new Error(`n8n made no database: ${made.stdout}\n${made.stderr}`);
	rmSync(path.join(n8n.userFolder, 'none.json'), { force: true });
	return n8n;
}

export async function prepareN8n(): Promise<E2eContext> {
	const { n8n } = await prepareN8nFolder();
	const sim = await startSimulator();
	return { n8n, sim };
}

/** An n8n user folder of the file's own: a copy of the seed folder, or one made anew. */
async function prepareN8nFolder(): Promise<{ n8n: N8nInstance }> {
	await ensureN8n(toStderr);
	const seed = process.env[SEED_VARIABLE];
	let n8n: N8nInstance;
	if (seed && existsSync(path.join(seed, '.n8n', 'database.sqlite'))) {
		n8n = new N8nInstance();
		cpSync(seed, n8n.userFolder, { recursive: true });
	} else {
		n8n = await seedUserFolder();
	}
	return { n8n };
}

/** Stops n8n and the simulator and removes n8n's folder; what a failed setup never made is skipped. */
export async function teardown(ctx: Partial<E2eContext> | undefined): Promise<void> {
	await ctx?.n8n?.stop();
	await ctx?.sim?.close();
	ctx?.n8n?.cleanup();
}

/**
 * Where the e2e global setup says which n8n the files of SHARED_N8N_FILES share (JSON of
 * SharedN8n[]): one n8n per jest worker, started once for the run instead of a copy, a start and CLI
 * calls per file. One per worker, not one for all: a worker runs one file at a time, so files that
 * save the same workflows (the example files, by their ids) never meet in one n8n.
 */
export const SHARED_VARIABLE = 'SP_E2E_SHARED_N8N';

/**
 * The files that run their workflows in the run's shared n8n (openSession). The others keep an
 * n8n of their own (docs/DEVELOPING.md, "Tests: what takes the time", says why for each).
 */
export const SHARED_N8N_FILES = ['data-api.test.ts', 'export.test.ts', 'export-xlsx.test.ts', 'export-trust.test.ts', 'agent.test.ts', 'examples.test.ts', 'polling-trigger.test.ts'];

interface SharedN8n {
	userFolder: string;
	port: number;
	logFile: string;
	filesRoot: string;
	pid: number;
	/** The owner's session, which every file uses (no login per file: n8n limits logins). */
	cookie: string;
}

/**
 * The shared n8n's settings, the same whether the global setup starts it or a file run through
 * another config starts one for itself: binary data on disk (filesystem mode) and n8n's file nodes
 * confined to one folder, in which each file gets folders of its own (N8nSession.filesDir).
 */
function sharedSettings(n8n: N8nInstance, filesRoot: string): void {
	n8n.extraEnv.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	n8n.extraEnv.N8N_RESTRICT_FILE_ACCESS_TO = filesRoot;
	n8n.logFile = path.join(n8n.userFolder, 'n8n-output.log');
	writeFileSync(n8n.logFile, '');
}

/** Starts the run's shared n8n, one per jest worker, in parallel (the e2e global setup). */
export async function startSharedN8ns(seed: string, workers: number): Promise<N8nInstance[]> {
	const started = await Promise.allSettled(Array.from({ length: workers }, async () => await startSharedN8n(seed)));
	const n8ns = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
	const failed = started.find((r) => r.status === 'rejected');
	if (failed) {
		await stopSharedN8ns(n8ns);
		throw failed.reason;
	}
	process.env[SHARED_VARIABLE] = JSON.stringify(n8ns.map((n8n) => (n8n as N8nInstance & { shared: SharedN8n }).shared));
	return n8ns;
}

/** Starts one shared n8n from the seed folder, its owner set up. */
async function startSharedN8n(seed: string): Promise<N8nInstance> {
	const n8n = new N8nInstance();
	cpSync(seed, n8n.userFolder, { recursive: true });
	const filesRoot = mkdtempSync(path.join(os.tmpdir(), 'sp-e2e-shared-files-'));
	sharedSettings(n8n, filesRoot);
	await n8n.start(180_000);
	await n8n.setupOwner();
	const shared: SharedN8n = { userFolder: n8n.userFolder, port: n8n.port, logFile: n8n.logFile!, filesRoot, pid: n8n.pid!, cookie: n8n.sessionCookie };
	return Object.assign(n8n, { shared });
}

/** Stops the shared n8ns and removes their folders (the e2e global teardown). */
export async function stopSharedN8ns(n8ns: N8nInstance[]): Promise<void> {
	delete process.env[SHARED_VARIABLE];
	await Promise.all(n8ns.map(async (n8n) => await n8n.stop()));
	for (const n8n of n8ns) {
		n8n.cleanup();
		const { shared } = n8n as N8nInstance & { shared?: SharedN8n };
		if (shared) rmSync(shared.filesRoot, { recursive: true, force: true });
	}
}

export interface E2eSession extends E2eContext {
	session: N8nSession;
}

/**
 * A file's session in the run's shared n8n (SHARED_VARIABLE), with a simulator of its own; run
 * outside the e2e config (no shared n8n), the file starts an n8n with the same settings for itself.
 * End it with closeSession.
 */
export async function openSession(): Promise<E2eSession> {
	const all = JSON.parse(process.env[SHARED_VARIABLE] ?? '[]') as SharedN8n[];
	// This worker's (JEST_WORKER_ID counts from 1).
	const shared = all.length ? all[(Number(process.env.JEST_WORKER_ID ?? 1) - 1) % all.length] : undefined;
	let n8n: N8nInstance;
	let filesRoot: string;
	if (shared) {
		n8n = N8nInstance.attached(shared);
		filesRoot = shared.filesRoot;
	} else {
		({ n8n } = await prepareN8nFolder());
		filesRoot = mkdtempSync(path.join(os.tmpdir(), 'sp-e2e-files-'));
		sharedSettings(n8n, filesRoot);
		await n8n.start(180_000);
		await n8n.setupOwner();
	}
	const sim = await startSimulator();
	return { n8n, sim, session: new N8nSession(n8n, Boolean(shared), filesRoot) };
}

/** Removes what the file saved in n8n, then stops the simulator (and the file's own n8n, if it started one). */
export async function closeSession(ctx: Partial<E2eSession> | undefined): Promise<void> {
	try {
		await ctx?.session?.end();
	} finally {
		await teardown(ctx);
		if (ctx?.session && !ctx.session.shared) rmSync(ctx.session.filesRoot, { recursive: true, force: true });
	}
}

/**
 * Runs a saved workflow once (`n8n execute`) and expects it to succeed; a failure names the
 * node and its message, n8n's exit code or signal and what it printed after the run, or what
 * n8n printed when no run could be read.
 *
 * `readOnly`: the workflow only reads and the test's checks hold for two runs as for one. Then, and only when
 * the run itself succeeded but the n8n process still ended badly (seen once in CI on n8n 2.41.1
 * under load, not reproduced in 12 quiet runs: code 1, empty stderr), it is run once more with
 * what n8n printed written to stderr. A failed run is never run again.
 */
export async function executeOk(n8n: N8nInstance, workflowId: string, timeoutMs?: number, o: { readOnly?: boolean } = {}): Promise<ExecutedRun> {
	let result = await n8n.execute(workflowId, timeoutMs);
	if (o.readOnly && result.code !== 0 && result.run?.status === 'success') {
		toStderr(`[n8n execute ${workflowId}] the run succeeded but n8n ended with ${exitOf(result)}; n8n printed after the run:\n${result.after.slice(-3000)}\n${result.stderr.slice(-2000)}\n(running it once more: it only reads)`);
		result = await n8n.execute(workflowId, timeoutMs);
	}
	const failure = result.run?.data.resultData.error as { message?: string; node?: { name?: string } } | undefined;
	expect({
		exit: exitOf(result),
		status: result.run?.status,
		failure: failure ? `${failure.node?.name}: ${failure.message}` : undefined,
		printed: result.code ? `${result.after.slice(-2000)}\n${result.stderr.slice(-2000)}` : '',
		unread: result.run ? undefined : `${result.stdout.slice(0, 1500)} ... ${result.stdout.slice(-1500)}`,
	}).toEqual({ exit: 'code 0', status: 'success', failure: undefined, printed: '', unread: undefined });
	return result.run as ExecutedRun;
}

function exitOf(result: { code: number; signal?: string }): string {
	return result.signal ? `signal ${result.signal}` : `code ${result.code}`;
}

/** A saved credential of the data API pointing at the simulator. */
export function dataCredential(sim: Simulator, id: string, overrides: Record<string, string> = {}) {
	return {
		id,
		name: `Sales & Payments ${id}`,
		type: 'salesPaymentsApi',
		data: { ...sim.credentials, ...overrides },
	};
}

/** A workflow holding one Sales & Payments Trigger node (subscribed to order.paid unless told otherwise). */
export function triggerWorkflow(o: {
	id: string;
	name: string;
	nodeId: string;
	nodeName: string;
	webhookId: string;
	credentialId: string;
	staticData?: unknown;
}) {
	return {
		id: o.id,
		name: o.name,
		active: false,
		nodes: [
			{
				id: o.nodeId,
				name: o.nodeName,
				type: 'n8n-nodes-sales-payments.salesPaymentsTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: o.webhookId,
				parameters: { events: ['order.paid'] },
				credentials: { salesPaymentsApi: { id: o.credentialId, name: `Sales & Payments ${o.credentialId}` } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		...(o.staticData ? { staticData: o.staticData } : {}),
	};
}

let nodeCounter = 0;

/** A workflow: Manual Trigger feeding each given node in parallel. */
export function manualWorkflow(
	id: string,
	nodes: Array<{ name: string; parameters: Record<string, unknown>; credentialId: string; type?: string }>,
) {
	return {
		id,
		name: `e2e ${id}`,
		active: false,
		nodes: [
			{ id: `n${++nodeCounter}`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			...nodes.map((n, i) => ({
				id: `n${++nodeCounter}`,
				name: n.name,
				type: n.type ?? 'n8n-nodes-sales-payments.salesPayments',
				typeVersion: 1,
				position: [300, i * 200],
				parameters: n.parameters,
				credentials: { salesPaymentsApi: { id: n.credentialId, name: `Sales & Payments ${n.credentialId}` } },
			})),
		],
		connections: {
			Start: { main: [nodes.map((n) => ({ node: n.name, type: 'main', index: 0 }))] },
		},
		settings: { executionOrder: 'v1' },
	};
}
