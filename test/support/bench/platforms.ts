/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The network scenario's difficult platforms (issue 45), Return All of the 100,000 movements over
 * HTTPS through the latency proxy (network.ts), each case in alternating rounds (rounds.ts):
 *
 * - **Rate limit**: a token bucket of 10 requests/s per key (10 at once, full at the start), its 429
 *   with `Retry-After` in whole seconds to the next token, or `Retry-After: 2`, or none. Reported:
 *   the refusals, those in the first second of the run and in the first second of the limit (from
 *   the first refusal: the overshoot when the limit is first met), and the time against the ideal
 *   one, the least the bucket allows: (100 - 10) / 10 = 9 s plus the fastest page's own time.
 * - **Overloaded**: each request 50 ms slower per request in flight above 4 when it arrives (20 ms
 *   RTT), against Max Concurrent Requests 2, 3, 4, 5, 6 and 8 in the same rounds: the best of those.
 * - **Faults**: 2 % of the pages (seeded) answered with half their body and a connection reset, or
 *   a 502 (alternately), at 200 ms RTT over 150 pages (667 a page), against the same without faults.
 *
 * With `--against`, that build's default case runs in every group.
 */
import os from 'node:os';

import type { Client, ListSpec, Target } from './cases';
import { round } from './measure';
import type { Answered, PageServer, PlatformMode } from './pages';
import type { CaseDef, Measured, Platform } from './rounds';
import { runGroup } from './rounds';
import { MOVEMENTS } from './settings';

const PAGE_SIZE = 1000;
/** 150 pages of the 100,000 movements for the fault scenario. */
export const FAULT_PAGE_SIZE = 667;
const RATE = 10;
const BURST = 10;
const OVERLOAD_RTT = 20;
const FAULT_RTT = 200;
const FIXED_WINDOWS = [2, 3, 4, 5, 6, 8];

export interface PlatformRow {
	group: string;
	id: string;
	rttMs: number;
	label: string;
	runs: number;
	wallMs: number;
	runsMs: number[];
	cpuMs: number;
	requests: number;
	/** Medians over the runs. */
	refused: number;
	refusedFirstSecond: number;
	refusedFirstSecondOfLimit: number;
	resets: number;
	failed502: number;
	window: number;
	errors: number;
	digest: string;
	sameRecords?: boolean;
	/** Rate rows: time / the least the bucket allows. Overload rows: time / the best fixed window's. Fault rows: time / the fault-free run's. */
	ratio?: number;
	ratioOf?: string;
	load: number;
}

/** What the platform counted in one run (the warm-up's first request left out). */
function countsOf(answered: Answered[]): Record<string, number> {
	const run = answered.slice(1);
	const start = run[0]?.at ?? 0;
	const refusals = run.filter((a) => a.status === 429);
	const first = refusals[0]?.at;
	return {
		refused: refusals.length,
		refusedFirstSecond: refusals.filter((a) => a.at < start + 1000).length,
		refusedFirstSecondOfLimit: first === undefined ? 0 : refusals.filter((a) => a.at < first + 1000).length,
		resets: run.filter((a) => a.status === 0).length,
		failed502: run.filter((a) => a.status === 502).length,
	};
}

export interface NetContext {
	pages: PageServer;
	target: Target;
	request: { headers: Record<string, string>; body: string };
	env: NodeJS.ProcessEnv;
	repeats: number;
	log: (line: string) => void;
	against?: { dir: string; label: string };
	/** Sets the proxy's round trip for the connections from now on. */
	setRtt(ms: number): void;
	/** Clears the platform's counters, the proxy's and the TLS front's. */
	clearCounters(): void;
	/** The most connections open at once since the last clear (the largest window). */
	window(): number;
}

export type PlatformPart = 'rate' | 'overload' | 'faults';

