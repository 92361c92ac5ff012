/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The network scenario's per-item cases (issue 45): one request per input item over HTTPS through
 * the latency proxy (network.ts): Order › Get (read) and Customer › Create (write) for 200 and
 * 1,000 items at 20 and 200 ms RTT, against n8n's helper one item at a time (the sequential loop),
 * 8 at a time, and 8 kept-alive connections, in alternating rounds (rounds.ts). The sequential loop
 * and, with `--against`, that build (one item at a time before issue 45) read only their first
 * items (SEQUENTIAL_ITEMS): their time for all of them is scaled.
 */
import os from 'node:os';

import type { Client, ListSpec, PerItemOp } from './cases';
import { round } from './measure';
import type { NetContext } from './platforms';
import type { CaseDef, Platform } from './rounds';
import { runGroup } from './rounds';

export const PER_ITEM_COUNTS = [200, 1000];
/** Items the one-at-a-time contenders run (their time is scaled to the whole run): about 25 s at 200 ms. */
const SEQUENTIAL_ITEMS: Record<number, number> = { 20: 200, 200: 40 };
const CONTENDER_CONCURRENCY = 8;

export interface PerItemRow {
	id: string;
	op: PerItemOp;
	items: number;
	rttMs: number;
	label: string;
	runs: number;
	/** Items this contender ran (the bounded ones: fewer). */
	ran: number;
	wallMs: number;
	runsMs: number[];
	/** Time for every item: wallMs, or scaled from the items run. */
	wholeMs: number;
	cpuMs: number;
	window: number;
	errors: number;
	sameRecords: boolean;
	vsHelper8?: number;
	vsSequential?: number;
	vsKeepAlive8?: number;
	load: number;
}

/** A per-item case: `count` items of `op` for `client`. */
function itemSpec(net: NetContext, client: Client, op: PerItemOp, count: number, extra: Partial<ListSpec>): ListSpec {
	return { kind: 'list', client, target: net.target, pageSize: 1, expected: count, ...net.request, perItem: { op, items: count }, ...extra };
}

/** The pre-rendered pages, plain (no limit, no fault), counting the largest window. */
function plainPlatform(net: NetContext): Platform {
	return {
		clear: () => {
			net.pages.mode = { kind: 'plain' };
			net.pages.clear();
			net.clearCounters();
		},
		statuses: () => net.pages.statuses,
		counters: () => ({ window: net.window() }),
	};
}

