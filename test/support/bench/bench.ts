/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * `npm run bench`: measures the package on this machine and writes bench/results.json and
 * bench/results.md.
 *
 * 1. Return All of 100,000 movements (Movement > Get Many) executed by n8n-core (the built
 *    package run as test/support/harness/n8n.ts runNodes() runs it, without its secret audit: see
 *    n8n-run.ts) against the simulator on loopback, vs a plain sequential axios loop with
 *    a keep-alive agent requesting the same pages: wall time, ratio, peak memory (RSS and heap
 *    above the level before the work), over several page sizes;
 * 2. the same with 20 ms of latency per request, sequential and with Max Concurrent Requests;
 * 3. the trigger's cost per delivery (secret check + emit) over 10,000 deliveries through
 *    n8n-core's WebhookContext, good and forged secrets;
 * 4. the packed tarball's size and the time to load the action node's module.
 *
 * The simulator runs in this process; every measurement runs in a fresh child process
 * (`tsx test/support/bench/bench.ts --case <json>`) so that memory numbers are its own, and is repeated
 * (best time of 3 runs; memory is the median of the runs). Every loop is bounded, every child
 * has a time limit, and the optional cases are skipped when time runs short.
 * Options: --quick (1 run, fewer cases), --no-build, --repeats N.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import axios from 'axios';

import type { Simulator } from '../simulator/server';

const REPO_DIR = path.resolve(__dirname, '../../..');
const OUT_DIR = path.join(REPO_DIR, 'bench');
const MOVEMENTS = 100_000;
const LATENCY_MS = 20;
const DELIVERIES = 10_000;
/** A child that takes longer than this is killed (and the bench fails). */
const CHILD_TIMEOUT_MS = 120_000;
/** Optional cases start only before this much time has passed, to end well within 10 minutes. */
const OPTIONAL_CASES_BEFORE_MS = 5 * 60_000;

// ---------------------------------------------------------------------------------------------
// Cases (run in child processes)
// ---------------------------------------------------------------------------------------------

export interface Target {
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
	businessId: string;
}

type CaseSpec =
	| { kind: 'list'; client: 'node' | 'raw'; target: Target; pageSize: number; concurrency: number; expected: number }
	| { kind: 'trigger'; target: Target; deliveries: number }
	| { kind: 'load' };

interface Memory {
	/** Highest resident set size during the measured work, minus the RSS just before it (MB). */
	rssDeltaMb: number;
	/** Highest V8 heap use during the measured work, minus the heap use just before it (MB). */
	heapDeltaMb: number;
}

interface ListResult extends Memory {
	wallMs: number;
	items: number;
	requests: number;
	/** sha256 of the record ids in output order: equal outputs have equal digests. */
	digest: string;
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

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Samples memory while `work` runs and returns its peak use above the level before it. */
async function measureMemory<T>(work: () => Promise<T>): Promise<{ value: T; memory: Memory; wallMs: number }> {
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
	const timer = setInterval(sample, 5);
	const started = performance.now();
	let value: T;
	try {
		value = await work();
	} finally {
		clearInterval(timer);
	}
	const wallMs = performance.now() - started;
	sample();
	// The kernel's high-water mark is exact when the work raised it.
	const maxRssAfter = process.resourceUsage().maxRSS * 1024;
	if (maxRssAfter > maxRssBefore) peakRss = Math.max(peakRss, maxRssAfter);
	const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
	return {
		value,
		wallMs,
		memory: { rssDeltaMb: mb(peakRss - before.rss), heapDeltaMb: mb(peakHeap - before.heapUsed) },
	};
}

function digestOf(ids: unknown[]): string {
	const hash = createHash('sha256');
	for (const id of ids) hash.update(`${String(id)}\n`);
	return hash.digest('hex');
}

/** The plain loop: one keep-alive connection, the same pages, the records kept in one array. */
async function rawList(target: Target, pageSize: number, limitPages = 10_000): Promise<{ items: unknown[]; requests: number }> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	const client = axios.create({
		baseURL: target.baseUrl,
		httpAgent: agent,
		headers: { 'x-api-key': target.apiKey, 'x-api-secret': target.apiSecret, 'business-id': target.businessId },
	});
	const items: unknown[] = [];
	let requests = 0;
	try {
		for (let page = 1; page <= limitPages; page++) {
			const { data } = await client.post('/movement/filter', {}, { params: { page: String(page), limit: String(pageSize) } });
			requests++;
			const records = data.data.movements as unknown[];
			for (const r of records) items.push(r);
			if (records.length === 0 || items.length >= Number(data.data.count)) break;
		}
	} finally {
		agent.destroy();
	}
	return { items, requests };
}

