/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * `npm run bench`: measures the package on this machine and writes bench/results.json and
 * bench/results.md.
 *
 * 1. Return All of 100,000 movements (Movement > Get Many) executed by n8n-core (the built
 *    package run as test/support/harness/n8n-core.ts runNodes() runs it, without its secret audit: see
 *    n8n-run.ts) against the simulator, beside three anchors measured in the same rounds:
 *    **the floor**, a sequential keep-alive loop on `node:http` that sends the same pages with the
 *    same headers and body as the node (captured from the simulator) and parses each page's JSON
 *    into one array; **keep-alive in n8n**, the same loop inside a trivial n8n node; **helper loop**,
 *    a trivial node looping over `this.helpers.httpRequestWithAuthentication` (the usual pattern of
 *    verified nodes). See anchors.ts. On loopback at 1,000 and 100 per page and at 20 ms latency
 *    per answer; the node with its default settings (automatic concurrency) and one request at a time.
 * 2. Return All under the simulator's rate limit of 20 requests/s per key: errors, 429 answers,
 *    the achieved request rate.
 * 3. With `--baseline <git ref>`: the same node cases on the package built from that commit
 *    (e.g. main before a change), alternated with this one, for an honest before/after.
 * 4. The trigger's cost per delivery (secret check + emit) over 10,000 deliveries through
 *    n8n-core's WebhookContext, good and forged secrets.
 * 5. The packed tarball's size and the time to load the action node's module.
 * 6. Exports: 1,000,000 movements to a CSV file against the same to items (export.ts).
 *
 * The simulator runs in this process; every measurement runs in a fresh child process
 * (`tsx test/support/bench/bench.ts --case <json>`), so that memory numbers are its own. The
 * cases of a group are run in alternating rounds (the order rotates every round) and each
 * figure is the median of the rounds, so that other work on a shared machine weighs on every
 * case alike; the spread (fastest-slowest) and the load average are kept with the results.
 * Every loop is bounded and every child has a time limit.
 * Options: --quick (1 round, fewer cases), --no-build, --repeats N (rounds, default 5),
 * --baseline <git ref>.
 */
import { execFileSync, execSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import type { ExportRow } from './export';
import { exportMarkdown, measureExports } from './export';
import type { RecordedRequest } from '../simulator/core';
import type { Anchor } from './anchors';
import type { Simulator } from '../simulator/server';

const REPO_DIR = path.resolve(__dirname, '../../..');
const OUT_DIR = path.join(REPO_DIR, 'bench');
const MOVEMENTS = 100_000;
const LATENCY_MS = 20;
const RATE_LIMIT = 20;
const DELIVERIES = 10_000;
const LIST_PATH = '/movement/filter';
/** A child that takes longer than this is killed (and the bench fails). */
const CHILD_TIMEOUT_MS = 120_000;

// ---------------------------------------------------------------------------------------------
// Cases (run in child processes)
// ---------------------------------------------------------------------------------------------

export interface Target {
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
	businessId: string;
}

type Client = 'node' | 'floor' | Anchor;

interface ListSpec {
	kind: 'list';
	client: Client;
	target: Target;
	pageSize: number;
	/** node: Max Concurrent Requests; undefined leaves the Pagination options at their defaults. */
	concurrency?: number;
	expected: number;
	/** node: the package built in this folder instead of this repository (the baseline). */
	packageDir?: string;
	/** floor: the headers and body the node sends, as the simulator received them. */
	headers: Record<string, string>;
	body: string;
}

type CaseSpec = ListSpec | { kind: 'trigger'; target: Target; deliveries: number } | { kind: 'load' };

interface Memory {
	/** Highest resident set size during the measured work, minus the RSS just before it (MB). */
	rssDeltaMb: number;
	/** Highest V8 heap use during the measured work, minus the heap use just before it (MB). */
	heapDeltaMb: number;
}

interface ListResult extends Memory {
	wallMs: number;
	/** CPU time (user + system) of the measuring process during the work: steadier than wall time on a busy machine. */
	cpuMs: number;
	items: number;
	/** sha256 of the record ids in output order: equal outputs have equal digests. */
	digest: string;
	/** The run's error message (a node run that failed), if any. */
	error?: string;
}

interface DeliveryStats {
	deliveries: number;
	totalMs: number;
	perDeliveryUs: number;
	accepted: number;
	refused: number;
}

interface TriggerResult {
	good: DeliveryStats;
	forged: DeliveryStats;
}

interface LoadResult {
	/** require() of the node module with n8n-workflow already loaded (as inside n8n). */
	requireMs: number;
	/** require() of n8n-workflow itself, for scale. */
	n8nWorkflowRequireMs: number;
	/** new SalesPayments() and reading its description. */
	constructMs: number;
	properties: number;
	/** Modules of dist/ that the require loaded. */
	modules: number;
}

const ANCHOR_LABELS: Record<'floor' | Anchor, string> = {
	floor: 'node:http keep-alive loop',
	keepAlive: 'the same loop inside a trivial n8n node',
	helperLoop: 'trivial node looping over httpRequestWithAuthentication',
};

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Samples memory while `work` runs and returns its peak use above the level before it. */
async function measureMemory<T>(work: () => Promise<T>): Promise<{ value: T; memory: Memory; wallMs: number; cpuMs: number }> {
	gc();
	gc();
	const before = process.memoryUsage();
	const maxRssBefore = process.resourceUsage().maxRSS * 1024;
	let peakRss = before.rss;
	let peakHeap = before.heapUsed;
	const sample = () => {
		const m = process.memoryUsage();
		if (m.rss > peakRss) peakRss = m.rss;
		if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
	};
	const timer = setInterval(sample, 10);
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	let value: T;
	try {
		value = await work();
	} finally {
		clearInterval(timer);
	}
	const wallMs = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	sample();
	// The kernel's high-water mark is exact when the work raised it.
	const maxRssAfter = process.resourceUsage().maxRSS * 1024;
	if (maxRssAfter > maxRssBefore) peakRss = Math.max(peakRss, maxRssAfter);
	const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
	return {
		value,
		wallMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		memory: { rssDeltaMb: mb(peakRss - before.rss), heapDeltaMb: mb(peakHeap - before.heapUsed) },
	};
}

function digestOf(ids: unknown[]): string {
	const hash = createHash('sha256');
	for (const id of ids) hash.update(`${String(id)}\n`);
	return hash.digest('hex');
}

/** Headers a client sets itself: never copied from the node's request. */
const OWN_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

function sameHeaders(headers: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(headers).filter(([name]) => !OWN_HEADERS.has(name.toLowerCase())));
}

