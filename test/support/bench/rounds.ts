/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The bench's rounds (main.ts runs them): the cases of a group run in alternating rounds, each in
 * its own child process (cases.ts), the order rotating every round so that other work on a shared
 * machine weighs on every case alike; each figure is the median of the rounds, with the spread,
 * the requests the simulator recorded and the ratios to the anchors of the same group.
 */
import os from 'node:os';
import path from 'node:path';

import type { Anchor } from './anchors';
import type { CaseSpec, Client, ListResult, ListSpec, Target } from './cases';
import { caseChildArgs, sameHeaders } from './cases';
import type { RunFigures } from './measure';
import { median, round, runChild } from './measure';
import type { Simulator } from '../simulator/server';
import { LIST_PATH, MOVEMENTS } from './settings';

/** A child that takes longer than this is killed (and the bench fails). */
const CHILD_TIMEOUT_MS = 300_000;

export const ANCHOR_LABELS: Record<'floor' | Anchor, string> = {
	floor: 'node:http keep-alive loop',
	keepAlive: 'the same loop inside a trivial n8n node',
	helperLoop: 'trivial node looping over httpRequestWithAuthentication',
};

/** Runs one case in a fresh child process and returns its result. */
export function runCaseChild<T>(spec: CaseSpec, env: NodeJS.ProcessEnv): Promise<T> {
	return runChild<T>(caseChildArgs(spec), env, CHILD_TIMEOUT_MS, `bench case ${spec.kind}`);
}

/** One case of the table, measured over the rounds (CPU time: of the measuring process). */
export interface Measured extends RunFigures {
	id: string;
	scenario: string;
	latencyMs: number;
	rateLimit?: number;
	pageSize: number;
	client: Client;
	/** What the node ran with: "default (auto)", "fixed 1", "main@abc1234 default" ... */
	settings: string;
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
	/** What the platform counted besides statuses (Platform.counters), median of the runs. */
	counters?: Record<string, number>;
	/** Successful requests per second of wall time (rate-limited rows). */
	achievedPerSecond?: number;
	/** Successful requests / the most the limiter lets through in the same time (its bucket starts full). */
	ofAllowed?: number;
}

/**
 * What answered a group's list requests: the pre-rendered page server (pages.ts) or the simulator
 * (the rate-limit group needs its token bucket). `statuses` are those of the list requests since `clear`.
 */
export interface Platform {
	/** Before each run (with the case about to run) and after the group. */
	clear(forCase?: CaseDef): void;
	statuses(): number[];
	/** Before each run (the simulator's bucket starts full). */
	beforeRun?(): void;
	/** After each run: what else the platform counted since `clear` (connections, handshakes...), the warm-up's left out. */
	counters?(): Record<string, number>;
	/** After the group. */
	after?(): void;
}

export interface CaseDef {
	id: string;
	scenario: string;
	settings: string;
	spec: ListSpec;
}

/**
 * Runs every case of a group `repeats` times in alternating rounds (the order rotates each
 * round) and keeps medians. `requests` and statuses come from the simulator's record.
 */
export async function runGroup(
	cases: CaseDef[],
	repeats: number,
	env: NodeJS.ProcessEnv,
	platform: Platform,
	meta: { latencyMs: number; rateLimit?: number; profileDir?: string },
	log: (line: string) => void,
): Promise<Measured[]> {
	const runs = new Map<string, Array<ListResult & { requests: number[]; counters?: Record<string, number> }>>();
	for (let r = 0; r < repeats; r++) {
		for (let k = 0; k < cases.length; k++) {
			const c = cases[(k + r) % cases.length];
			platform.clear(c);
			platform.beforeRun?.();
			// --profile: each case's CPU profile of its measured work (the last round's is kept).
			const spec = meta.profileDir ? { ...c.spec, profile: path.join(meta.profileDir, `${c.id.replace(/\//g, '-')}.cpuprofile`) } : c.spec;
			const result = await runCaseChild<ListResult>(spec, env);
			// The first request is the warm-up's.
			const requests = platform.statuses().slice(1);
			if (!runs.has(c.id)) runs.set(c.id, []);
			runs.get(c.id)!.push({ ...result, requests, counters: platform.counters?.() });
		}
		log(`  round ${r + 1}/${repeats}: ${cases.map((c) => `${c.id} ${runs.get(c.id)!.at(-1)!.wallMs} ms`).join(', ')} (load ${os.loadavg()[0].toFixed(2)})`);
	}
	platform.clear();
	platform.after?.();
	const out: Measured[] = cases.map((c) => {
		const all = runs.get(c.id)!;
		const statuses: Record<string, number> = {};
		for (const run of all) for (const status of run.requests) statuses[status] = (statuses[status] ?? 0) + 1;
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
		if (all[0].counters) {
			measured.counters = Object.fromEntries(Object.keys(all[0].counters).map((key) => [key, median(all.map((x) => x.counters?.[key] ?? 0))]));
		}
		if (meta.rateLimit) {
			const ok = all.map((x) => x.requests.filter((status) => status === 200).length);
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

/** The simulator as a group's platform (its list requests), with its rate limit when the group has one. */
export function simulatorPlatform(sim: Simulator, rateLimit?: number): Platform {
	return {
		clear: () => sim.clearRequests(),
		statuses: () => sim.requestsTo('POST', LIST_PATH).map((r) => r.status),
		beforeRun: () => {
			if (rateLimit) sim.rateLimit.set({ ratePerSecond: rateLimit });
		},
		after: () => sim.rateLimit.clear(),
	};
}

/** The headers and body of the node's list request, as the simulator received them. */
export async function captureNodeRequest(
	target: Target,
	env: NodeJS.ProcessEnv,
	sim: Simulator,
	pageSize: number,
): Promise<{ headers: Record<string, string>; body: string }> {
	sim.clearRequests();
	const probe: ListSpec = {
		kind: 'list',
		client: 'node',
		target,
		pageSize,
		expected: MOVEMENTS,
		headers: {},
		body: '',
	};
	// A run of the whole list, whose first request is the warm-up's; any of them will do.
	await runCaseChild<ListResult>(probe, env);
	const request = sim.requestsTo('POST', LIST_PATH).at(-1);
	sim.clearRequests();
	if (!request) throw new Error('the node sent no list request');
	return {
		headers: sameHeaders(request.headers),
		body: request.body === undefined ? '' : JSON.stringify(request.body),
	};
}