async function nodeList(target: Target, pageSize: number, concurrency: number, limit?: number) {
	const parameters = {
		resource: 'movement',
		operation: 'getMany',
		output: 'records',
		returnAll: limit === undefined,
		...(limit === undefined ? {} : { limit }),
		pagination: { pageSize, maxConcurrency: concurrency },
	};
	// A static import there: a dynamic import of n8n-workflow here would load its ESM build,
	// a second copy beside the CommonJS one that n8n-core uses.
	const { executeNode } = await import('./n8n-run');
	return await executeNode(parameters, { ...target });
}

async function runListCase(spec: Extract<CaseSpec, { kind: 'list' }>): Promise<ListResult> {
	const { target, pageSize, concurrency } = spec;
	// Warm-up (module loading, JIT) outside the measurement.
	if (spec.client === 'node') await nodeList(target, 10, 1, 10);
	else await rawList(target, 10, 1);
	const { value, memory, wallMs } = await measureMemory(async () => {
		if (spec.client === 'raw') return { items: (await rawList(target, pageSize)).items };
		return { items: await nodeList(target, pageSize, concurrency) };
	});
	const ids =
		spec.client === 'raw'
			? (value.items as Array<{ id: string }>).map((r) => r.id)
			: (value.items as Array<{ json: { id: string } }>).map((i) => i.json.id);
	if (ids.length !== spec.expected) throw new Error(`${spec.client} returned ${ids.length} records, expected ${spec.expected}`);
	// `requests` is filled in by the parent from the simulator's record.
	return { wallMs: Math.round(wallMs), ...memory, items: ids.length, requests: 0, digest: digestOf(ids) };
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
	return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Runs a case `repeats` times: the best time and the median memory. */
async function repeatList(
	spec: CaseSpec,
	repeats: number,
	env: NodeJS.ProcessEnv,
	sim: Simulator,
): Promise<ListResult & { runsMs: number[] }> {
	const runs: ListResult[] = [];
	for (let n = 0; n < repeats; n++) {
		sim.clearRequests();
		const run = await runChild<ListResult>(spec, env);
		// Minus the warm-up request.
		run.requests = sim.requestsTo('POST', '/movement/filter').length - 1;
		runs.push(run);
	}
	sim.clearRequests();
	const digests = new Set(runs.map((r) => r.digest));
	if (digests.size !== 1) throw new Error('runs of the same case returned different records');
	const best = runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
	return {
		...best,
		rssDeltaMb: median(runs.map((r) => r.rssDeltaMb)),
		heapDeltaMb: median(runs.map((r) => r.heapDeltaMb)),
		runsMs: runs.map((r) => r.wallMs),
	};
}

interface ListRow {
	scenario: string;
	latencyMs: number;
	pageSize: number;
	concurrency: number;
	/** Child processes run for this row (best time kept). */
	runs: number;
	node: ListResult & { runsMs: number[] };
	raw?: ListResult & { runsMs: number[] };
	/** node time / raw time. */
	ratio?: number;
	/** node memory / raw memory (RSS delta). */
	memoryRatio?: number;
	/** sequential node time / this time (concurrency rows). */
	speedup?: number;
	sameOutput: boolean;
}

export async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const quick = args.includes('--quick');
	const repeatsArg = args.indexOf('--repeats');
	const repeats = repeatsArg >= 0 ? Math.max(1, Math.min(10, Number(args[repeatsArg + 1]) || 3)) : quick ? 1 : 3;
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
		// One full walk first, so that the simulator's filter cache is warm for every case.
		const check = await rawList(target, MAX_PAGE_SIZE);
		if (check.items.length !== MOVEMENTS) throw new Error(`the simulator serves ${check.items.length} movements`);

		const list = (client: 'node' | 'raw', pageSize: number, concurrency = 1): CaseSpec => ({
			kind: 'list',
			client,
			target,
			pageSize,
			concurrency,
			expected: MOVEMENTS,
		});
		const rows: ListRow[] = [];
		let reference: string | undefined;
		const addRow = (row: Omit<ListRow, 'sameOutput'>) => {
			reference ??= row.node.digest;
			const sameOutput = row.node.digest === reference && (!row.raw || row.raw.digest === reference);
			rows.push({ ...row, sameOutput });
			const raw = row.raw ? `, raw ${row.raw.wallMs} ms, ratio ${row.ratio}` : '';
			log(`${row.scenario}: node ${row.node.wallMs} ms${raw}${row.speedup ? `, speedup ${row.speedup}x` : ''}`);
		};
		const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
		const pair = async (scenario: string, latencyMs: number, pageSize: number, runs = repeats) => {
			const node = await repeatList(list('node', pageSize), runs, env, sim);
			const raw = await repeatList(list('raw', pageSize), runs, env, sim);
			addRow({
				scenario,
				latencyMs,
				pageSize,
				concurrency: 1,
				runs,
				node,
				raw,
				ratio: round(node.wallMs / raw.wallMs),
				memoryRatio: round(node.rssDeltaMb / Math.max(raw.rssDeltaMb, 0.1)),
			});
			return node;
		};
		const concurrent = async (pageSize: number, levels: number[], sequentialMs: number, runs = repeats) => {
			for (const concurrency of levels) {
				const node = await repeatList(list('node', pageSize, concurrency), runs, env, sim);
				addRow({
					scenario: 'latency, concurrent',
					latencyMs: LATENCY_MS,
					pageSize,
					concurrency,
					runs,
					node,
					speedup: round(sequentialMs / node.wallMs),
				});
			}
		};

		// 1. No added latency: node vs raw over several page sizes (the default among them).
		const sizes = [...new Set([100, ...(quick ? [] : [250, 500]), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE])].sort((a, b) => a - b);
		const loopback: Record<number, ListResult> = {};
		for (const size of sizes) loopback[size] = await pair('loopback', 0, size);
		// Max Concurrent Requests on loopback, against the same sequential raw loop.
		const base = rows.find((r) => r.scenario === 'loopback' && r.pageSize === DEFAULT_PAGE_SIZE);
		if (base?.raw) {
			const node = await repeatList(list('node', DEFAULT_PAGE_SIZE, 4), repeats, env, sim);
			addRow({
				scenario: 'loopback, node concurrent',
				latencyMs: 0,
				pageSize: DEFAULT_PAGE_SIZE,
				concurrency: 4,
				runs: repeats,
				node,
				raw: base.raw,
				ratio: round(node.wallMs / base.raw.wallMs),
				memoryRatio: round(node.rssDeltaMb / Math.max(base.raw.rssDeltaMb, 0.1)),
				speedup: round(loopback[DEFAULT_PAGE_SIZE].wallMs / node.wallMs),
			});
		}

		// 2. 20 ms per request: node vs raw at the default page size, then Max Concurrent Requests.
		sim.addFault({ kind: 'latency', latencyMs: LATENCY_MS, path: '/movement/filter' });
		const sequential = await pair('latency', LATENCY_MS, DEFAULT_PAGE_SIZE);
		await concurrent(DEFAULT_PAGE_SIZE, quick ? [4] : [2, 4, 8], sequential.wallMs);
		// At 100 per page round trips dominate (1,000 requests of 20 ms): one run each, within the budget.
		const skipped: string[] = [];
		if (!quick && DEFAULT_PAGE_SIZE !== 100 && performance.now() - started < OPTIONAL_CASES_BEFORE_MS) {
			const small = await pair('latency', LATENCY_MS, 100, 1);
			await concurrent(100, [4, 8], small.wallMs, 1);
		} else if (!quick) skipped.push('latency at 100 per page (time budget)');
		sim.faults.clear();

		// 3. Trigger deliveries.
		let trigger: TriggerResult | { skipped: string };
		try {
			const runs: TriggerResult[] = [];
			for (let n = 0; n < repeats; n++) runs.push(await runChild<TriggerResult>({ kind: 'trigger', target, deliveries: DELIVERIES }, env));
			trigger = {
				good: runs.map((r) => r.good).reduce((a, b) => (b.totalMs < a.totalMs ? b : a)),
				forged: runs.map((r) => r.forged).reduce((a, b) => (b.totalMs < a.totalMs ? b : a)),
			};
			log(`trigger: ${JSON.stringify(trigger)}`);
		} catch (error) {
			trigger = { skipped: (error as Error).message.slice(0, 300) };
			log(`trigger case skipped: ${trigger.skipped}`);
		}

		// 4. Package size and module load time.
		const { packPackage } = await import('../n8n');
		const tarball = await packPackage();
		const tarballBytes = statSync(tarball).size;
		const files = execFileSync('tar', ['-tzf', tarball]).toString().trim().split('\n').length;
		rmSync(path.dirname(tarball), { recursive: true, force: true });
		const loads: LoadResult[] = [];
		for (let n = 0; n < Math.max(3, repeats); n++) loads.push(await runChild<LoadResult>({ kind: 'load' }, env));
		const load = {
			requireMs: Math.min(...loads.map((l) => l.requireMs)),
			constructMs: Math.min(...loads.map((l) => l.constructMs)),
			n8nWorkflowRequireMs: Math.min(...loads.map((l) => l.n8nWorkflowRequireMs)),
			properties: loads[0].properties,
			modules: loads[0].modules,
		};
		log(`package: ${tarballBytes} bytes, ${files} files; load ${JSON.stringify(load)}`);

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
				deliveries: DELIVERIES,
			},
			list: rows,
			trigger,
			package: { tarballBytes, files, ...load },
			targets: targetsOf(rows, DEFAULT_PAGE_SIZE),
			skipped,
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