/** The rate-limit, overload and fault groups (`parts`) at the given round trips (rate limit: each of `rateRtts`). */
export async function measurePlatforms(net: NetContext, rateRtts: number[], parts: PlatformPart[] = ['rate', 'overload', 'faults']): Promise<PlatformRow[]> {
	const rows: PlatformRow[] = [];
	const spec = (client: Client, extra: Partial<ListSpec> = {}): ListSpec => ({
		kind: 'list',
		client,
		target: net.target,
		pageSize: PAGE_SIZE,
		expected: MOVEMENTS,
		...net.request,
		...extra,
	});
	const node = (extra: Partial<ListSpec> = {}) => spec('node', extra);
	const against = (extra: Partial<ListSpec> = {}) => (net.against ? [{ label: `the package at ${net.against.label}`, spec: node({ ...extra, packageDir: net.against.dir }) }] : []);
	const group = async (name: string, rtt: number, cases: Array<{ id: string; label: string; spec: ListSpec; mode: PlatformMode }>) => {
		net.setRtt(rtt);
		const modes = new Map(cases.map((c) => [c.id, c.mode]));
		const platform: Platform = {
			clear: (c?: CaseDef) => {
				net.pages.mode = (c && modes.get(c.id)) ?? { kind: 'plain' };
				net.pages.clear();
				net.clearCounters();
			},
			statuses: () => net.pages.statuses,
			counters: () => ({ ...countsOf(net.pages.answered), window: net.window() }),
		};
		const defs: CaseDef[] = cases.map((c) => ({ id: c.id, scenario: name, settings: c.label, spec: c.spec }));
		net.log(`${name}, RTT ${rtt} ms: ${defs.map((c) => c.id).join(', ')} x ${net.repeats} rounds`);
		const measured = await runGroup(defs, net.repeats, net.env, platform, { latencyMs: rtt }, net.log);
		net.pages.mode = { kind: 'plain' };
		rows.push(...measured.map((m) => rowOf(name, rtt, m)));
	};
	for (const rtt of parts.includes('rate') ? rateRtts : []) {
		for (const retryAfter of [undefined, '2', null] as const) {
			const mode: PlatformMode = { kind: 'bucket', ratePerSecond: RATE, burst: BURST, retryAfter };
			const name = `rate ${RATE}/s, ${retryAfter === undefined ? 'Retry-After to the next token' : retryAfter === null ? 'no Retry-After' : `Retry-After: ${retryAfter}`}`;
			const key = retryAfter === undefined ? 'next' : retryAfter === null ? 'none' : `ra${retryAfter}`;
			await group(name, rtt, [
				{ id: `rate-${key}-${rtt}/node-default`, label: 'the package, defaults (auto)', spec: node(), mode },
				...against().map((a) => ({ id: `rate-${key}-${rtt}/against-default`, label: a.label, spec: a.spec, mode })),
				{ id: `rate-${key}-${rtt}/node-8`, label: 'the package, Max Concurrent Requests 8', spec: node({ concurrency: 8 }), mode },
			]);
		}
	}
	const overload: PlatformMode = { kind: 'overload', perInFlightMs: 50, above: 4 };
	if (parts.includes('overload')) await group('overloaded (50 ms more per request in flight above 4)', OVERLOAD_RTT, [
		{ id: 'overload/node-default', label: 'the package, defaults (auto)', spec: node(), mode: overload },
		...against().map((a) => ({ id: 'overload/against-default', label: a.label, spec: a.spec, mode: overload })),
		...FIXED_WINDOWS.map((n) => ({ id: `overload/node-${n}`, label: `Max Concurrent Requests ${n}`, spec: node({ concurrency: n }), mode: overload })),
	]);
	const faults: PlatformMode = { kind: 'faults', probability: 0.02, seed: 45 };
	const faultSpec = { pageSize: FAULT_PAGE_SIZE };
	if (parts.includes('faults')) await group('2 % faults (resets mid-body, 502s), 150 pages', FAULT_RTT, [
		{ id: 'faults/node-default', label: 'the package, defaults (auto), 2 % faults', spec: node(faultSpec), mode: faults },
		{ id: 'faults/node-clean', label: 'the package, defaults (auto), no fault', spec: node(faultSpec), mode: { kind: 'plain' } },
		...against(faultSpec).map((a) => ({ id: 'faults/against-default', label: `${a.label}, 2 % faults`, spec: a.spec, mode: faults })),
		{ id: 'faults/node-16', label: 'the package, Max Concurrent Requests 16, 2 % faults', spec: node({ ...faultSpec, concurrency: 16 }), mode: faults },
	]);
	// Every row reads the same list: one digest for all (the first row's, when the fault group did not run).
	const reference = rows.find((r) => r.id === 'faults/node-clean')?.digest ?? rows.find((r) => r.errors === 0)?.digest;
	for (const r of rows) r.sameRecords = r.errors === 0 && r.digest === reference;
	const best = rows.filter((r) => r.id.startsWith('overload/node-') && r.id !== 'overload/node-default').sort((a, b) => a.wallMs - b.wallMs)[0];
	const clean = rows.find((r) => r.id === 'faults/node-clean');
	for (const r of rows) {
		if (r.id.startsWith('rate-')) {
			const ideal = ((MOVEMENTS / PAGE_SIZE - BURST) / RATE) * 1000 + r.rttMs * 3;
			[r.ratio, r.ratioOf] = [round(r.wallMs / ideal), `the least the bucket allows, ${Math.round(ideal)} ms`];
		} else if (r.id.startsWith('overload/') && best) [r.ratio, r.ratioOf] = [round(r.wallMs / best.wallMs), `the best fixed window (${best.label})`];
		else if (r.id.startsWith('faults/') && clean) [r.ratio, r.ratioOf] = [round(r.wallMs / clean.wallMs), 'the fault-free run'];
	}
	return rows;
}

