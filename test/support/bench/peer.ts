/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The peer rows of `npm run bench` (issue 40, `--only peer`): what a user would build instead of
 * this package, in a real n8n 2.8.4, against the package's Movement › Get Many, over 100,000
 * movements of the simulator: HTTP Request v4.4 with its Pagination option + Split Out (+ Convert
 * to File to CSV or XLSX) against Get Many with Output items, CSV File or Excel File
 * (peer-workflows.ts). Every run is one webhook-started execution in a freshly started n8n
 * (peer-run.ts: n8n's own execution time, the time until n8n has saved it, the n8n process' peak
 * RSS and CPU, the platform requests); the six contenders alternate over the rounds (the order
 * rotates every round) and each figure is the median. Every run's output is read back (count,
 * ids in order, sum of valueInCents) and must equal the simulator's list.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';

import { listed } from '../helpers/reads';
import { N8nInstance } from '../n8n-process';
import { addMovements } from '../simulator/routes/financials';
import { startSimulator } from '../simulator/server';
import { median, round } from './measure';
import type { PeerRun } from './peer-run';
import { PeerSetup } from './peer-run';
import type { PeerContender } from './peer-workflows';
import { PEER_CONTENDERS, PEER_MAX_PAGES, PEER_PAGE_SIZE } from './peer-workflows';

/** n8n stops an execution after this (workflow setting); the bench gives up a little later. */
const EXECUTION_TIMEOUT_S = 600;
const RUN_DEADLINE_MS = (EXECUTION_TIMEOUT_S + 60) * 1000;

export interface PeerRow {
	id: string;
	label: string;
	client: PeerContender['client'];
	output: PeerContender['output'];
	runs: number;
	/** n8n's execution time (stoppedAt - startedAt), median and every run's. */
	executionMs: number;
	executionRunsMs: number[];
	/** From the webhook call to the execution saved, median. */
	savedMs: number;
	cpuMs: number;
	rssBeforeMb: number;
	peakRssMb: number;
	/** Peak RSS - RSS before, median of the runs' differences. */
	rssDeltaMb: number;
	/** The same within the execution's own span (its saving excluded, 100 ms samples). */
	executionRssDeltaMb: number;
	childrenPeakMb: number;
	requests: number;
	refusals: Record<string, number>;
	fileBytes?: number;
	/** Every run held the simulator's list: same count, ids in the same order, same total. */
	sameRecords: boolean;
	errors: string[];
	/** The package's row / HTTP Request's row of the same output (medians). */
	timeVsHttp?: number;
	peakVsHttp?: number;
	deltaVsHttp?: number;
}

export interface PeerResult {
	records: number;
	pageSize: number;
	rounds: number;
	n8nVersion: string;
	binaryDataMode: string;
	loadAverage: { start: number[]; end: number[]; perRound: number[] };
	rows: PeerRow[];
}

export async function measurePeers(options: { repeats: number; log: (line: string) => void; records?: number }): Promise<PeerResult> {
	const records = options.records ?? 100_000;
	const load = () => os.loadavg().map((n) => round(n));
	const loadStart = load();
	const sim = await startSimulator();
	const n8n = new N8nInstance();
	const runs = new Map<string, PeerRun[]>(PEER_CONTENDERS.map((c) => [c.id, []]));
	const perRound: number[] = [];
	try {
		const { businessId } = sim.credentials;
		const existing = sim.state.col('movements').filter((m) => m._businessId === businessId).length;
		addMovements(sim, businessId, records - existing);
		options.log(`peer: simulator on ${sim.url} with ${records.toLocaleString('en-US')} movements; preparing n8n ${n8n.target.version}...`);
		const setup = await PeerSetup.prepare(n8n, sim, { log: options.log, timeoutSeconds: EXECUTION_TIMEOUT_S });
		for (let r = 0; r < options.repeats; r++) {
			for (let k = 0; k < PEER_CONTENDERS.length; k++) {
				const c = PEER_CONTENDERS[(k + r) % PEER_CONTENDERS.length];
				const run = await setup.run(c, RUN_DEADLINE_MS);
				runs.get(c.id)!.push(run);
				options.log(
					`  peer ${c.id}: execution ${run.executionMs} ms, saved after ${run.savedMs} ms, CPU ${run.cpuMs} ms, RSS ${run.rssBeforeMb} -> ${run.peakRssMb} MB, ${run.requests} requests, ${run.records} records${run.error ? `, ERROR ${run.error}` : ''} (load ${os.loadavg()[0].toFixed(2)})`,
				);
			}
			perRound.push(round(os.loadavg()[0]));
			options.log(`  peer round ${r + 1}/${options.repeats} done (load ${perRound.at(-1)})`);
		}
		// What the platform holds, in the order it lists it (newest first): every run must output exactly this.
		const expected = expectedOf(listed(sim, 'movements'));
		const rows = PEER_CONTENDERS.map((c) => rowOf(c, runs.get(c.id)!, expected));
		for (const row of rows.filter((x) => x.client === 'package')) {
			const http = rows.find((x) => x.client === 'httpRequest' && x.output === row.output);
			if (!http) continue;
			row.timeVsHttp = round(row.executionMs / http.executionMs);
			row.peakVsHttp = round(row.peakRssMb / http.peakRssMb);
			row.deltaVsHttp = http.rssDeltaMb > 0 ? round(row.rssDeltaMb / http.rssDeltaMb) : undefined;
		}
		return {
			records,
			pageSize: PEER_PAGE_SIZE,
			rounds: options.repeats,
			n8nVersion: n8n.target.version,
			binaryDataMode: n8n.env().N8N_DEFAULT_BINARY_DATA_MODE ?? 'filesystem (n8n 2.8.4 default in regular mode)',
			loadAverage: { start: loadStart, end: load(), perRound },
			rows,
		};
	} finally {
		await n8n.stop();
		await sim.close();
		n8n.cleanup();
	}
}