/**
 * The floor: one keep-alive `node:http` connection, the node's pages one after another with
 * its headers and body, each page's JSON parsed and its records pushed into one array.
 */
async function floorList(spec: ListSpec, limitPages = 10_000): Promise<unknown[]> {
	const base = new URL(spec.target.baseUrl);
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	const headers = { ...sameHeaders(spec.headers), 'content-length': String(Buffer.byteLength(spec.body)) };
	const items: unknown[] = [];
	try {
		for (let page = 1; page <= limitPages; page++) {
			const text = await new Promise<string>((resolve, reject) => {
				const req = http.request(
					{
						host: base.hostname,
						port: base.port,
						agent,
						method: 'POST',
						path: `${LIST_PATH}?page=${page}&limit=${spec.pageSize}`,
						headers,
					},
					(res) => {
						const chunks: Buffer[] = [];
						res.on('data', (chunk: Buffer) => chunks.push(chunk));
						res.on('end', () =>
							res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`HTTP ${res.statusCode}`)),
						);
						res.on('error', reject);
					},
				);
				req.on('error', reject);
				req.end(spec.body);
			});
			const data = (JSON.parse(text) as { data: { movements: unknown[]; count: number } }).data;
			const records = data.movements;
			for (const record of records) items.push(record);
			if (records.length === 0 || items.length >= Number(data.count)) break;
		}
	} finally {
		agent.destroy();
	}
	return items;
}

/** An anchor node (anchors.ts) executed by n8n-core; `pages` bounds it (the warm-up reads one page). */
async function anchorList(spec: ListSpec, anchor: Anchor, pages?: number) {
	const { executeNode } = await import('./n8n-run');
	const { ANCHOR_TYPES } = await import('./anchors');
	return await executeNode({ pageSize: spec.pageSize, ...(pages ? { pages } : {}) }, { ...spec.target }, undefined, ANCHOR_TYPES[anchor]);
}

async function nodeList(spec: ListSpec, defaultPageSize: number, limit?: number) {
	const pagination: Record<string, number> = {};
	if (spec.pageSize !== defaultPageSize) pagination.pageSize = spec.pageSize;
	if (spec.concurrency !== undefined) pagination.maxConcurrency = spec.concurrency;
	const parameters = {
		resource: 'movement',
		operation: 'getMany',
		returnAll: limit === undefined,
		...(limit === undefined ? {} : { limit }),
		// Default settings: no Pagination option set at all, as a new node has it.
		...(Object.keys(pagination).length ? { pagination } : {}),
	};
	// A static import there: a dynamic import of n8n-workflow here would load its ESM build,
	// a second copy beside the CommonJS one that n8n-core uses.
	const { executeNode } = await import('./n8n-run');
	return await executeNode(parameters, { ...spec.target }, spec.packageDir);
}

function defaultPageSizeOf(packageDir: string): number {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(path.join(packageDir, 'dist/nodes/SalesPayments/shared/pagination.js')) as { DEFAULT_PAGE_SIZE: number })
		.DEFAULT_PAGE_SIZE;
}

