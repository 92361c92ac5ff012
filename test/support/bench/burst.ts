/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The Black-Friday burst (issue 39), in a real n8n 2.8.4 (regular mode, sqlite): distinct
 * `order.paid` notifications from concurrent senders straight to the trigger's production URL
 * with the webhook's secret, as the platform sends them, every 10th sent a second time, byte for
 * byte: right after the first 2xx, while the first is still in flight, or later. Then every
 * execution of the workflow is read from n8n's sqlite database and matched to its notification:
 * executions started per distinct notification, doubles (a notification run twice or more),
 * losses (a notification answered 2xx that never ran), with the deliveries accepted per second,
 * the answers' p50/p99 latency and n8n's peak RSS.
 *
 * `npm run bench` measures it for this build (and with `--against <ref>` for that ref's build,
 * each in a fresh n8n); `--only burst` measures only it. The e2e test
 * (test/e2e/trigger-burst.test.ts) runs a bounded burst through the same functions.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import type { N8nInstance } from '../n8n-process';
import { DEFAULT_OWNER, sleep, waitFor } from '../n8n-process';
import type { Simulator } from '../simulator/server';

export const BURST_WORKFLOW_ID = 'spBurstOrders';
const CREDENTIAL_ID = 'spBurstCred';
const SECRET_HEADER = 'x-sp-webhook-secret';

export type RepeatKind = 'rightAfter' | 'inFlight' | 'later';

export interface BurstPlan {
	/** Distinct notifications. */
	notifications: number;
	/** Concurrent senders. */
	senders: number;
	/** Every n-th notification is sent twice (0: none). */
	repeatEvery: number;
	/** The kinds of repeat, taken in turn. */
	kinds: RepeatKind[];
	/** How long after the first copy's answer a `later` repeat is sent. */
	laterMs: number;
}

export const BENCH_PLAN: BurstPlan = { notifications: 2_000, senders: 20, repeatEvery: 10, kinds: ['rightAfter', 'inFlight', 'later'], laterMs: 30_000 };

/** Where and how the platform delivers: the production URL and the webhook's secret. */
export interface BurstTarget {
	url: string;
	secret: string;
}

interface Sent {
	n: number;
	repeat?: RepeatKind;
	status: number;
	ms: number;
	/** For an in-flight repeat: the first copy had not been answered when it was sent. */
	overlapped?: boolean;
}

export interface BurstFigures {
	notifications: number;
	repeats: Record<RepeatKind, number>;
	/** Requests answered 2xx / all requests, and the other statuses. */
	accepted: number;
	requests: number;
	statuses: Record<string, number>;
	/** Accepted deliveries per second of the burst (its `later` repeats aside). */
	perSecond: number;
	p50Ms: number;
	p99Ms: number;
	/** The same for the first copies alone (a waiting repeat's answer comes after its first copy's). */
	firstP99Ms: number;
	executions: number;
	/** Executions per distinct notification (1 is exactly once). */
	executionsPerNotification: number;
	/** Notifications run twice or more, by the kind of their repeat. */
	doubles: number;
	doublesBy: Record<RepeatKind, number>;
	/** Notifications answered 2xx that never ran. */
	losses: number;
	/** In-flight repeats sent while the first copy was indeed unanswered. */
	overlapped: number;
	peakRssMb: number;
	/** n8n and its task runner together. */
	peakGroupRssMb: number;
	seconds: number;
	/** How long after the first answer the `later` repeats went. */
	laterMs: number;
}

/** A notification as the platform might send it: order `n` paid. */
export function notification(n: number, businessId: string): Record<string, unknown> {
	const at = new Date(Date.UTC(2026, 10, 27, 12) + n * 1000).toISOString();
	return { event: 'order.paid', createdAt: at, businessId, data: { id: orderId(n), status: 'paid', paidAt: at, valueInCents: 4990 + (n % 100) } };
}

const orderId = (n: number) => `bn-${String(n).padStart(6, '0')}`;