export async function measurePerItem(net: NetContext, rtts: number[]): Promise<PerItemRow[]> {
	const rows: PerItemRow[] = [];
	for (const rtt of rtts) {
		for (const op of ['read', 'write'] as const) {
			for (const items of PER_ITEM_COUNTS) {
				net.setRtt(rtt);
				const bounded = Math.min(items, SEQUENTIAL_ITEMS[rtt] ?? items);
				const spec = (client: Client, extra: Partial<ListSpec> = {}, count = items) => itemSpec(net, client, op, count, extra);
				const prefix = `items-${op}-${items}-${rtt}`;
				const cases: CaseDef[] = [
					{ id: `${prefix}/node-default`, scenario: prefix, settings: 'the package, defaults (auto)', spec: spec('node') },
					...(net.against
						? [{ id: `${prefix}/against-default`, scenario: prefix, settings: `the package at ${net.against.label} (first ${bounded} items)`, spec: spec('node', { packageDir: net.against.dir }, bounded) }]
						: []),
					{ id: `${prefix}/helperLoop`, scenario: prefix, settings: `helper, one item at a time (first ${bounded} items)`, spec: spec('helperLoop', {}, bounded) },
					{ id: `${prefix}/helperLoop-8`, scenario: prefix, settings: `helper, ${CONTENDER_CONCURRENCY} items at a time`, spec: spec('helperLoop', { concurrency: CONTENDER_CONCURRENCY }) },
					{ id: `${prefix}/keepAlive-8`, scenario: prefix, settings: `${CONTENDER_CONCURRENCY} kept-alive https connections`, spec: spec('keepAlive', { concurrency: CONTENDER_CONCURRENCY }) },
				];
				const platform = plainPlatform(net);
				net.log(`per item, ${op} ${items} items, RTT ${rtt} ms: ${cases.map((c) => c.id).join(', ')} x ${net.repeats} rounds`);
				const measured = await runGroup(cases, net.repeats, net.env, platform, { latencyMs: rtt }, net.log);
				const reference = measured.find((m) => m.id.endsWith('/keepAlive-8'))?.digest;
				const group = measured.map((m, n): PerItemRow => {
					const ran = cases[n].spec.perItem?.items ?? items;
					return {
						id: m.id,
						op,
						items,
						rttMs: rtt,
						label: m.settings,
						runs: m.runs,
						ran,
						wallMs: m.wallMs,
						runsMs: m.runsMs,
						wholeMs: Math.round((m.wallMs * items) / ran),
						cpuMs: m.cpuMs,
						window: m.counters?.window ?? 0,
						errors: m.errors,
						// A bounded row is checked for its count (cases.ts), the others against the kept-alive connections' output.
						sameRecords: m.errors === 0 && (ran < items || m.digest === reference),
						load: round(os.loadavg()[0]),
					};
				});
				const of = (suffix: string) => group.find((r) => r.id.endsWith(suffix));
				for (const r of group) {
					const [helper8, sequential, keepAlive] = [of('/helperLoop-8'), of('/helperLoop'), of('/keepAlive-8')];
					if (helper8) r.vsHelper8 = round(r.wholeMs / helper8.wholeMs);
					if (sequential) r.vsSequential = round(r.wholeMs / sequential.wholeMs);
					if (keepAlive) r.vsKeepAlive8 = round(r.wholeMs / keepAlive.wholeMs);
				}
				rows.push(...group);
			}
		}
	}
	return rows;
}

/** Items of a short run (issue 51): a real batch, where the window's ramp shows. */
export const SHORT_ITEMS = 100;
const SHORT_RTT = 200;

/**
 * Short runs (issue 51): 100 items at 200 ms, each paying new connections, as the first run of a fresh
 * process (no warm-up: the package's code is loaded and compiled in the run, nothing is learned before
 * it) and, for the writes, right after 100 reads of the same credential in that process; against n8n's
 * helper 8 at a time (and, with `--against`, that build).
 */
export async function measureShortRuns(net: NetContext): Promise<PerItemRow[]> {
	const rows: PerItemRow[] = [];
	net.setRtt(SHORT_RTT);
	for (const op of ['read', 'write'] as const) {
		const spec = (client: Client, extra: Partial<ListSpec> = {}) => itemSpec(net, client, op, SHORT_ITEMS, extra);
		const prefix = `short-${op}-${SHORT_ITEMS}-${SHORT_RTT}`;
		const node = (id: string, label: string, extra: Partial<ListSpec>) => [
			{ id: `${prefix}/node-${id}`, scenario: prefix, settings: `the package, ${label}`, spec: spec('node', extra) },
			...(net.against ? [{ id: `${prefix}/against-${id}`, scenario: prefix, settings: `the package at ${net.against.label}, ${label}`, spec: spec('node', { ...extra, packageDir: net.against.dir }) }] : []),
		];
		const cases: CaseDef[] = [
			...node('fresh', 'a fresh process', { fresh: true }),
			...(op === 'write' ? node('after-reads', `right after ${SHORT_ITEMS} reads of the credential`, { fresh: true, after: 'read' }) : []),
			{ id: `${prefix}/helperLoop-8`, scenario: prefix, settings: `helper, ${CONTENDER_CONCURRENCY} items at a time`, spec: spec('helperLoop', { concurrency: CONTENDER_CONCURRENCY }) },
		];
		const platform = plainPlatform(net);
		net.log(`short runs, ${op} ${SHORT_ITEMS} items, RTT ${SHORT_RTT} ms: ${cases.map((c) => c.id).join(', ')} x ${net.repeats} rounds`);
		const measured = await runGroup(cases, net.repeats, net.env, platform, { latencyMs: SHORT_RTT }, net.log);
		const reference = measured.find((m) => m.id.endsWith('/helperLoop-8'));
		for (const m of measured) {
			rows.push({
				id: m.id,
				op,
				items: SHORT_ITEMS,
				rttMs: SHORT_RTT,
				label: m.settings,
				runs: m.runs,
				ran: SHORT_ITEMS,
				wallMs: m.wallMs,
				runsMs: m.runsMs,
				wholeMs: m.wallMs,
				cpuMs: m.cpuMs,
				window: m.counters?.window ?? 0,
				errors: m.errors,
				sameRecords: m.errors === 0 && m.digest === reference?.digest,
				...(reference ? { vsHelper8: round(m.wallMs / reference.wallMs) } : {}),
				load: round(os.loadavg()[0]),
			});
		}
	}
	return rows;
}