async function runListCase(spec: ListSpec): Promise<ListResult> {
	const defaultPageSize = defaultPageSizeOf(spec.packageDir ?? REPO_DIR);
	// Warm-up (module loading, JIT) outside the measurement: one request.
	if (spec.client === 'node') await nodeList(spec, defaultPageSize, 10);
	else if (spec.client === 'floor') await floorList({ ...spec, pageSize: 10 }, 1);
	else await anchorList({ ...spec, pageSize: 10 }, spec.client, 1);
	let error: string | undefined;
	const { value, memory, wallMs, cpuMs } = await measureMemory(async () => {
		try {
			if (spec.client === 'floor') return (await floorList(spec)).map((r) => (r as { id: string }).id);
			if (spec.client !== 'node') return (await anchorList(spec, spec.client)).map((i) => i.json.id);
			return (await nodeList(spec, defaultPageSize)).map((i) => i.json.id);
		} catch (e) {
			error = (e as Error).message;
			return [];
		}
	});
	if (!error && value.length !== spec.expected) error = `${spec.client} returned ${value.length} records, expected ${spec.expected}`;
	return { wallMs: Math.round(wallMs), cpuMs: Math.round(cpuMs), ...memory, items: value.length, digest: digestOf(value), ...(error ? { error } : {}) };
}

/**
 * Runs in a plain `node` process (no TypeScript loader hooks, as inside n8n): require() of
 * n8n-workflow, then of the built action node, then new SalesPayments() and its description.
 */
const LOAD_SCRIPT = `
const { performance } = require('node:perf_hooks');
const path = require('node:path');
const dist = path.join(process.cwd(), 'dist');
const t0 = performance.now();
require('n8n-workflow');
const t1 = performance.now();
const mod = require(path.join(dist, 'nodes/SalesPayments/SalesPayments.node.js'));
const t2 = performance.now();
const node = new mod.SalesPayments();
const properties = node.description.properties.length;
const t3 = performance.now();
const modules = Object.keys(require.cache).filter((f) => f.startsWith(dist + path.sep)).length;
const r = (ms) => Math.round(ms * 10) / 10;
process.stdout.write(JSON.stringify({ result: { n8nWorkflowRequireMs: r(t1 - t0), requireMs: r(t2 - t1), constructMs: r(t3 - t2), properties, modules } }) + '\\n');
`;

/** Cases run by plain node rather than through this script. */
const PLAIN_CASES: Partial<Record<CaseSpec['kind'], string>> = { load: LOAD_SCRIPT };

async function runCase(spec: CaseSpec): Promise<unknown> {
	if (spec.kind === 'list') return await runListCase(spec);
	if (spec.kind === 'load') throw new Error('the load case runs in plain node (LOAD_SCRIPT)');
	const { measureDeliveries } = await import('./n8n-run');
	return await measureDeliveries({ ...spec.target }, spec.deliveries);
}

// ---------------------------------------------------------------------------------------------
// Orchestration (parent process)
// ---------------------------------------------------------------------------------------------