/** The trigger's Options of a burst workflow (default: none, so Ignore Duplicate Deliveries is on as in version 2). */
export type TriggerOptions = Record<string, unknown>;

/** The workflow: the trigger alone (order.paid, Ignore Duplicate Deliveries on: version 2's default, unless `options` say otherwise). */
export function burstWorkflow(webhookId: string, options: TriggerOptions = {}) {
	return {
		id: BURST_WORKFLOW_ID,
		name: 'Burst of paid orders',
		active: false,
		nodes: [
			{
				id: 'burst-trigger',
				name: 'Order paid',
				type: 'n8n-nodes-sales-payments.salesPaymentsTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId,
				parameters: { events: ['order.paid'], ...(Object.keys(options).length > 0 ? { options } : {}) },
				credentials: { salesPaymentsApi: { id: CREDENTIAL_ID, name: 'Burst credential' } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** Imports and publishes the burst workflow, starts n8n and waits for the platform webhook: where to send. */
export async function startBurstN8n(n8n: N8nInstance, sim: Simulator, webhookId = '7b3e9c1a-2d4f-4e6a-9b8c-1f2e3d4c5b6a', options: TriggerOptions = {}): Promise<BurstTarget> {
	await n8n.importCredentials([{ id: CREDENTIAL_ID, name: 'Burst credential', type: 'salesPaymentsApi', data: { ...sim.credentials } }]);
	await n8n.importWorkflows([burstWorkflow(webhookId, options)]);
	await n8n.publish(BURST_WORKFLOW_ID);
	await n8n.start();
	await n8n.setupOwner(DEFAULT_OWNER);
	return await burstTarget(sim, `${n8n.baseUrl}/webhook/${webhookId}/webhook`);
}

/** The production webhook of `url` registered at the simulator, and its secret. */
export async function burstTarget(sim: Simulator, url: string): Promise<BurstTarget> {
	return await waitFor(
		'the production webhook',
		() => {
			const webhook = sim.state.col('webhooks').find((w) => (w.dispatchers as Array<{ url: string }>)[0]?.url === url);
			const headers = (webhook?.dispatchers as Array<{ headers: Record<string, string> }> | undefined)?.[0]?.headers;
			return headers?.[SECRET_HEADER] ? { url, secret: headers[SECRET_HEADER] } : undefined;
		},
		60_000,
	);
}

function post(agent: http.Agent, target: BurstTarget, body: string): Promise<{ status: number; ms: number }> {
	const url = new URL(target.url);
	const started = performance.now();
	return new Promise((resolve) => {
		const req = http.request(
			{
				host: url.hostname,
				port: url.port,
				path: url.pathname,
				method: 'POST',
				agent,
				timeout: 60_000,
				headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [SECRET_HEADER]: target.secret },
			},
			(res) => {
				res.resume();
				res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
				res.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
			},
		);
		req.on('timeout', () => req.destroy());
		req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
		req.end(body);
	});
}

/** The repeat of notification `n` under `plan`, if it has one. */
export function repeatOf(plan: BurstPlan, n: number): RepeatKind | undefined {
	if (!plan.repeatEvery || n % plan.repeatEvery !== plan.repeatEvery - 1) return undefined;
	return plan.kinds[Math.floor(n / plan.repeatEvery) % plan.kinds.length];
}

/** Sends the burst; resolves when every request (later repeats included) was answered. */
export async function sendBurst(target: BurstTarget, plan: BurstPlan, businessId: string): Promise<{ sent: Sent[]; burstMs: number }> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: plan.senders * 2 });
	const sent: Sent[] = [];
	const later: Array<Promise<void>> = [];
	let next = 0;
	const started = performance.now();
	let burstEnd = started;
	const sender = async () => {
		while (next < plan.notifications) {
			const n = next++;
			const body = JSON.stringify(notification(n, businessId));
			const repeat = repeatOf(plan, n);
			const first = post(agent, target, body);
			if (repeat === 'inFlight') {
				// The platform timed out and sends again while the first is still running.
				let answered = false;
				void first.then(() => (answered = true));
				await sleep(2);
				const overlapped = !answered;
				const copy = await post(agent, target, body);
				sent.push({ n, repeat, ...copy, overlapped });
			}
			const result = await first;
			sent.push({ n, ...result });
			burstEnd = Math.max(burstEnd, performance.now());
			if (repeat === 'rightAfter') sent.push({ n, repeat, ...(await post(agent, target, body)) });
			if (repeat === 'later') later.push(sleep(plan.laterMs).then(async () => void sent.push({ n, repeat, ...(await post(agent, target, body)) })));
			burstEnd = Math.max(burstEnd, performance.now());
		}
	};
	try {
		await Promise.all(Array.from({ length: plan.senders }, sender));
		await Promise.all(later);
	} finally {
		agent.destroy();
	}
	return { sent, burstMs: burstEnd - started };
}

/** Every execution of the workflow, read from n8n's sqlite database, counted per notification. */
export async function executionsPerOrder(n8n: N8nInstance, workflowId = BURST_WORKFLOW_ID): Promise<{ counts: Map<number, number>; total: number; unfinished: number }> {
	const rows = await n8n.sqlite<{ id: number; status: string; data: string | null }>(
		'SELECT e.id AS id, e.status AS status, d.data AS data FROM execution_entity e LEFT JOIN execution_data d ON d.executionId = e.id WHERE e.workflowId = ?',
		[workflowId],
	);
	const counts = new Map<number, number>();
	let unfinished = 0;
	for (const row of rows) {
		if (row.status === 'new' || row.status === 'running') unfinished++;
		// n8n stores the run as `flatted` text: the order id is one of its strings.
		const ids = new Set((row.data ?? '').match(/"bn-(\d{6})"/g) ?? []);
		for (const id of ids) {
			const n = Number(id.slice(4, -1));
			counts.set(n, (counts.get(n) ?? 0) + 1);
		}
	}
	return { counts, total: rows.length, unfinished };
}

/** Waits until n8n has written every execution (the count steady for 3 s, none unfinished), within `timeoutMs`. */
export async function settledExecutions(n8n: N8nInstance, timeoutMs = 120_000): Promise<Awaited<ReturnType<typeof executionsPerOrder>>> {
	const deadline = Date.now() + timeoutMs;
	let last = -1;
	let steadySince = Date.now();
	for (;;) {
		const now = await executionsPerOrder(n8n);
		if (now.total !== last) [last, steadySince] = [now.total, Date.now()];
		if ((now.unfinished === 0 && Date.now() - steadySince >= 3_000) || Date.now() > deadline) return now;
		await sleep(1_000);
	}
}

/** Samples the resident memory of n8n (`pid`) and of its process group (its task runner) until stopped. */
export function rssSampler(pid: number): { stop: () => { peakRssMb: number; peakGroupRssMb: number } } {
	let peak = 0;
	let peakGroup = 0;
	const rssOf = (p: string) => {
		try {
			const status = readFileSync(`/proc/${p}/status`, 'utf8');
			return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
		} catch {
			return 0;
		}
	};
	const sample = () => {
		peak = Math.max(peak, rssOf(String(pid)));
		let group = 0;
		for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
			try {
				// Field 5 of /proc/<p>/stat (after the command in parentheses) is the process group.
				const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
				if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pid) group += rssOf(p);
			} catch {
				// gone meanwhile
			}
		}
		peakGroup = Math.max(peakGroup, group);
	};
	sample();
	const timer = setInterval(sample, 500);
	return {
		stop: () => {
			clearInterval(timer);
			sample();
			return { peakRssMb: Math.round(peak / 1024 ** 2), peakGroupRssMb: Math.round(peakGroup / 1024 ** 2) };
		},
	};
}

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]) : 0;
}