function targetsOf(rows: ListRow[], defaultPageSize: number): TargetCheck[] {
	const out: TargetCheck[] = [];
	const base = rows.find((r) => r.scenario === 'loopback' && r.pageSize === defaultPageSize);
	if (base?.ratio !== undefined && base.raw) {
		out.push({
			name: `Time, node / raw loop (loopback, default page size ${defaultPageSize})`,
			goal: '<= 1.15',
			measured: String(base.ratio),
			met: base.ratio <= 1.15,
		});
		const heapRatio = Math.round((base.node.heapDeltaMb / Math.max(base.raw.heapDeltaMb, 0.1)) * 100) / 100;
		out.push({
			name: 'Peak memory, node / raw loop (RSS delta; heap delta)',
			goal: '<= 2',
			measured: `${base.memoryRatio}; ${heapRatio}`,
			met: (base.memoryRatio ?? Infinity) <= 2 && heapRatio <= 2,
		});
	}
	const overlapped = rows.find((r) => r.scenario === 'loopback, node concurrent');
	if (overlapped?.ratio !== undefined) {
		out.push({
			name: `Time, node with Max Concurrent Requests ${overlapped.concurrency} / sequential raw loop (loopback, page size ${overlapped.pageSize})`,
			goal: '<= 1.15',
			measured: String(overlapped.ratio),
			met: overlapped.ratio <= 1.15,
		});
	}
	for (const seq of rows.filter((r) => r.scenario === 'latency')) {
		if (seq.ratio === undefined) continue;
		out.push({
			name: `Time, node / raw loop (${seq.latencyMs} ms latency, page size ${seq.pageSize})`,
			goal: '<= 1.15',
			measured: String(seq.ratio),
			met: seq.ratio <= 1.15,
		});
		const levels = rows.filter((r) => r.scenario === 'latency, concurrent' && r.pageSize === seq.pageSize);
		const best = levels.reduce<ListRow | undefined>((a, b) => (!a || (b.speedup ?? 0) > (a.speedup ?? 0) ? b : a), undefined);
		if (!best) continue;
		out.push({
			name: `Max Concurrent Requests vs sequential (${best.latencyMs} ms latency, page size ${best.pageSize}; best: ${best.concurrency})`,
			goal: '>= 2.5x, same output and order',
			measured: `${best.speedup}x; same output: ${levels.every((r) => r.sameOutput) ? 'yes' : 'no'}`,
			met: (best.speedup ?? 0) >= 2.5 && levels.every((r) => r.sameOutput),
		});
	}
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
		deliveries: number;
	};
	list: ListRow[];
	trigger: TriggerResult | { skipped: string };
	package: { tarballBytes: number; files: number } & LoadResult;
	targets: TargetCheck[];
	skipped: string[];
	loadAverage: { start: number[]; end: number[] };
	totalSeconds: number;
};