function runChild<T>(spec: CaseSpec, env: NodeJS.ProcessEnv): Promise<T> {
	return new Promise((resolve, reject) => {
		const plain = PLAIN_CASES[spec.kind];
		const args = plain ? ['-e', plain] : [...process.execArgv, '--expose-gc', __filename, '--case', JSON.stringify(spec)];
		const child = spawn(process.execPath, args, {
			cwd: REPO_DIR,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
		child.on('close', (code) => {
			clearTimeout(timer);
			const line = stdout
				.split('\n')
				.reverse()
				.find((l) => l.startsWith('{"result"'));
			if (code !== 0 || !line) return reject(new Error(`bench case ${spec.kind} failed (exit ${code}): ${stderr.slice(-2000)}`));
			resolve((JSON.parse(line) as { result: T }).result);
		});
	});
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** One case of the table, measured over the rounds. */
interface Measured {
	id: string;
	scenario: string;
	latencyMs: number;
	rateLimit?: number;
	pageSize: number;
	client: Client;
	/** What the node ran with: "default (auto)", "fixed 1", "main@abc1234 default" ... */
	settings: string;
	runs: number;
	/** Median wall time (ms), and every run's. */
	wallMs: number;
	runsMs: number[];
	/** Median CPU time of the measuring process (ms). */
	cpuMs: number;
	rssDeltaMb: number;
	heapDeltaMb: number;
	/** API requests of one run (the warm-up's excluded), median; by status over all runs. */
	requests: number;
	statuses: Record<string, number>;
	errors: number;
	digest: string;
	/** time / each anchor's time in the same group (medians), and extra RSS / the in-n8n keep-alive loop's. */
	vsFloor?: number;
	vsKeepAlive?: number;
	vsHelper?: number;
	rssVsFloor?: number;
	rssVsKeepAlive?: number;
	/** Successful requests per second of wall time (rate-limited rows). */
	achievedPerSecond?: number;
	/** Successful requests / the most the limiter lets through in the same time (its bucket starts full). */
	ofAllowed?: number;
}

interface CaseDef {
	id: string;
	scenario: string;
	settings: string;
	spec: ListSpec;
}

/**
 * Runs every case of a group `repeats` times in alternating rounds (the order rotates each
 * round) and keeps medians. `requests` and statuses come from the simulator's record.
 */
async function runGroup(
	cases: CaseDef[],
	repeats: number,
	env: NodeJS.ProcessEnv,
	sim: Simulator,
	meta: { latencyMs: number; rateLimit?: number },
	log: (line: string) => void,
): Promise<Measured[]> {
	const runs = new Map<string, Array<ListResult & { requests: RecordedRequest[] }>>();
	for (let r = 0; r < repeats; r++) {
		for (let k = 0; k < cases.length; k++) {
			const c = cases[(k + r) % cases.length];
			sim.clearRequests();
			if (meta.rateLimit) sim.rateLimit.set({ ratePerSecond: meta.rateLimit });
			const result = await runChild<ListResult>(c.spec, env);
			// The first request is the warm-up's.
			const requests = sim.requestsTo('POST', LIST_PATH).slice(1);
			if (!runs.has(c.id)) runs.set(c.id, []);
			runs.get(c.id)!.push({ ...result, requests });
		}
		log(
			`  round ${r + 1}/${repeats}: ${cases.map((c) => `${c.id} ${runs.get(c.id)!.at(-1)!.wallMs} ms`).join(', ')} (load ${os.loadavg()[0].toFixed(2)})`,
		);
	}
	sim.clearRequests();
	sim.rateLimit.clear();
	const out: Measured[] = cases.map((c) => {
		const all = runs.get(c.id)!;
		const statuses: Record<string, number> = {};
		for (const run of all) for (const req of run.requests) statuses[req.status] = (statuses[req.status] ?? 0) + 1;
		const digests = new Set(all.filter((x) => !x.error).map((x) => x.digest));
		const measured: Measured = {
			id: c.id,
			scenario: c.scenario,
			latencyMs: meta.latencyMs,
			...(meta.rateLimit ? { rateLimit: meta.rateLimit } : {}),
			pageSize: c.spec.pageSize,
			client: c.spec.client,
			settings: c.settings,
			runs: all.length,
			wallMs: Math.round(median(all.map((x) => x.wallMs))),
			runsMs: all.map((x) => x.wallMs),
			cpuMs: Math.round(median(all.map((x) => x.cpuMs))),
			rssDeltaMb: round(median(all.map((x) => x.rssDeltaMb)), 1),
			heapDeltaMb: round(median(all.map((x) => x.heapDeltaMb)), 1),
			requests: median(all.map((x) => x.requests.length)),
			statuses,
			errors: all.filter((x) => x.error).length,
			digest: digests.size === 1 ? [...digests][0] : 'differs',
		};
		if (meta.rateLimit) {
			const ok = all.map((x) => x.requests.filter((q) => q.status === 200).length);
			measured.achievedPerSecond = round(median(all.map((x, n) => ok[n] / (x.wallMs / 1000))), 1);
			// The bucket starts full: the most it lets through in t seconds is rate x (1 + t).
			measured.ofAllowed = round(median(all.map((x, n) => ok[n] / (meta.rateLimit! * (1 + x.wallMs / 1000)))));
		}
		for (const x of all) if (x.error) log(`  ${c.id}: ERROR ${x.error}`);
		return measured;
	});
	const floor = out.find((m) => m.client === 'floor');
	const keepAlive = out.find((m) => m.client === 'keepAlive');
	const helper = out.find((m) => m.client === 'helperLoop');
	for (const m of out) {
		if (floor) m.vsFloor = round(m.wallMs / floor.wallMs);
		if (floor) m.rssVsFloor = round(m.rssDeltaMb / Math.max(floor.rssDeltaMb, 0.1));
		if (keepAlive) m.vsKeepAlive = round(m.wallMs / keepAlive.wallMs);
		if (keepAlive) m.rssVsKeepAlive = round(m.rssDeltaMb / Math.max(keepAlive.rssDeltaMb, 0.1));
		if (helper) m.vsHelper = round(m.wallMs / helper.wallMs);
	}
	return out;
}

/**
 * Builds the package of an earlier commit in a temporary folder (its `nodes`, `credentials`
 * and build configuration, compiled with this repository's TypeScript; `node_modules` is a link
 * to this repository's, so both load the same n8n-workflow). Returns the folder.
 */
function buildBaseline(ref: string, log: (line: string) => void): { dir: string; sha: string } {
	const sha = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], { cwd: REPO_DIR }).toString().trim();
	const dir = path.join(os.tmpdir(), `sp-bench-baseline-${sha}`);
	if (!existsSync(path.join(dir, 'dist/nodes/SalesPayments/SalesPayments.node.js'))) {
		log(`building the baseline ${ref} (${sha}) in ${dir}...`);
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		execSync(`git archive ${sha} package.json tsconfig.json tsconfig.build.json nodes credentials | tar -x -C ${JSON.stringify(dir)}`, {
			cwd: REPO_DIR,
		});
		symlinkSync(path.join(REPO_DIR, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
		execFileSync(path.join(REPO_DIR, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
	}
	return { dir, sha };
}

/** The headers and body of the node's list request, as the simulator received them. */
async function captureNodeRequest(
	target: Target,
	env: NodeJS.ProcessEnv,
	sim: Simulator,
	pageSize: number,
): Promise<{ headers: Record<string, string>; body: string }> {
	sim.clearRequests();
	const probe: ListSpec = { kind: 'list', client: 'node', target, pageSize, expected: MOVEMENTS, headers: {}, body: '' };
	// A run of the whole list, whose first request is the warm-up's; any of them will do.
	await runChild<ListResult>(probe, env);
	const request = sim.requestsTo('POST', LIST_PATH).at(-1);
	sim.clearRequests();
	if (!request) throw new Error('the node sent no list request');
	return {
		headers: sameHeaders(request.headers),
		body: request.body === undefined ? '' : JSON.stringify(request.body),
	};
}

export async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const quick = args.includes('--quick');
	const option = (name: string) => {
		const at = args.indexOf(name);
		return at >= 0 ? args[at + 1] : undefined;
	};
	const repeats = option('--repeats') ? Math.max(1, Math.min(15, Number(option('--repeats')) || 5)) : quick ? 1 : 5;
	const baselineRef = option('--baseline');
	const started = performance.now();
	// Other work on the machine shows in the timings: the load average is kept with the results.
	const loadAtStart = os.loadavg().map((n) => Math.round(n * 100) / 100);
	const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0)}s] ${line}\n`);

	if (!args.includes('--no-build')) {
		log('building the package (npm run build)...');
		execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
	}
	// The built package's own constants (what users run), never the source tree.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } = require(path.join(REPO_DIR, 'dist/nodes/SalesPayments/shared/pagination.js')) as {
		DEFAULT_PAGE_SIZE: number;
		MAX_PAGE_SIZE: number;
	};
	const baseline = baselineRef ? buildBaseline(baselineRef, log) : undefined;
	const { startSimulator } = await import('../simulator/server');
	const { addMovements } = await import('../simulator/routes/financials');

	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'sp-bench-'));
	const env = { ...process.env, N8N_USER_FOLDER: userFolder, NODE_ENV: 'production' };
	const sim = await startSimulator();
	try {
		const target: Target = sim.credentials;
		const existing = sim.state.col('movements').filter((m) => m._businessId === target.businessId).length;
		addMovements(sim, target.businessId, MOVEMENTS - existing);
		log(`simulator on ${sim.url} with ${MOVEMENTS} movements for the primary business (max limit ${sim.maxLimit})`);
		const request = await captureNodeRequest(target, env, sim, DEFAULT_PAGE_SIZE);
		log(`the node's list request: headers ${Object.keys(request.headers).sort().join(', ')}; body ${request.body}`);

		const list = (client: Client, pageSize: number, extra: Partial<ListSpec> = {}): ListSpec => ({
			kind: 'list',
			client,
			target,
			pageSize,
			expected: MOVEMENTS,
			...request,
			...extra,
		});
		const nodeCases = (scenario: string, pageSize: number, fixed: number[]): CaseDef[] => [
			{ id: `${scenario}/node-default`, scenario, settings: 'default (auto)', spec: list('node', pageSize) },
			...fixed.map((n) => ({ id: `${scenario}/node-${n}`, scenario, settings: `fixed ${n}`, spec: list('node', pageSize, { concurrency: n }) })),
			...(baseline && pageSize === DEFAULT_PAGE_SIZE
				? [
						{
							id: `${scenario}/baseline-default`,
							scenario,
							settings: `${baselineRef}@${baseline.sha} default`,
							spec: list('node', pageSize, { packageDir: baseline.dir }),
						},
					]
				: []),
		];
		const rows: Measured[] = [];
		const group = async (name: string, cases: CaseDef[], meta: { latencyMs: number; rateLimit?: number }, runs = repeats) => {
			log(`${name}: ${cases.map((c) => c.id).join(', ')} x ${runs} rounds`);
			rows.push(...(await runGroup(cases, runs, env, sim, meta, log)));
		};

		const anchors = (scenario: string, pageSize: number, which: Array<'floor' | Anchor>): CaseDef[] =>
			which.map((client) => ({ id: `${scenario}/${client}`, scenario, settings: ANCHOR_LABELS[client], spec: list(client, pageSize) }));
		// 1. Loopback, default page size: the three anchors and the node (default, one request at a time).
		await group(
			'loopback',
			[...anchors('loopback', DEFAULT_PAGE_SIZE, ['floor', 'keepAlive', 'helperLoop']), ...nodeCases('loopback', DEFAULT_PAGE_SIZE, [1])],
			{ latencyMs: 0 },
		);
		// 2. Small pages on loopback (1,000 requests): a platform that caps its pages at 100.
		await group(
			'loopback-100',
			[...anchors('loopback-100', 100, ['floor', 'keepAlive', 'helperLoop']), ...nodeCases('loopback-100', 100, [])],
			{ latencyMs: 0 },
			Math.min(repeats, quick ? 1 : 3),
		);
		// 3. 20 ms per answer.
		sim.addFault({ kind: 'latency', latencyMs: LATENCY_MS, path: LIST_PATH });
		await group(
			'latency',
			[...anchors('latency', DEFAULT_PAGE_SIZE, ['floor', 'helperLoop']), ...nodeCases('latency', DEFAULT_PAGE_SIZE, quick ? [] : [1])],
			{ latencyMs: LATENCY_MS },
		);
		sim.faults.clear();
		// 4. Under the platform's rate limit of 20 requests/s per key.
		await group(
			'rate-limit',
			[{ id: 'rate-limit/node-default', scenario: `rate limit ${RATE_LIMIT}/s`, settings: 'default (auto)', spec: list('node', DEFAULT_PAGE_SIZE) }],
			{ latencyMs: 0, rateLimit: RATE_LIMIT },
			Math.min(repeats, 3),
		);

		// 5. Trigger deliveries.
		let trigger: TriggerResult | { skipped: string };
		try {
			const runs: TriggerResult[] = [];
			for (let n = 0; n < Math.min(repeats, 3); n++) runs.push(await runChild<TriggerResult>({ kind: 'trigger', target, deliveries: DELIVERIES }, env));
			trigger = {
				good: runs.map((r) => r.good).reduce((a, b) => (b.totalMs < a.totalMs ? b : a)),
				forged: runs.map((r) => r.forged).reduce((a, b) => (b.totalMs < a.totalMs ? b : a)),
			};
			log(`trigger: ${JSON.stringify(trigger)}`);
		} catch (error) {
			trigger = { skipped: (error as Error).message.slice(0, 300) };
			log(`trigger case skipped: ${trigger.skipped}`);
		}

		// 6. Exports (issue 24): 1,000,000 movements to CSV against the same to items (export.ts, its own simulator).
		const exportRows = await measureExports({ repeats: Math.min(repeats, 3), log, env, records: quick ? 100_000 : undefined });

		// 7. Package size and module load time.
		const { packPackage } = await import('../n8n-install');
		const tarball = await packPackage();
		const tarballBytes = statSync(tarball).size;
		const files = execFileSync('tar', ['-tzf', tarball]).toString().trim().split('\n').length;
		rmSync(path.dirname(tarball), { recursive: true, force: true });
		const loads: LoadResult[] = [];
		for (let n = 0; n < 3; n++) loads.push(await runChild<LoadResult>({ kind: 'load' }, env));
		const load = {
			requireMs: Math.min(...loads.map((l) => l.requireMs)),
			constructMs: Math.min(...loads.map((l) => l.constructMs)),
			n8nWorkflowRequireMs: Math.min(...loads.map((l) => l.n8nWorkflowRequireMs)),
			properties: loads[0].properties,
			modules: loads[0].modules,
		};
		log(`package: ${tarballBytes} bytes, ${files} files; load ${JSON.stringify(load)}`);

		const reference = rows.find((r) => r.id === 'loopback/floor')?.digest;
		const results: Results = {
			generatedAt: new Date().toISOString(),
			machine: {
				cpus: os.cpus().length,
				cpuModel: os.cpus()[0]?.model ?? '',
				memoryGb: Math.round(os.totalmem() / 1024 ** 3),
				node: process.version,
				platform: `${os.platform()} ${os.release()}`,
			},
			settings: {
				movements: MOVEMENTS,
				repeats,
				defaultPageSize: DEFAULT_PAGE_SIZE,
				maxPageSize: MAX_PAGE_SIZE,
				simulatorMaxLimit: sim.maxLimit,
				latencyMs: LATENCY_MS,
				rateLimitPerSecond: RATE_LIMIT,
				deliveries: DELIVERIES,
				...(baseline ? { baseline: `${baselineRef}@${baseline.sha}` } : {}),
				nodeRequest: { headers: Object.keys(request.headers).sort(), body: request.body },
			},
			list: rows.map((r) => ({ ...r, sameOutput: r.errors === 0 && r.digest === reference })),
			trigger,
			exports: exportRows,
			package: { tarballBytes, files, ...load },
			targets: targetsOf(rows, reference),
			loadAverage: { start: loadAtStart, end: os.loadavg().map((n) => Math.round(n * 100) / 100) },
			totalSeconds: Math.round((performance.now() - started) / 1000),
		};
		mkdirSync(OUT_DIR, { recursive: true });
		writeFileSync(path.join(OUT_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
		writeFileSync(path.join(OUT_DIR, 'results.md'), markdown(results));
		log(`wrote bench/results.json and bench/results.md in ${results.totalSeconds} s`);
	} finally {
		await sim.close();
		rmSync(userFolder, { recursive: true, force: true });
	}
}

interface TargetCheck {
	name: string;
	goal: string;
	measured: string;
	met: boolean;
}

function targetsOf(rows: Measured[], reference: string | undefined): TargetCheck[] {
	const out: TargetCheck[] = [];
	const row = (id: string) => rows.find((r) => r.id === id);
	const check = (name: string, measured: number | undefined, goal: number) => {
		if (measured !== undefined) out.push({ name, goal: `<= ${goal}`, measured: String(measured), met: measured <= goal });
	};
	const loop = row('loopback/node-default');
	check('Return All, 1,000 a page / helper loop (loopback)', loop?.vsHelper, 0.72);
	check('Return All, 1,000 a page / keep-alive loop in n8n (loopback)', loop?.vsKeepAlive, 1.15);
	check('Extra RSS, 1,000 a page / keep-alive loop in n8n (loopback)', loop?.rssVsKeepAlive, 1.1);
	check('Return All, 100 a page / helper loop (loopback, a capped platform)', row('loopback-100/node-default')?.vsHelper, 0.7);
	check(`Return All, 1,000 a page / keep-alive loop (${LATENCY_MS} ms per answer)`, row('latency/node-default')?.vsFloor, 0.45);
	const limited = row('rate-limit/node-default');
	if (limited?.achievedPerSecond !== undefined) {
		const failed = limited.errors + Object.entries(limited.statuses).filter(([s]) => s !== '200' && s !== '429').reduce((n, [, c]) => n + c, 0);
		out.push({
			name: `Under ${RATE_LIMIT} requests/s per key: failed runs and requests; achieved rate (successful requests per second of wall time)`,
			goal: `0 failed; >= ${RATE_LIMIT * 0.9}/s`,
			measured: `${failed} failed (${limited.statuses['429'] ?? 0} answers 429 retried over ${limited.runs} runs); ${limited.achievedPerSecond}/s (${Math.round((limited.ofAllowed ?? 0) * 100)}% of what the bucket allowed in that time)`,
			met: failed === 0 && (limited.achievedPerSecond ?? 0) >= RATE_LIMIT * 0.9,
		});
	}
	for (const scenario of ['loopback', 'latency']) {
		const before = row(`${scenario}/baseline-default`);
		const after = row(`${scenario}/node-default`);
		const sequential = row(`${scenario}/node-1`);
		if (before && after) {
			out.push({
				name: `Return All, default settings, this build / ${before.settings} (${scenario}; wall time, CPU time)`,
				goal: '<= 1.03',
				measured: `${round(after.wallMs / before.wallMs)} (${after.wallMs} / ${before.wallMs} ms); CPU ${round(after.cpuMs / before.cpuMs)}`,
				met: after.wallMs / before.wallMs <= 1.03,
			});
		}
		if (before && sequential) {
			out.push({
				name: `Return All, one request at a time (the baseline's default), this build / ${before.settings} (${scenario}; wall time, CPU time)`,
				goal: '<= 1.03',
				measured: `${round(sequential.wallMs / before.wallMs)} (${sequential.wallMs} / ${before.wallMs} ms); CPU ${round(sequential.cpuMs / before.cpuMs)}`,
				met: sequential.wallMs / before.wallMs <= 1.03,
			});
		}
	}
	out.push({
		name: 'Every run returned the same records in the same order',
		goal: 'yes',
		measured: rows.every((r) => r.errors === 0 && r.digest === reference) ? 'yes' : 'no',
		met: rows.every((r) => r.errors === 0 && r.digest === reference),
	});
	return out;
}

type Results = {
	generatedAt: string;
	machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; platform: string };
	settings: {
		movements: number;
		repeats: number;
		defaultPageSize: number;
		maxPageSize: number;
		simulatorMaxLimit: number;
		latencyMs: number;
		rateLimitPerSecond: number;
		deliveries: number;
		baseline?: string;
		nodeRequest: { headers: string[]; body: string };
	};
	list: Array<Measured & { sameOutput: boolean }>;
	trigger: TriggerResult | { skipped: string };
	exports: ExportRow[];
	package: { tarballBytes: number; files: number } & LoadResult;
	targets: TargetCheck[];
	loadAverage: { start: number[]; end: number[] };
	totalSeconds: number;
};

function markdown(results: Results): string {
	const { machine, settings } = results;
	const lines: string[] = [];
	lines.push('# Benchmark results', '');
	lines.push(
		`Generated by \`npm run bench\` on ${results.generatedAt.slice(0, 10)}: ${machine.cpus} cores (${machine.cpuModel}), ` +
			`${machine.memoryGb} GB, Node ${machine.node}; load average ${results.loadAverage.start.join(' / ')} (1 / 5 / 15 min) at the start, ` +
			`${results.loadAverage.end.join(' / ')} at the end. The simulator runs in the bench process on 127.0.0.1 (max limit ` +
			`${settings.simulatorMaxLimit}); Return All of ${settings.movements.toLocaleString('en-US')} movements ` +
			`(Movement > Get Many). Each measurement runs in a fresh process; the cases of a group run in ${settings.repeats} ` +
			`alternating rounds and each figure is the median (time; memory: peak above the level before the work, RSS and V8 heap).`,
		'',
		`- **floor**: a sequential keep-alive loop on \`node:http\` sending the node's pages with its headers ` +
			`(${settings.nodeRequest.headers.join(', ')}) and body (\`${settings.nodeRequest.body}\`), each page's JSON parsed into one array.`,
		'- **keepAlive**: the same loop inside a trivial n8n node executed by n8n-core (one item per record).',
		'- **helperLoop**: a trivial n8n node looping over `this.helpers.httpRequestWithAuthentication` one page at a time (the usual pattern of verified nodes).',
		`- **node**: the built package executed by n8n-core (WorkflowExecute, the harness' credentials helper); "default" sets no ` +
			`Pagination option (page size ${settings.defaultPageSize}, Max Concurrent Requests 0 = auto); "fixed 1" sets Max Concurrent Requests 1.`,
		...(settings.baseline ? [`- **${settings.baseline}**: the package built from that commit, alternated with this one in the same rounds.`] : []),
		'',
	);
	lines.push(
		'| Scenario | Client | Settings | Page size | Requests | Runs | Median (ms) | Fastest-slowest (ms) | / floor | / keepAlive | / helperLoop | CPU (ms) | RSS Δ (MB) | RSS / keepAlive | Heap Δ (MB) | Same records, same order |',
	);
	lines.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|');
	for (const r of results.list) {
		const scenario = r.rateLimit ? `${r.scenario}` : r.latencyMs ? `${r.latencyMs} ms per answer` : r.scenario;
		const statuses = Object.entries(r.statuses)
			.filter(([s]) => s !== '200')
			.map(([s, n]) => `${n}× ${s}`)
			.join(', ');
		const requests = `${r.requests}${statuses ? ` (+ ${statuses} over ${r.runs} runs)` : ''}`;
		lines.push(
			`| ${scenario} | ${r.client} | ${r.settings} | ${r.pageSize} | ${requests} | ${r.runs} | ${r.wallMs} | ` +
				`${Math.min(...r.runsMs)}-${Math.max(...r.runsMs)} | ${r.vsFloor ?? ''} | ${r.vsKeepAlive ?? ''} | ${r.vsHelper ?? ''} | ${r.cpuMs} | ${r.rssDeltaMb} | ${r.rssVsKeepAlive ?? ''} | ${r.heapDeltaMb} | ` +
				`${r.sameOutput ? 'yes' : 'NO'} |`,
		);
	}
	const limited = results.list.filter((r) => r.rateLimit);
	for (const r of limited) {
		lines.push(
			'',
			`Under ${r.rateLimit} requests/s per key (token bucket of ${r.rateLimit}, 429 with Retry-After in whole seconds): ` +
				`${r.errors} failed runs, ${r.statuses['429'] ?? 0} answers 429 over ${r.runs} runs (retried after Retry-After), ` +
				`${r.achievedPerSecond} successful requests/s of wall time, ${Math.round((r.ofAllowed ?? 0) * 100)}% of what the bucket allowed in that time ` +
				`(it starts full: ${r.rateLimit} at once, then ${r.rateLimit}/s).`,
		);
	}
	lines.push('');
	lines.push(
		'| Trigger: node.webhook() through n8n-core\'s WebhookContext | Deliveries | Total (ms) | Per delivery (µs) |',
		'|---|---:|---:|---:|',
	);
	if ('skipped' in results.trigger) lines.push(`| skipped: ${results.trigger.skipped} | | | |`);
	else {
		const t = results.trigger;
		lines.push(`| Genuine secret (secret check, event filter, one item emitted) | ${t.good.deliveries} | ${t.good.totalMs} | ${t.good.perDeliveryUs} |`);
		lines.push(`| Forged secret (secret check, answered 401) | ${t.forged.deliveries} | ${t.forged.totalMs} | ${t.forged.perDeliveryUs} |`);
	}
	lines.push('');
	lines.push(...exportMarkdown(results.exports));
	const p = results.package;
	lines.push('| Package | Value |', '|---|---:|');
	lines.push(`| npm pack tarball | ${(p.tarballBytes / 1024).toFixed(1)} KB, ${p.files} files |`);
	lines.push(`| require() of dist/nodes/SalesPayments/SalesPayments.node.js, n8n-workflow already loaded (${p.modules} modules) | ${p.requireMs} ms |`);
	lines.push(`| new SalesPayments() and its description (${p.properties} properties) | ${p.constructMs} ms |`);
	lines.push(`| require() of n8n-workflow itself, for scale | ${p.n8nWorkflowRequireMs} ms |`);
	lines.push('');
	lines.push('| Target | Goal | Measured | Met |', '|---|---|---|:---:|');
	for (const t of results.targets) lines.push(`| ${t.name} | ${t.goal} | ${t.measured} | ${t.met ? 'yes' : 'no'} |`);
	lines.push('');
	lines.push(`Total bench time: ${results.totalSeconds} s.`, '');
	return lines.join('\n');
}

/** Entry point: a measurement case in a child process (`--case <json>`), else the whole bench. */
export function run(): void {
	const caseArg = process.argv.indexOf('--case');
	const work =
		caseArg >= 0
			? runCase(JSON.parse(process.argv[caseArg + 1]) as CaseSpec).then((result) => {
					process.stdout.write(`${JSON.stringify({ result })}\n`);
					process.exit(0);
				})
			: main();
	work.catch((error: Error) => {
		process.stderr.write(`${error.stack ?? error.message}\n`);
		process.exit(1);
	});
}

// Children are started on this file (see `__filename` above).
if (require.main === module) run();