/** Sends the burst to a started n8n and reads what it ran. */
export async function runBurst(n8n: N8nInstance, target: BurstTarget, plan: BurstPlan, businessId: string): Promise<BurstFigures> {
	const started = performance.now();
	const memory = rssSampler(n8n.pid ?? 0);
	const measured = await (async () => {
		try {
			const burst = await sendBurst(target, plan, businessId);
			return { ...burst, executions: await settledExecutions(n8n) };
		} finally {
			memory.stop();
		}
	})();
	const { sent, burstMs, executions } = measured;
	const rss = memory.stop();
	const statuses: Record<string, number> = {};
	for (const s of sent) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
	const ok = (s: Sent) => s.status >= 200 && s.status < 300;
	const repeats = { rightAfter: 0, inFlight: 0, later: 0 };
	const doublesBy = { rightAfter: 0, inFlight: 0, later: 0 };
	let doubles = 0;
	let losses = 0;
	for (let n = 0; n < plan.notifications; n++) {
		const runs = executions.counts.get(n) ?? 0;
		const repeat = repeatOf(plan, n);
		if (repeat) repeats[repeat]++;
		if (runs > 1) {
			doubles++;
			if (repeat) doublesBy[repeat]++;
		}
		if (runs === 0 && sent.some((s) => s.n === n && ok(s))) losses++;
	}
	const inBurst = sent.filter((s) => s.repeat !== 'later');
	return {
		notifications: plan.notifications,
		repeats,
		accepted: sent.filter(ok).length,
		requests: sent.length,
		statuses,
		perSecond: Math.round(inBurst.filter(ok).length / (burstMs / 1000)),
		p50Ms: percentile(sent.map((s) => s.ms), 50),
		p99Ms: percentile(sent.map((s) => s.ms), 99),
		firstP99Ms: percentile(sent.filter((s) => !s.repeat).map((s) => s.ms), 99),
		executions: executions.total,
		executionsPerNotification: Math.round((executions.total / plan.notifications) * 1000) / 1000,
		doubles,
		doublesBy,
		losses,
		overlapped: sent.filter((s) => s.overlapped).length,
		...rss,
		seconds: Math.round((performance.now() - started) / 1000),
		laterMs: plan.laterMs,
	};
}