function markdown(results: Results): string {
	const { machine, settings } = results;
	const lines: string[] = [];
	lines.push('# Benchmark results', '');
	lines.push(
		`Generated by \`npm run bench\` on ${results.generatedAt.slice(0, 10)}: ${machine.cpus} cores (${machine.cpuModel}), ` +
			`${machine.memoryGb} GB, Node ${machine.node}; load average ${results.loadAverage.start[0]} at the start, ` +
			`${results.loadAverage.end[0]} at the end. The simulator runs in the bench process on 127.0.0.1 (max limit ` +
			`${settings.simulatorMaxLimit}); Return All of ${settings.movements.toLocaleString('en-US')} movements ` +
			`(Movement > Get Many). Each measurement runs in a fresh process; time is the best of the runs, memory the median ` +
			`(peak above the level before the work: RSS, and V8 heap used).`,
		'',
		`- **node**: the built package executed by n8n-core (WorkflowExecute, the harness' credentials helper), default ` +
			`page size ${settings.defaultPageSize}.`,
		'- **raw**: a sequential axios loop with a keep-alive agent requesting the same pages.',
		'',
	);
	lines.push(
		'| Scenario | Page size | Concurrent | Requests | Runs | Node (ms) | Raw (ms) | Node / raw | Speedup vs sequential | Node RSS Δ (MB) | Raw RSS Δ (MB) | Node heap Δ (MB) | Raw heap Δ (MB) | Same records, same order |',
	);
	lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|');
	for (const r of results.list) {
		const scenario = r.latencyMs ? `${r.scenario} (${r.latencyMs} ms)` : r.scenario;
		lines.push(
			`| ${scenario} | ${r.pageSize} | ${r.concurrency} | ${r.node.requests} | ${r.runs} | ${r.node.wallMs} | ${r.raw?.wallMs ?? ''} | ${r.ratio ?? ''} | ` +
				`${r.speedup ? `${r.speedup}x` : ''} | ${r.node.rssDeltaMb} | ${r.raw?.rssDeltaMb ?? ''} | ${r.node.heapDeltaMb} | ` +
				`${r.raw?.heapDeltaMb ?? ''} | ${r.sameOutput ? 'yes' : 'NO'} |`,
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
	if (results.skipped.length) lines.push(`Skipped: ${results.skipped.join('; ')}.`, '');
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