function rowOf(group: string, rtt: number, m: Measured): PlatformRow {
	const c = m.counters ?? {};
	return {
		group,
		id: m.id,
		rttMs: rtt,
		label: m.settings,
		runs: m.runs,
		wallMs: m.wallMs,
		runsMs: m.runsMs,
		cpuMs: m.cpuMs,
		requests: m.requests,
		refused: c.refused ?? 0,
		refusedFirstSecond: c.refusedFirstSecond ?? 0,
		refusedFirstSecondOfLimit: c.refusedFirstSecondOfLimit ?? 0,
		resets: c.resets ?? 0,
		failed502: c.failed502 ?? 0,
		window: c.window ?? 0,
		errors: m.errors,
		digest: m.digest,
		load: round(os.loadavg()[0]),
	};
}

export function platformTargets(rows: PlatformRow[]): Array<{ name: string; goal: string; measured: string; met: boolean }> {
	const out: Array<{ name: string; goal: string; measured: string; met: boolean }> = [];
	for (const r of rows.filter((x) => x.id.startsWith('rate-') && x.id.endsWith('/node-default'))) {
		out.push({
			name: `${r.group}, ${r.rttMs} ms RTT: refusals in the first second of the run / of the limit; time / ${r.ratioOf}`,
			goal: '<= 3; <= 1.2',
			measured: `${r.refusedFirstSecond} / ${r.refusedFirstSecondOfLimit}; ${r.ratio}`,
			met: r.refusedFirstSecondOfLimit <= 3 && r.refusedFirstSecond <= 3 && (r.ratio ?? Infinity) <= 1.2,
		});
	}
	const overload = rows.find((r) => r.id === 'overload/node-default');
	if (overload) out.push({ name: `Overloaded platform / ${overload.ratioOf}`, goal: '<= 1.2', measured: String(overload.ratio), met: (overload.ratio ?? Infinity) <= 1.2 });
	const faults = rows.find((r) => r.id === 'faults/node-default');
	if (faults) out.push({ name: `2 % faults / ${faults.ratioOf}`, goal: '<= 1.4', measured: String(faults.ratio), met: (faults.ratio ?? Infinity) <= 1.4 });
	out.push({ name: 'Every output of these rows exact', goal: 'yes', measured: rows.every((r) => r.sameRecords) ? 'yes' : 'no', met: rows.every((r) => r.sameRecords) });
	return out;
}

export function platformMarkdown(rows: PlatformRow[] | undefined): string[] {
	if (!rows || rows.length === 0) return [];
	const lines = [
		'Difficult platforms (issue 45): Return All of 100,000 movements over HTTPS through the latency proxy; medians of alternating runs. ' +
			'Refusals: all, in the first second of the run, and in the first second of the limit (from the first 429: the overshoot when the limit is first met). ' +
			'The window is the most connections open at once.',
		'',
		'| Platform | RTT | Contender | Median (ms) | Fastest-slowest (ms) | Ratio | Of | Requests | 429 | 429 in 1st s of run / of limit | Resets / 502 | Largest window | CPU (ms) | Load | Same records |',
		'|---|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|:---:|',
	];
	for (const r of rows) {
		lines.push(
			`| ${r.group} | ${r.rttMs} ms | ${r.label} | ${r.wallMs} | ${Math.min(...r.runsMs)}-${Math.max(...r.runsMs)} | ${r.ratio ?? ''} | ${r.ratioOf ?? ''} | ${r.requests} | ${r.refused} | ` +
				`${r.refusedFirstSecond} / ${r.refusedFirstSecondOfLimit} | ${r.resets} / ${r.failed502} | ${r.window} | ${r.cpuMs} | ${r.load} | ${r.errors ? `${r.errors} failed` : r.sameRecords ? 'yes' : 'NO'} |`,
		);
	}
	const targets = platformTargets(rows);
	lines.push('', '| Target | Goal | Measured | Met |', '|---|---|---|:---:|');
	for (const t of targets) lines.push(`| ${t.name} | ${t.goal} | ${t.measured} | ${t.met ? 'yes' : 'no'} |`);
	return [...lines, ''];
}