export interface BurstRow extends BurstFigures {
	build: string;
	loadAverage: number[];
}

/**
 * One build's burst in a fresh n8n 2.8.4 (its own user folder and sqlite database) with its own
 * simulator: the package packed from `packageDir`, installed as a community package.
 */
export async function measureBurst(o: { build: string; packageDir?: string; plan?: BurstPlan; options?: TriggerOptions; log: (line: string) => void }): Promise<BurstRow> {
	const plan = o.plan ?? BENCH_PLAN;
	const { ensureN8n, packPackage } = await import('../n8n-install');
	const { N8nInstance } = await import('../n8n-process');
	const { startSimulator } = await import('../simulator/server');
	await ensureN8n((line) => o.log(line));
	const tgz = await packPackage(o.packageDir);
	const sim = await startSimulator();
	const n8n = new N8nInstance();
	try {
		await n8n.installPackage(tgz);
		o.log(`burst (${o.build}): starting n8n 2.8.4 with the workflow active...`);
		const target = await startBurstN8n(n8n, sim, undefined, o.options);
		o.log(`burst (${o.build}): ${plan.notifications} notifications from ${plan.senders} senders, every ${plan.repeatEvery}th twice (${plan.kinds.join(', ')}; later = ${plan.laterMs / 1000} s after)...`);
		const figures = await runBurst(n8n, target, plan, sim.credentials.businessId);
		const row = { build: o.build, ...figures, loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100) };
		o.log(`burst (${o.build}): ${JSON.stringify(row)}`);
		return row;
	} finally {
		await n8n.stop();
		n8n.cleanup();
		await sim.close();
		rmSync(path.dirname(tgz), { recursive: true, force: true });
	}
}