function expectedOf(listed: Array<Record<string, unknown>>): { records: number; digest: string; valueSum: number } {
	const hash = createHash('sha256');
	let valueSum = 0;
	for (const m of listed) {
		hash.update(`${String(m.id)}\n`);
		valueSum += Number(m.valueInCents);
	}
	return { records: listed.length, digest: hash.digest('hex'), valueSum };
}

function rowOf(c: PeerContender, all: PeerRun[], expected: ReturnType<typeof expectedOf>): PeerRow {
	const ok = all.filter((x) => !x.error);
	const of = (pick: (x: PeerRun) => number) => (ok.length ? median(ok.map(pick)) : 0);
	const refusals: Record<string, number> = {};
	for (const x of all) for (const [status, n] of Object.entries(x.refusals)) refusals[status] = (refusals[status] ?? 0) + n;
	const fileBytes = ok.find((x) => x.fileBytes !== undefined)?.fileBytes;
	return {
		id: `peer/${c.id}`,
		label: c.label,
		client: c.client,
		output: c.output,
		runs: ok.length,
		executionMs: Math.round(of((x) => x.executionMs)),
		executionRunsMs: ok.map((x) => x.executionMs),
		savedMs: Math.round(of((x) => x.savedMs)),
		cpuMs: Math.round(of((x) => x.cpuMs)),
		rssBeforeMb: round(of((x) => x.rssBeforeMb), 1),
		peakRssMb: round(of((x) => x.peakRssMb), 1),
		rssDeltaMb: round(of((x) => x.peakRssMb - x.rssBeforeMb), 1),
		executionRssDeltaMb: round(of((x) => x.executionPeakRssMb - x.rssBeforeMb), 1),
		childrenPeakMb: round(of((x) => x.childrenPeakMb), 1),
		requests: of((x) => x.requests),
		refusals,
		...(fileBytes === undefined ? {} : { fileBytes }),
		sameRecords: all.length > 0 && all.every((x) => !x.error && x.records === expected.records && x.digest === expected.digest && x.valueSum === expected.valueSum),
		errors: all.filter((x) => x.error).map((x) => x.error!),
	};
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** The peer table as bench/results.md and the `--only peer` output show it. */
export function peerMarkdown(result: PeerResult | undefined): string[] {
	if (!result || result.rows.length === 0) return [];
	const { rows } = result;
	const lines = [
		`Peer (issue 40): Return All of ${result.records.toLocaleString('en-US')} movements in a real n8n ${result.n8nVersion} (\`n8n start\`, regular mode, SQLite, binary data mode ${result.binaryDataMode}; ` +
			`execution data saved, n8n's default), each run a webhook-started execution in a freshly started n8n; ${result.rounds} alternating rounds, medians. ` +
			`HTTP Request v4.4: Custom Auth credential (the three headers), query page = \`{{ $pageCount + 1 }}\` and limit ${result.pageSize}, Complete When: Other ` +
			`\`{{ $response.body.data.movements.length < ${result.pageSize} }}\`, Max Pages ${PEER_MAX_PAGES}; then Split Out of data.movements (+ Convert to File v1.1). ` +
			`The package: Movement › Get Many, Return All, default Pagination settings (${result.pageSize} a page, automatic concurrency). ` +
			`n8n execution time: the execution's startedAt-stoppedAt; until saved: from the webhook call until n8n has saved the execution; ` +
			`n8n CPU and RSS: the n8n process (peak: the kernel's high-water mark from the call until saved; during the execution alone: 100 ms samples within startedAt-stoppedAt); ` +
			`task runner: its RSS (nothing runs in it here). ` +
			`Load average ${result.loadAverage.start.join(' / ')} at the start, ${result.loadAverage.end.join(' / ')} at the end (1 / 5 / 15 min).`,
		'',
		'| Workflow | Requests | n8n execution time (s) | Fastest-slowest (s) | / HTTP Request | Until saved (s) | n8n CPU (s) | RSS before (MB) | Peak RSS (MB) | Peak - before (MB) | / HTTP Request | During the execution alone (MB) | Task runner (MB) | File | Same records |',
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|',
		...rows.map((r) => {
			const refused = Object.entries(r.refusals)
				.map(([s, n]) => `${n}× ${s}`)
				.join(', ');
			const spread = r.executionRunsMs.length ? `${seconds(Math.min(...r.executionRunsMs))}-${seconds(Math.max(...r.executionRunsMs))}` : '';
			return (
				`| ${r.label} | ${r.requests}${refused ? ` (+ ${refused})` : ''} | ${seconds(r.executionMs)} | ${spread} | ${r.timeVsHttp ?? ''} | ${seconds(r.savedMs)} | ${seconds(r.cpuMs)} | ` +
				`${r.rssBeforeMb} | ${r.peakRssMb} | ${r.rssDeltaMb} | ${r.deltaVsHttp ?? ''} | ${r.executionRssDeltaMb} | ${r.childrenPeakMb} | ${r.fileBytes === undefined ? '' : `${(r.fileBytes / 1024 ** 2).toFixed(1)} MB`} | ${r.sameRecords ? 'yes' : 'NO'} |`
			);
		}),
		'',
	];
	for (const r of rows) for (const e of r.errors) lines.push(`- ${r.label}: ERROR ${e}`);
	return lines;
}