export function perItemTargets(rows: PerItemRow[]): Array<{ name: string; goal: string; measured: string; met: boolean }> {
	const out: Array<{ name: string; goal: string; measured: string; met: boolean }> = [];
	for (const r of rows.filter((x) => x.id.startsWith('short-') && x.id.includes('/node-'))) {
		const met = (r.vsHelper8 ?? Infinity) <= 1.2;
		out.push({ name: `Short run, ${r.op} ${r.items} items at ${r.rttMs} ms, ${r.label.replace('the package, ', '')}: / helper 8 at a time`, goal: '<= 1.2', measured: String(r.vsHelper8), met });
	}
	for (const r of rows.filter((x) => x.items === 1000 && x.id.endsWith('/node-default'))) {
		const met = (r.vsHelper8 ?? Infinity) <= 1.5 && (r.vsSequential ?? Infinity) <= 0.2;
		out.push({ name: `Per item, ${r.op} 1,000 items at ${r.rttMs} ms: / helper 8 at a time; / sequential loop`, goal: '<= 1.5; <= 0.2', measured: `${r.vsHelper8}; ${r.vsSequential}`, met });
	}
	out.push({ name: 'Every per-item output exact', goal: 'yes', measured: rows.every((r) => r.sameRecords) ? 'yes' : 'no', met: rows.every((r) => r.sameRecords) });
	return out;
}

export function perItemMarkdown(rows: PerItemRow[] | undefined): string[] {
	if (!rows || rows.length === 0) return [];
	const lines = [
		'Per item (issue 45): Order › Get (read) and Customer › Create (write), one request per input item over HTTPS through the latency proxy; ' +
			"medians of alternating runs. A bounded row's time for every item is scaled from the items it ran. The window is the most connections open at once.",
		'',
		'| Op | Items | RTT | Contender | Ran | Median (ms) | Fastest-slowest (ms) | All items (ms) | / helper 8 | / sequential | / 8 kept-alive | Largest window | CPU (ms) | Load | Same output |',
		'|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|',
	];
	for (const r of rows) {
		lines.push(
			`| ${r.op} | ${r.items} | ${r.rttMs} ms | ${r.label} | ${r.ran} | ${r.wallMs} | ${Math.min(...r.runsMs)}-${Math.max(...r.runsMs)} | ${r.wholeMs}${r.ran < r.items ? ' (scaled)' : ''} | ` +
				`${r.vsHelper8 ?? ''} | ${r.vsSequential ?? ''} | ${r.vsKeepAlive8 ?? ''} | ${r.window} | ${r.cpuMs} | ${r.load} | ${r.errors ? `${r.errors} failed` : r.sameRecords ? 'yes' : 'NO'} |`,
		);
	}
	const targets = perItemTargets(rows);
	lines.push('', '| Target | Goal | Measured | Met |', '|---|---|---|:---:|');
	for (const t of targets) lines.push(`| ${t.name} | ${t.goal} | ${t.measured} | ${t.met ? 'yes' : 'no'} |`);
	return [...lines, ''];
}