/** The rows as a markdown table (bench/results.md). */
export function burstMarkdown(rows: BurstRow[] | undefined): string[] {
	if (!rows || rows.length === 0) return [];
	const r0 = rows[0];
	const kinds = (r: BurstRow) => (Object.keys(r.repeats) as RepeatKind[]).filter((k) => r.repeats[k] > 0);
	const lines = [
		`Burst (issue 39): ${r0.notifications.toLocaleString('en-US')} distinct order.paid notifications from 20 concurrent senders into a real n8n 2.8.4 ` +
			`(regular mode, sqlite), ${kinds(r0).length === 0 ? 'none sent twice' : 'every 10th sent twice: '}${kinds(r0).map((k) => `${r0.repeats[k]} ${k === 'rightAfter' ? 'right after the first 2xx' : k === 'inFlight' ? 'while the first was in flight' : `${(r0.laterMs ?? 0) / 1000} s after its answer`}`).join(', ')}. ` +
			'Executions read from n8n\'s database and matched to their notification.',
		'',
		'| Build | Accepted / requests | Accepted per s | p50 / p99 (ms) | p99 of first copies (ms) | Executions per notification | Doubles (right after / in flight / later) | Losses | Peak RSS n8n (+ task runner) | Load average |',
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
	];
	for (const r of rows) {
		lines.push(
			`| ${r.build} | ${r.accepted} / ${r.requests} | ${r.perSecond} | ${r.p50Ms} / ${r.p99Ms} | ${r.firstP99Ms ?? ''} | ${r.executionsPerNotification} | ${r.doubles} (${r.doublesBy.rightAfter} / ${r.doublesBy.inFlight} / ${r.doublesBy.later}) | ${r.losses} | ${r.peakRssMb} MB (${r.peakGroupRssMb} MB) | ${r.loadAverage.join(' / ')} |`,
		);
	}
	lines.push('');
	return lines;
}

/**
 * The bench's burst step: the `--against` build first (when given), then this one, each in a fresh
 * n8n. --quick: 500 notifications, later repeats 5 s after.
 */
export async function benchBurst(o: { against?: { dir: string; label: string }; quick: boolean; log: (line: string) => void }): Promise<BurstRow[]> {
	const plan: BurstPlan = o.quick ? { ...BENCH_PLAN, notifications: 500, laterMs: 5_000 } : BENCH_PLAN;
	const rows: BurstRow[] = [];
	if (o.against) rows.push(await measureBurst({ build: o.against.label, packageDir: o.against.dir, plan, log: o.log }));
	rows.push(await measureBurst({ build: 'this build', plan, log: o.log }));
	return rows;
}

/** What Ignore Duplicate Deliveries costs (issue 55): distinct notifications only, from 20 senders. */
export const OPTIONS_PLAN: BurstPlan = { notifications: 4_000, senders: 20, repeatEvery: 0, kinds: [], laterMs: 0 };

/** The configurations compared: the option off, on (the default), on with a Notification ID Field. */
export const OPTION_CONFIGS: Array<{ build: string; options: TriggerOptions }> = [
	{ build: 'Ignore Duplicate Deliveries off', options: { ignoreDuplicates: false } },
	{ build: 'on (the default)', options: {} },
	{ build: 'on, Notification ID Field = data.id', options: { notificationIdField: 'data.id' } },
];

/**
 * `--only burst-options`: this build in a fresh n8n per configuration, the configurations in turn,
 * `rounds` times (--quick: 1,000 notifications, one round).
 */
export async function benchBurstOptions(o: { quick: boolean; rounds: number; log: (line: string) => void }): Promise<BurstRow[]> {
	const plan: BurstPlan = o.quick ? { ...OPTIONS_PLAN, notifications: 1_000 } : OPTIONS_PLAN;
	const rows: BurstRow[] = [];
	for (let round = 0; round < (o.quick ? 1 : o.rounds); round++) {
		for (const config of OPTION_CONFIGS) rows.push(await measureBurst({ build: config.build, plan, options: config.options, log: o.log }));
	}
	return rows;
}
