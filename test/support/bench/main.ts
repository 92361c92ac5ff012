/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
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
 * 3. With `--against <git ref>`: the node's default cases on the package built from that commit
 *    (in a temporary git worktree, by its own `npm run build`), alternated with this build's in the
 *    same rounds and shown side by side, for an honest before/after of every paging or transport
 *    change.
 * 4. The trigger's cost per delivery (secret check + emit) over 10,000 deliveries through
 *    n8n-core's WebhookContext, good and forged secrets.
 * 4b. The Black-Friday burst into a real n8n 2.8.4 (burst.ts): 2,000 order.paid notifications from
 *    20 senders, every 10th twice; executions per notification, doubles, losses, rate, p99, RSS.
 * 5. The packed tarball's size and the time to load the action node's module.
 * 6. Exports: 1,000,000 movements to a CSV, a JSON Lines and an .xlsx file against the same to
 *    items (export.ts).
 * 7. The peer a user would pick instead (peer.ts): HTTP Request with Pagination + Split Out (+ Convert
 *    to File) against Get Many (items, CSV, Excel) in a real n8n 2.8.4, 100,000 movements.
 * 8. Network: Return All over HTTPS through a latency proxy (RTT 0, 20, 200 ms) against the helper
 *    loop, the helper loop 8 at a time and 8 kept-alive connections (network.ts).
 *
 * The simulator runs in this process; every measurement runs in a fresh child process
 * (cases.ts, measure.ts), so that memory numbers are its own. The cases of a group are run in
 * alternating rounds (the order rotates every round) and each figure is the median of the rounds
 * (rounds.ts), so that other work on a shared machine weighs on every case alike; the spread
 * (fastest-slowest) and the load average are kept with the results (report.ts).
 * Every loop is bounded and every child has a time limit.
 * The list cases read pre-rendered pages from a minimal server (pages.ts), not the simulator, so
 * that the rows show the client's cost; the rate-limit group reads the simulator.
 * Options: --quick (1 round, fewer cases), --no-build, --repeats N (rounds, default 5),
 * --against <git ref> (--baseline: its earlier name), --lists-only (steps 1-4, no trigger, export or package),
 * --profile <dir> (a V8 CPU profile of each list case's measured work, last round, in <dir>),
 * --only export (the export rows only, with --against that build's beside them: they replace those of bench/results.json, whose other rows
 * stay as the last full run measured them), --only peer, --only network, --only burst (the same
 * for the peer, the network or the burst rows; --rtt 200 or --rtt 20,200 picks round trips; the
 * burst with --against measures that ref's build too), --only burst-options (4,000 distinct
 * notifications with Ignore Duplicate Deliveries off, on, and on with a Notification ID Field, in
 * turn, --repeats rounds up to 3; printed only); with --only network, --part lists,platforms,items
 * picks its parts: the lists at each RTT, the difficult platforms (platforms.ts: rate limit, overload,
 * faults, or one of them: rate, overload, faults) and the per-item cases (perItem.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import type { Anchor } from './anchors';
import type { Client, ListSpec, LoadResult, Target, TriggerResult } from './cases';
import { runCommand } from '../command';
import { benchBurst, benchBurstOptions, burstMarkdown } from './burst';
import type { ExportRow } from './export';
import { exportMarkdown, measureExports } from './export';
import { measureNetwork, networkMarkdown } from './network';
import type { Results } from './report';
import { markdown, targetsOf } from './report';
import { measurePeers, peerMarkdown } from './peer';
import type { PageServer } from './pages';
import { startPageServer } from './pages';
import type { CaseDef, Measured, Platform } from './rounds';
import { ANCHOR_LABELS, captureNodeRequest, runCaseChild, runGroup, simulatorPlatform } from './rounds';
import { DELIVERIES, LATENCY_MS, MOVEMENTS, OUT_DIR, RATE_LIMIT, REPO_DIR } from './settings';

/**
 * `--against <ref>`: the package of that commit, built in a temporary git worktree (in
 * os.tmpdir(), removed at the end) by its own `npm run build`; `node_modules` is a link to this
 * repository's, so both builds load the same n8n-workflow and n8n-core. Its node cases run in the
 * same rounds as this build's, alternating with them.
 */
function buildAgainst(ref: string, log: (line: string) => void): { dir: string; sha: string; remove: () => void } {
	const sha = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], {
		cwd: REPO_DIR,
	})
		.toString()
		.trim();
	const dir = mkdtempSync(path.join(os.tmpdir(), `sp-bench-against-${sha}-`));
	const remove = () => {
		try {
			execFileSync('git', ['worktree', 'remove', '--force', dir], {
				cwd: REPO_DIR,
				stdio: 'ignore',
			});
		} catch {
			rmSync(dir, { recursive: true, force: true });
			execFileSync('git', ['worktree', 'prune'], {
				cwd: REPO_DIR,
				stdio: 'ignore',
			});
		}
	};
	log(`building ${ref} (${sha}) in a temporary worktree ${dir}...`);
	try {
		execFileSync('git', ['worktree', 'add', '--detach', dir, sha], {
			cwd: REPO_DIR,
			stdio: 'ignore',
		});
		symlinkSync(realpathSync(path.join(REPO_DIR, 'node_modules')), path.join(dir, 'node_modules'), 'dir');
		execFileSync('npm', ['run', 'build', '--silent'], {
			cwd: dir,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
	} catch (error) {
		remove();
		throw error;
	}
	return { dir, sha, remove };
}

/** The packed tarball's size and the time to load the action node's module (best of 3 fresh processes). */
async function packageFigures(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<NonNullable<Results['package']>> {
	const { packPackage } = await import('../n8n-install');
	const tarball = await packPackage();
	const tarballBytes = statSync(tarball).size;
	const files = execFileSync('tar', ['-tzf', tarball]).toString().trim().split('\n').length;
	rmSync(path.dirname(tarball), { recursive: true, force: true });
	const loads: LoadResult[] = [];
	for (let n = 0; n < 3; n++) loads.push(await runCaseChild<LoadResult>({ kind: 'load' }, env));
	const load = {
		requireMs: Math.min(...loads.map((l) => l.requireMs)),
		constructMs: Math.min(...loads.map((l) => l.constructMs)),
		n8nWorkflowRequireMs: Math.min(...loads.map((l) => l.n8nWorkflowRequireMs)),
		properties: loads[0].properties,
		modules: loads[0].modules,
	};
	log(`package: ${tarballBytes} bytes, ${files} files; load ${JSON.stringify(load)}`);
	return { tarballBytes, files, ...load };
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const quick = args.includes('--quick');
	const listsOnly = args.includes('--lists-only');
	const option = (name: string) => {
		const at = args.indexOf(name);
		return at >= 0 ? args[at + 1] : undefined;
	};
	const repeats = option('--repeats') ? Math.max(1, Math.min(15, Number(option('--repeats')) || 5)) : quick ? 1 : 5;
	// --baseline is the earlier name of --against.
	const againstRef = option('--against') ?? option('--baseline');
	const profileDir = option('--profile');
	if (profileDir) mkdirSync(profileDir, { recursive: true });
	const started = performance.now();
	// Other work on the machine shows in the timings: the load average is kept with the results.
	const loadAtStart = os.loadavg().map((n) => Math.round(n * 100) / 100);
	const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0)}s] ${line}\n`);

	if (!args.includes('--no-build')) {
		log('building the package (npm run build)...');
		execFileSync('npm', ['run', 'build', '--silent'], {
			cwd: REPO_DIR,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
	}
	// The built package's own constants (what users run), never the source tree.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } = require(path.join(REPO_DIR, 'dist/nodes/SalesPayments/paging/pages.js')) as {
		DEFAULT_PAGE_SIZE: number;
		MAX_PAGE_SIZE: number;
	};
	if (option('--only') === 'export') {
		// With --against, that build's export rows beside this one's, in the same rounds.
		const builtExport = againstRef ? buildAgainst(againstRef, log) : undefined;
		const againstExport = builtExport && againstRef ? { dir: builtExport.dir, label: againstRef.startsWith(builtExport.sha) ? builtExport.sha : `${againstRef}@${builtExport.sha}` } : undefined;
		let exportRows: ExportRow[];
		try {
			exportRows = await measureExports({ repeats: Math.min(repeats, 3), log, env: { ...process.env, NODE_ENV: 'production' }, records: quick ? 100_000 : undefined, against: againstExport });
		} finally {
			builtExport?.remove();
		}
		const file = path.join(OUT_DIR, 'results.json');
		const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Results) : undefined;
		if (previous) {
			const results: Results = { ...previous, exports: exportRows };
			writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
			writeFileSync(path.join(OUT_DIR, 'results.md'), markdown(results));
			log('wrote the export rows into bench/results.json and bench/results.md');
		}
		process.stdout.write(`${exportMarkdown(exportRows).join('\n')}\n`);
		return;
	}
	if (option('--only') === 'peer') {
		// The peer rows (issue 40, peer.ts) replace those of bench/results.json; its other rows stay.
		const peer = await measurePeers({ repeats: Math.min(repeats, 3), log });
		const file = path.join(OUT_DIR, 'results.json');
		if (existsSync(file)) {
			const results: Results = { ...(JSON.parse(readFileSync(file, 'utf8')) as Results), peer };
			writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
			writeFileSync(path.join(OUT_DIR, 'results.md'), markdown(results));
			log('wrote the peer rows into bench/results.json and bench/results.md');
		}
		process.stdout.write(`${peerMarkdown(peer).join('\n')}\n`);
		return;
	}
	const built = againstRef ? buildAgainst(againstRef, log) : undefined;
	// "main@abc1234", or the commit alone when the ref is one.
	const against = built && againstRef ? { ...built, label: againstRef.startsWith(built.sha) ? built.sha : `${againstRef}@${built.sha}` } : undefined;
	if (option('--only') === 'burst-options') {
		// What the option costs in a real n8n (burst.ts): printed, bench/results.json is left as it is.
		const rows = await benchBurstOptions({ quick, rounds: Math.min(repeats, 3), log });
		process.stdout.write(`${burstMarkdown(rows).join('\n')}\n`);
		return;
	}
	if (option('--only') === 'burst') {
		// The burst rows only (burst.ts): they replace those of bench/results.json, whose other rows stay.
		try {
			const rows = await benchBurst({ against, quick, log });
			const file = path.join(OUT_DIR, 'results.json');
			if (existsSync(file)) {
				const results: Results = { ...(JSON.parse(readFileSync(file, 'utf8')) as Results), burst: rows };
				writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
				writeFileSync(path.join(OUT_DIR, 'results.md'), markdown(results));
			}
			process.stdout.write(`${burstMarkdown(rows).join('\n')}\n`);
		} finally {
			against?.remove();
		}
		return;
	}
	const { startSimulator } = await import('../simulator/server');
	const { addMovements } = await import('../simulator/routes/financials');

	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'sp-bench-'));
	const env = {
		...process.env,
		N8N_USER_FOLDER: userFolder,
		NODE_ENV: 'production',
	};
	const sim = await startSimulator();
	let pages: PageServer | undefined;
	try {
		const target: Target = sim.credentials;
		const existing = sim.state.col('movements').filter((m) => m._businessId === target.businessId).length;
		addMovements(sim, target.businessId, MOVEMENTS - existing);
		log(`simulator on ${sim.url} with ${MOVEMENTS} movements for the primary business (max limit ${sim.maxLimit})`);
		const request = await captureNodeRequest(target, env, sim, DEFAULT_PAGE_SIZE);
		log(`the node's list request: headers ${Object.keys(request.headers).sort().join(', ')}; body ${request.body}`);
		// The list cases read pre-rendered pages (pages.ts); the rate-limit group reads the simulator (its token bucket).
		pages = await startPageServer(sim.url, request.headers, request.body, target.apiKey);
		await pages.render(DEFAULT_PAGE_SIZE, MOVEMENTS);
		await pages.render(100, MOVEMENTS);
		const server = pages;
		const pagesTarget: Target = { ...target, baseUrl: server.url };
		const pagesPlatform: Platform = {
			clear: () => server.clear(),
			statuses: () => server.statuses,
		};
		log(`pre-rendered pages of ${DEFAULT_PAGE_SIZE} and 100 served on ${server.url}`);
		// 8. The network scenario (network.ts), on the same pages behind TLS and a latency proxy.
		const network = () =>
			measureNetwork({
				pages: server,
				target,
				request,
				env,
				repeats: Math.min(repeats, 3),
				log,
				...(against ? { against } : {}),
				...(option('--rtt') ? { rtts: String(option('--rtt')).split(',').map(Number) } : {}),
				...(option('--part') ? { parts: String(option('--part')).split(',') as Array<'lists' | 'platforms' | 'items' | 'short' | 'rate' | 'overload' | 'faults'> } : {}),
				...(profileDir ? { profileDir: path.resolve(profileDir) } : {}),
			});
		if (option('--only') === 'network') {
			const results = await network();
			const file = path.join(OUT_DIR, 'results.json');
			if (existsSync(file)) {
				const previous = JSON.parse(readFileSync(file, 'utf8')) as Results;
				writeFileSync(file, `${JSON.stringify({ ...previous, network: results }, null, 2)}\n`);
				writeFileSync(path.join(OUT_DIR, 'results.md'), markdown({ ...previous, network: results }));
				log('wrote the network rows into bench/results.json and bench/results.md');
			}
			process.stdout.write(`${networkMarkdown(results).join('\n')}\n`);
			return;
		}

		const list = (client: Client, pageSize: number, extra: Partial<ListSpec> = {}): ListSpec => ({
			kind: 'list',
			client,
			target: pagesTarget,
			pageSize,
			expected: MOVEMENTS,
			...request,
			...extra,
		});
		const nodeCases = (scenario: string, pageSize: number, fixed: number[]): CaseDef[] => [
			{
				id: `${scenario}/node-default`,
				scenario,
				settings: 'default (auto)',
				spec: list('node', pageSize),
			},
			...fixed.map((n) => ({
				id: `${scenario}/node-${n}`,
				scenario,
				settings: `fixed ${n}`,
				spec: list('node', pageSize, { concurrency: n }),
			})),
			...(against
				? [
						{
							id: `${scenario}/against-default`,
							scenario,
							settings: `${against.label} default (auto)`,
							spec: list('node', pageSize, { packageDir: against.dir }),
						},
					]
				: []),
		];
		const rows: Measured[] = [];
		const group = async (name: string, cases: CaseDef[], meta: { latencyMs: number; rateLimit?: number }, runs = repeats, platform = pagesPlatform) => {
			log(`${name}: ${cases.map((c) => c.id).join(', ')} x ${runs} rounds`);
			rows.push(...(await runGroup(cases, runs, env, platform, { ...meta, ...(profileDir ? { profileDir: path.resolve(profileDir) } : {}) }, log)));
		};

		const anchors = (scenario: string, pageSize: number, which: Array<'floor' | Anchor>): CaseDef[] =>
			which.map((client) => ({
				id: `${scenario}/${client}`,
				scenario,
				settings: ANCHOR_LABELS[client],
				spec: list(client, pageSize),
			}));
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
		server.latencyMs = LATENCY_MS;
		await group('latency', [...anchors('latency', DEFAULT_PAGE_SIZE, ['floor', 'helperLoop']), ...nodeCases('latency', DEFAULT_PAGE_SIZE, quick ? [] : [1])], {
			latencyMs: LATENCY_MS,
		});
		server.latencyMs = 0;
		// 4. Under the platform's rate limit of 20 requests/s per key.
		await group(
			'rate-limit',
			[
				{
					id: 'rate-limit/node-default',
					scenario: `rate limit ${RATE_LIMIT}/s`,
					settings: 'default (auto)',
					spec: list('node', DEFAULT_PAGE_SIZE, { target }),
				},
			],
			{ latencyMs: 0, rateLimit: RATE_LIMIT },
			Math.min(repeats, 3),
			simulatorPlatform(sim, RATE_LIMIT),
		);

		const networkRows = listsOnly ? undefined : await network();

		// 5. Trigger deliveries.
		let trigger: TriggerResult | { skipped: string } = {
			skipped: '--lists-only',
		};
		if (!listsOnly)
			try {
				const runs: TriggerResult[] = [];
				const againstRuns: TriggerResult[] = [];
				const best = (list: TriggerResult[]) => ({
					good: list.map((r) => r.good).reduce((a, b) => (b.totalMs < a.totalMs ? b : a)),
					forged: list.map((r) => r.forged).reduce((a, b) => (b.totalMs < a.totalMs ? b : a)),
				});
				for (let n = 0; n < Math.min(repeats, 3); n++) {
					runs.push(await runCaseChild<TriggerResult>({ kind: 'trigger', target, deliveries: DELIVERIES }, env));
					// With --against, that build's deliveries through the same harness, alternated.
					if (against) againstRuns.push(await runCaseChild<TriggerResult>({ kind: 'trigger', target, deliveries: DELIVERIES, packageDir: against.dir }, env));
				}
				trigger = { ...best(runs), ...(against ? { against: { label: against.label, ...best(againstRuns) } } : {}) };
				log(`trigger: ${JSON.stringify(trigger)}`);
			} catch (error) {
				trigger = { skipped: (error as Error).message.slice(0, 300) };
				log(`trigger case skipped: ${trigger.skipped}`);
			}

		// 4b. The burst into a real n8n (issue 39, burst.ts).
		const burst = listsOnly ? undefined : await benchBurst({ against, quick, log });

		// 6. Exports (issue 24): 1,000,000 movements to CSV against the same to items (export.ts, its own simulator).
		const exportRows = listsOnly
			? []
			: await measureExports({
					repeats: Math.min(repeats, 3),
					log,
					env,
					records: quick ? 100_000 : undefined,
				});

		// 7. The peer a user would pick (issue 40): HTTP Request + Split Out (+ Convert to File) in a real n8n (peer.ts).
		const peer = listsOnly ? undefined : await measurePeers({ repeats: Math.min(repeats, 3), log });

		// 9. Package size and module load time.
		const pkg = listsOnly ? undefined : await packageFigures(env, log);

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
				...(against ? { against: against.label } : {}),
				nodeRequest: {
					headers: Object.keys(request.headers).sort(),
					body: request.body,
				},
			},
			list: rows.map((r) => ({
				...r,
				sameOutput: r.errors === 0 && r.digest === reference,
			})),
			trigger,
			...(burst ? { burst } : {}),
			exports: exportRows,
			...(peer ? { peer } : {}),
			...(networkRows ? { network: networkRows } : {}),
			...(pkg ? { package: pkg } : {}),
			targets: targetsOf(rows, reference),
			loadAverage: {
				start: loadAtStart,
				end: os.loadavg().map((n) => Math.round(n * 100) / 100),
			},
			totalSeconds: Math.round((performance.now() - started) / 1000),
		};
		mkdirSync(OUT_DIR, { recursive: true });
		writeFileSync(path.join(OUT_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
		writeFileSync(path.join(OUT_DIR, 'results.md'), markdown(results));
		log(`wrote bench/results.json and bench/results.md in ${results.totalSeconds} s`);
	} finally {
		await pages?.close();
		await sim.close();
		against?.remove();
		rmSync(userFolder, { recursive: true, force: true });
	}
}

runCommand(module, main);
