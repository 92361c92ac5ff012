/**
 * What `npm run bench` writes: bench/results.json (Results) and bench/results.md (markdown), with
 * the targets checked against the measured rows.
 */
import type { BurstRow } from './burst';
import { burstMarkdown } from './burst';
import type { LoadResult, TriggerResult } from './cases';
import type { ExportRow } from './export';
import { exportMarkdown } from './export';
import { round } from './measure';
import type { PeerResult } from './peer';
import { peerMarkdown } from './peer';
import type { NetworkResults } from './network';
import { networkMarkdown } from './network';
import type { Measured } from './rounds';
import { LATENCY_MS, RATE_LIMIT } from './settings';

export interface TargetCheck {
	name: string;
	goal: string;
	measured: string;
	met: boolean;
}

export function targetsOf(rows: Measured[], reference: string | undefined): TargetCheck[] {
	const out: TargetCheck[] = [];
	const row = (id: string) => rows.find((r) => r.id === id);
	const check = (name: string, measured: number | undefined, goal: number) => {
		if (measured !== undefined)
			out.push({
				name,
				goal: `<= ${goal}`,
				measured: String(measured),
				met: measured <= goal,
			});
	};
	const loop = row('loopback/node-default');
	check('Return All, 1,000 a page / keep-alive loop in n8n (loopback)', loop?.vsKeepAlive, 1.1);
	check('Return All, 1,000 a page / helper loop (loopback)', loop?.vsHelper, 0.8);
	check('Extra RSS, 1,000 a page / keep-alive loop in n8n (loopback)', loop?.rssVsKeepAlive, 1.1);
	check('Return All, 100 a page / helper loop (loopback, a capped platform)', row('loopback-100/node-default')?.vsHelper, 1);
	check(`Return All, 1,000 a page / keep-alive loop (${LATENCY_MS} ms per answer)`, row('latency/node-default')?.vsFloor, 0.4);
	const limited = row('rate-limit/node-default');
	if (limited?.achievedPerSecond !== undefined) {
		const failed =
			limited.errors +
			Object.entries(limited.statuses)
				.filter(([s]) => s !== '200' && s !== '429')
				.reduce((n, [, c]) => n + c, 0);
		out.push({
			name: `Under ${RATE_LIMIT} requests/s per key: failed runs and requests; achieved rate (successful requests per second of wall time)`,
			goal: `0 failed; >= ${RATE_LIMIT * 0.9}/s`,
			measured: `${failed} failed (${limited.statuses['429'] ?? 0} answers 429 retried over ${limited.runs} runs); ${limited.achievedPerSecond}/s (${Math.round((limited.ofAllowed ?? 0) * 100)}% of what the bucket allowed in that time)`,
			met: failed === 0 && (limited.achievedPerSecond ?? 0) >= RATE_LIMIT * 0.9,
		});
	}
	for (const scenario of ['loopback', 'loopback-100', 'latency']) {
		const before = row(`${scenario}/against-default`);
		const after = row(`${scenario}/node-default`);
		if (before && after) {
			out.push({
				name: `Return All, default settings, this build / ${before.settings} (${scenario}; wall time, CPU time)`,
				goal: '<= 1.03',
				measured: `${round(after.wallMs / before.wallMs)} (${after.wallMs} / ${before.wallMs} ms); CPU ${round(after.cpuMs / before.cpuMs)}`,
				met: after.wallMs / before.wallMs <= 1.03,
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

export type Results = {
	generatedAt: string;
	machine: {
		cpus: number;
		cpuModel: string;
		memoryGb: number;
		node: string;
		platform: string;
	};
	settings: {
		movements: number;
		repeats: number;
		defaultPageSize: number;
		maxPageSize: number;
		simulatorMaxLimit: number;
		latencyMs: number;
		rateLimitPerSecond: number;
		deliveries: number;
		/** `--against <ref>`: that commit's build, alternated with this one. */
		against?: string;
		nodeRequest: { headers: string[]; body: string };
	};
	list: Array<Measured & { sameOutput: boolean }>;
	trigger: TriggerResult | { skipped: string };
	/** The burst into a real n8n (burst.ts); absent with --lists-only. */
	burst?: BurstRow[];
	exports: ExportRow[];
	/** The peer rows (peer.ts); absent with --lists-only. */
	peer?: PeerResult;
	/** The network scenario (network.ts); absent with --lists-only. */
	network?: NetworkResults;
	/** Absent with --lists-only. */
	package?: { tarballBytes: number; files: number } & LoadResult;
	targets: TargetCheck[];
	loadAverage: { start: number[]; end: number[] };
	totalSeconds: number;
};

/** With --against: the ref's build and this one side by side, per scenario (medians of the same rounds). */
function againstTable(results: Results): string[] {
	const pairs: Array<{ ref: Measured; now: Measured }> = [];
	for (const ref of results.list.filter((r) => r.id.endsWith('/against-default'))) {
		const now = results.list.find((r) => r.id === ref.id.replace('/against-default', '/node-default'));
		if (now) pairs.push({ ref, now });
	}
	if (pairs.length === 0) return [];
	const ratios = (r: Measured) => [r.vsKeepAlive ?? '', r.vsHelper ?? '', r.vsFloor ?? ''].join(' | ');
	const lines = [
		`Side by side (\`--against ${results.settings.against}\`): Return All with default settings, both builds in the same alternating rounds.`,
		'',
		'| Scenario | Page size | Build | Median (ms) | Fastest-slowest | CPU (ms) | RSS Δ (MB) | / keepAlive | / helperLoop | / floor | this / ref |',
		'|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
	];
	for (const { ref, now } of pairs) {
		const builds: Array<[string, Measured]> = [
			[ref.settings.replace(/ default \(auto\)$/, ''), ref],
			['this build', now],
		];
		for (const [label, r] of builds) {
			const scenario = r.latencyMs ? `${r.latencyMs} ms per answer` : r.scenario;
			lines.push(
				`| ${scenario} | ${r.pageSize} | ${label} | ${r.wallMs} | ${Math.min(...r.runsMs)}-${Math.max(...r.runsMs)} | ${r.cpuMs} | ${r.rssDeltaMb} | ${ratios(r)} | ${r === now ? round(now.wallMs / ref.wallMs) : ''} |`,
			);
		}
	}
	lines.push('');
	return lines;
}

export function markdown(results: Results): string {
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
		...(settings.against
			? [`- **${settings.against}**: the package built from that commit (\`--against\`), alternated with this one in the same rounds.`]
			: []),
		'',
		`The list cases read pages rendered once by the simulator and served by a minimal \`node:http\` server (keep-alive; per request ` +
			`it checks the API key and writes a ready buffer; 20 ms per answer is its own timer), so a row shows the client's cost; ` +
			`the rate-limit row reads the simulator itself (its token bucket).`,
		'',
	);
	lines.push(...againstTable(results));
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
		"| Trigger: node.webhook() through n8n-core's WebhookContext (the harness reads and writes the static data per request, as n8n) | Deliveries | Total (ms) | Per delivery (µs) | Of it in node.webhook() (µs) |",
		'|---|---:|---:|---:|---:|',
	);
	if ('skipped' in results.trigger) lines.push(`| skipped: ${results.trigger.skipped} | | | | |`);
	else {
		const t = results.trigger;
		const row = (label: string, d: typeof t.good) => `| ${label} | ${d.deliveries} | ${d.totalMs} | ${d.perDeliveryUs} | ${d.nodeUs ?? ''} |`;
		lines.push(row('Genuine secret (secret check, event filter, duplicates, one item emitted)', t.good));
		lines.push(row('Forged secret (secret check, answered 401)', t.forged));
		if (t.against) lines.push(row(`${t.against.label}: genuine secret`, t.against.good), row(`${t.against.label}: forged secret`, t.against.forged));
	}
	lines.push('');
	lines.push(...burstMarkdown(results.burst));
	lines.push(...exportMarkdown(results.exports));
	lines.push(...peerMarkdown(results.peer));
	lines.push(...networkMarkdown(results.network));
	const p = results.package;
	if (p) {
		lines.push('| Package | Value |', '|---|---:|');
		lines.push(`| npm pack tarball | ${(p.tarballBytes / 1024).toFixed(1)} KB, ${p.files} files |`);
		lines.push(`| require() of dist/nodes/SalesPayments/SalesPayments.node.js, n8n-workflow already loaded (${p.modules} modules) | ${p.requireMs} ms |`);
		lines.push(`| new SalesPayments() and its description (${p.properties} properties) | ${p.constructMs} ms |`);
		lines.push(`| require() of n8n-workflow itself, for scale | ${p.n8nWorkflowRequireMs} ms |`);
		lines.push('');
	}
	lines.push('| Target | Goal | Measured | Met |', '|---|---|---|:---:|');
	for (const t of results.targets) lines.push(`| ${t.name} | ${t.goal} | ${t.measured} | ${t.met ? 'yes' : 'no'} |`);
	lines.push('');
	lines.push(`Total bench time: ${results.totalSeconds} s.`, '');
	return lines.join('\n');
}
