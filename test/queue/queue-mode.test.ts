/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * n8n 2.8.4 in queue mode (scaling mode) with the packed package on every instance: Postgres
 * and Redis of the test's own, one main, two webhook processes behind a balancer (WEBHOOK_URL)
 * and two workers. Proves that the trigger registers exactly one webhook (also after a main
 * restart) at WEBHOOK_URL; that forged deliveries get 401 and start nothing; that 200 deliveries
 * in bursts across two worker restarts (one at a quiet moment, one under load) give one
 * execution each, none lost at the webhook processes or duplicated, all successful except the
 * few n8n's own worker-shutdown races may fail under load (asserted to be only those); that
 * Return All runs on a worker; that deactivation deletes the webhook. Measures duplicate
 * deliveries at both webhook processes (sequential and concurrent) against Ignore Duplicate
 * Deliveries, n8n's Remove Duplicates and an atomic claim in a database.
 * The polling trigger (the refunds example, polling every second): it polls from main only
 * (polls go on while every worker is stopped, none arrive while main is down), main enqueues
 * each emission ("Enqueued execution N" in main's log only) and a worker runs it ("Worker
 * started execution N"); each refund request gives exactly one execution and one message, also
 * across a stop of every worker and a main restart, after which polling resumes from the cursor
 * saved in Postgres (nothing replayed, nothing missed).
 * An Excel export of 200,000 movements on a worker in queue mode's default binary data mode
 * (`database`, n8n 2.x: the whole file is read into memory and stored in Postgres, at most 512 MiB a
 * file): stored, within the cap, and a workbook that reads back row by row (issue 52).
 *
 * `npm run test:queue`. Figures go to test-output/queue-mode.json (quoted in docs/queue-mode.md).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import axios from 'axios';

import { CURSOR_MARGIN_MS } from '../../nodes/SalesPayments/polling/state';
import { demoExamples } from '../support/demo';
import { readXlsxStreaming } from '../support/helpers/xlsx';
import { ensureN8n, packPackage, REPO_DIR } from '../support/n8n-install';
import { sleep, waitFor } from '../support/n8n-process';
import type { ExecutionRow, QueueCluster, RunData } from '../support/queue/cluster';
import { itemsOf, QueueCluster as Cluster } from '../support/queue/cluster';
import { ensureQueueServices } from '../support/queue/services';
import { addMovements } from '../support/simulator/routes/financials';
import type { Simulator } from '../support/simulator/server';
import { startSimulator } from '../support/simulator/server';

const SECRET_HEADER = 'x-sp-webhook-secret';
const CREDENTIAL_ID = 'spQueueApi';
const TRIGGER_WF = 'wfQueueTrigger';
const DEDUP_WF = 'wfQueueDedup';
const RETURN_ALL_WF = 'wfQueueReturnAll';
const TRIGGER_HOOK = '5b0c9a7e-1d2f-4e3a-9b8c-7d6e5f4a3b21';
const DEDUP_HOOK = '6c1dab8f-2e30-4f4b-8c9d-8e7f6a5b4c32';
const RETURN_ALL_HOOK = '7d2ebc90-3f41-4a5c-9dae-9f80a7b6c543';
// n8n saves static data only for workflow ids of at most 21 characters.
const REMOVE_DUP_WF = 'wfQueueRemoveDup';
const REMOVE_DUP_HOOK = '8e3fcda1-4052-4b6d-8ebf-a091b8c7d654';
const CLAIM_WF = 'wfQueueClaim';
const CLAIM_HOOK = '9f40deb2-5163-4c7e-9fc0-b1a2c9d8e765';
const APP_CREDENTIAL_ID = 'spQueueAppDb';
/** The users' own database (same server here): a table of claimed delivery keys. */
const CLAIM_TABLE = 'processed_deliveries';
/** Duplicate pairs sent one after the other, and at the same moment, to the two webhook processes. */
const SEQUENTIAL_PAIRS = 5;
const CONCURRENT_PAIRS = 10;
/** Distinct deliveries sent together, then each repeated. */
const SPREAD = 20;
/** Deliveries sent one at a time to measure the webhook process's own latency. */
const SINGLE_DELIVERIES = 20;
const RETURN_ALL_PATH = 'sp-queue-return-all';
const EXCEL_WF = 'wfQueueExcel';
const EXCEL_HOOK = 'a051ef03-6274-4d8f-a0d1-c2b3dae9f876';
const EXCEL_PATH = 'sp-queue-excel';
const EXCEL_CREDENTIAL_ID = 'spQueueExcelApi';
/** Movements of the business the Excel export reads (another business of the same keys: the other tests' lists stay small). */
const EXCEL_MOVEMENTS = 200_000;
/** Movements added to the primary business, so that Return All walks many pages. */
const EXTRA_MOVEMENTS = 12_000;
const BURSTS = 4;
/** Jobs each worker runs at once (n8n's default). */
const WORKER_CONCURRENCY = 10;
/** The errors n8n 2.8.4 gives jobs caught by a worker's shutdown (see the bursts test). */
const WORKER_SHUTDOWN_RACE = /failed to be processed too many times|did not finish, possible out-of-memory|Driver not Connected/;
const BURST_SIZE = 50;
/** Install of Postgres/Redis (apt) and n8n (npm) on a fresh machine. */
const SETUP_TIMEOUT = 30 * 60_000;
/** The example workflow "tell the finance team about new refund requests" (a polling trigger). */
const POLL_WF = 'spExampleRefunds';
const POLL_TRIGGER = 'New refund request';
/** Every second: n8n refuses a `*` in the seconds field of a poll's cron, a range passes. */
const EVERY_SECOND = '0-59 * * * * *';
/** Refund requests created one at a time with everything running. */
const ONE_AT_A_TIME = 3;
/** Refund requests created while main is down. */
const WHILE_MAIN_DOWN = 3;
/** How long the test watches for polls while main is down (the cron fires every second). */
const MAIN_DOWN_WATCH_MS = 4_000;
/** Window over which polls per second are counted. */
const RATE_WINDOW_MS = 3_000;

const credential = { salesPaymentsApi: { id: CREDENTIAL_ID, name: 'Sales & Payments (queue)' } };
/** The business the Excel export reads: the primary account's second. */
const excelBusiness = () => String(sim.state.businesses[1].id);

function triggerWorkflow(id: string, webhookId: string, events: string[], ignoreDuplicates: boolean, withGetOrder: boolean) {
	const nodes: Array<Record<string, unknown>> = [
		{
			id: `${id}-trigger`,
			name: 'Trigger',
			type: 'n8n-nodes-sales-payments.salesPaymentsTrigger',
			typeVersion: 1,
			position: [0, 0],
			webhookId,
			// Set explicitly: the test must not depend on the option's default.
			parameters: { events, options: { ignoreDuplicates } },
			credentials: credential,
		},
	];
	if (withGetOrder) {
		nodes.push({
			id: `${id}-get`,
			name: 'Get the order',
			type: 'n8n-nodes-sales-payments.salesPayments',
			typeVersion: 1,
			position: [240, 0],
			parameters: { resource: 'order', operation: 'get', orderId: '={{ $json.data.id }}', simplify: true },
			credentials: credential,
		});
	}
	return {
		id,
		name: `queue ${id}`,
		active: false,
		nodes,
		connections: withGetOrder ? { Trigger: { main: [[{ node: 'Get the order', type: 'main', index: 0 }]] } } : {},
		settings: { executionOrder: 'v1' },
	};
}

/** Trigger (option off) -> Remove Duplicates (across executions, keyed on event, record and status) -> Passed. */
const removeDuplicatesWorkflow = {
	...triggerWorkflow(REMOVE_DUP_WF, REMOVE_DUP_HOOK, ['order.canceled'], false, false),
	nodes: [
		...triggerWorkflow(REMOVE_DUP_WF, REMOVE_DUP_HOOK, ['order.canceled'], false, false).nodes,
		{
			id: 'rd-remove',
			name: 'Remove Duplicates',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			position: [240, 0],
			parameters: {
				operation: 'removeItemsSeenInPreviousExecutions',
				logic: 'removeItemsWithAlreadySeenKeyValues',
				dedupeValue: "={{ [$json.event, $json.data.id, $json.data.status].join(':') }}",
				options: {},
			},
		},
		{ id: 'rd-passed', name: 'Passed', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [480, 0], parameters: {} },
	],
	connections: {
		Trigger: { main: [[{ node: 'Remove Duplicates', type: 'main', index: 0 }]] },
		'Remove Duplicates': { main: [[{ node: 'Passed', type: 'main', index: 0 }]] },
	},
};

/**
 * Trigger (option off) -> Claim: one atomic INSERT ... ON CONFLICT DO NOTHING of the key into a
 * table with a unique key; `inserted` is 1 for exactly one execution per key (an IF on it
 * would then guard the real work).
 */
const claimWorkflow = {
	...triggerWorkflow(CLAIM_WF, CLAIM_HOOK, ['order.refunded'], false, false),
	nodes: [
		...triggerWorkflow(CLAIM_WF, CLAIM_HOOK, ['order.refunded'], false, false).nodes,
		{
			id: 'claim-insert',
			name: 'Claim',
			type: 'n8n-nodes-base.postgres',
			typeVersion: 2.6,
			position: [240, 0],
			parameters: {
				operation: 'executeQuery',
				query: `WITH ins AS (INSERT INTO ${CLAIM_TABLE} (key) VALUES ($1) ON CONFLICT DO NOTHING RETURNING key) SELECT count(*)::int AS inserted FROM ins`,
				// One expression: the Postgres node makes each {{ }} a parameter of its own.
				options: { queryReplacement: "={{ [$json.event, $json.data.id, $json.data.status].join(':') }}" },
			},
			credentials: { postgres: { id: APP_CREDENTIAL_ID, name: 'App database (queue)' } },
		},
	],
	connections: { Trigger: { main: [[{ node: 'Claim', type: 'main', index: 0 }]] } },
};

/** Webhook -> Movement › Get Many, Return All, with `extra` parameters and its credential. */
function movementsWorkflow(id: string, name: string, hook: { webhookId: string; path: string }, extra: Record<string, unknown>, credentials = credential) {
	return {
		id,
		name,
		active: false,
		nodes: [
			{
				id: `${id}-hook`,
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: hook.webhookId,
				parameters: { httpMethod: 'POST', path: hook.path, responseMode: 'onReceived', options: {} },
			},
			{
				id: `${id}-movements`,
				name: 'Movements',
				type: 'n8n-nodes-sales-payments.salesPayments',
				typeVersion: 1,
				position: [240, 0],
				parameters: { resource: 'movement', operation: 'getMany', returnAll: true, ...extra },
				credentials,
			},
		],
		connections: { Webhook: { main: [[{ node: 'Movements', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const returnAllWorkflow = movementsWorkflow(RETURN_ALL_WF, 'queue Return All', { webhookId: RETURN_ALL_HOOK, path: RETURN_ALL_PATH }, {});

/** The export business's movements to an Excel file, in n8n's default binary data mode. */
const excelWorkflow = movementsWorkflow(
	EXCEL_WF,
	'queue Excel export',
	{ webhookId: EXCEL_HOOK, path: EXCEL_PATH },
	{ output: 'xlsxFile', fileOptions: { fileName: 'movements-queue' } },
	{ salesPaymentsApi: { id: EXCEL_CREDENTIAL_ID, name: 'Sales & Payments (queue, export)' } },
);

/** A process's peak and current resident memory (MB), from /proc. */
function memoryOf(pid: number | undefined): { peakMb: number; rssMb: number } | undefined {
	if (!pid) return undefined;
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
		return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
	} catch {
		return undefined;
	}
}

/** The refunds example as users import it, polling every second, with this cluster's credential. */
function refundsWorkflow(simulator: Simulator): Record<string, unknown> {
	const example = demoExamples(simulator, os.tmpdir()).find((w) => w.id === POLL_WF);
	if (!example) throw new Error(`example workflow ${POLL_WF} not found`);
	const nodes = (example.nodes as Array<Record<string, unknown>>).map(
		(n): Record<string, unknown> => (n.credentials ? { ...n, credentials: credential } : { ...n }),
	);
	const trigger = nodes.find((n) => n.name === POLL_TRIGGER);
	if (!trigger) throw new Error(`no node "${POLL_TRIGGER}" in ${POLL_WF}`);
	trigger.parameters = { ...(trigger.parameters as object), pollTimes: { item: [{ mode: 'custom', cronExpression: EVERY_SECOND }] } };
	return { ...example, nodes };
}

let sim: Simulator;
let cluster: QueueCluster;
/** An order of the primary business (created by a genuine delivery test). */
let knownOrderId = '';
const figures: Record<string, unknown> = {};
const log = (line: string) => process.stderr.write(`[queue] ${line}\n`);

type SimWebhook = { id: string; dispatchers: Array<{ url: string; headers: Record<string, string> }> };

function simWebhooks(): SimWebhook[] {
	return sim.state.col('webhooks') as unknown as SimWebhook[];
}

function webhooksFor(hook: string): SimWebhook[] {
	return simWebhooks().filter((w) => w.dispatchers.some((d) => d.url.includes(`/webhook/${hook}/`)));
}

const productionPath = (hook: string) => `/webhook/${hook}/webhook`;

/** Paid orders on the platform: each sends order.paid to the trigger's webhook. */
async function createPaidOrders(count: number): Promise<string[]> {
	const answers = await Promise.all(
		Array.from({ length: count }, async () => (await axios.post(`${sim.url}/__sim/orders`, {})).data as { order: { id: string } }),
	);
	return answers.map((a) => a.order.id);
}

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);

function latency(ms: number[]) {
	const sorted = [...ms].sort((a, b) => a - b);
	return { p50: round1(percentile(sorted, 50)), p95: round1(percentile(sorted, 95)), max: round1(sorted[sorted.length - 1]) };
}

/** A delivery as the platform sends it; the same tag gives the same body. */
function delivery(event: string, tag: string, recordId = `order-${tag}`) {
	return {
		id: `ntf-${tag}`,
		event,
		createdAt: '2026-11-22T12:00:00.000Z',
		businessId: sim.credentials.businessId,
		data: { id: recordId, status: 'paid', updatedAt: '2026-11-22T12:00:00.000Z' },
	};
}

interface Hook {
	workflowId: string;
	event: string;
	/** Posts a signed delivery straight to webhook process `index`; resolves with the status. */
	send(index: number, body: unknown): Promise<number>;
}

function triggerHook(workflowId: string, hookId: string, event: string): Hook {
	const [webhook] = webhooksFor(hookId);
	const secret = webhook.dispatchers[0].headers[SECRET_HEADER];
	return {
		workflowId,
		event,
		send: async (index, body) =>
			(
				await axios.post(`http://127.0.0.1:${cluster.webhooks[index].port}${productionPath(hookId)}`, body, {
					headers: { [SECRET_HEADER]: secret },
					validateStatus: () => true,
				})
			).status,
	};
}

/** Activates a trigger workflow through main and waits for its one webhook on the platform. */
async function activateTrigger(workflowId: string, hookId: string, event: string): Promise<Hook> {
	await cluster.main.n8n.activate(workflowId);
	await waitFor(`the webhook of ${workflowId}`, () => (webhooksFor(hookId).length ? true : undefined), 30_000);
	expect(webhooksFor(hookId)).toHaveLength(1);
	return triggerHook(workflowId, hookId, event);
}

/**
 * How the two copies of a delivery arrive, one at each webhook process: `sequential`, the
 * second once the first was answered (back to back); `afterRun`, the second once the first's
 * execution finished (a platform retry seconds later); `concurrent`, both at the same moment.
 */
type PairMode = 'sequential' | 'afterRun' | 'concurrent';

/** `count` duplicate pairs of deliveries `ntf-<tag>-<k>`. */
async function deliverPairs(hook: Hook, tag: string, count: number, mode: PairMode): Promise<void> {
	for (let k = 0; k < count; k++) {
		const body = delivery(hook.event, `${tag}-${k}`);
		const first = k % 2;
		let statuses: number[];
		if (mode === 'concurrent') statuses = await Promise.all([hook.send(first, body), hook.send(1 - first, body)]);
		else {
			const created = (await cluster.executions(hook.workflowId)).length;
			statuses = [await hook.send(first, body)];
			if (mode === 'afterRun') await cluster.waitForExecutions(hook.workflowId, created + 1, 60_000);
			statuses.push(await hook.send(1 - first, body));
		}
		expect(statuses).toEqual([200, 200]);
	}
}

/**
 * Waits until every execution of the workflow finished (all exist once their delivery was
 * answered), checks they succeeded, and counts per delivery id (the trigger item's `id`) the
 * executions for which `passed` holds (by default: every execution).
 */
/** Executions per delivery of a workflow, counting only those after the first `since` (earlier tests' own). */
async function runsPerDelivery(
	workflowId: string,
	passed: (data: RunData | undefined) => boolean = () => true,
	since = 0,
): Promise<Map<string, number>> {
	const created = (await cluster.executions(workflowId)).length;
	await cluster.waitForExecutions(workflowId, created, 60_000);
	const rows = (await cluster.executions(workflowId, true)).slice(since);
	const failed = rows.filter((r) => r.status !== 'success').map((r) => r.id);
	expect(failed.length ? (await cluster.failures(workflowId)).filter((f) => failed.includes(f.id as number)) : []).toEqual([]);
	const runs = new Map<string, number>();
	for (const r of rows) {
		const id = itemsOf(r.data, 'Trigger')[0]?.id;
		if (typeof id === 'string' && passed(r.data)) runs.set(id, (runs.get(id) ?? 0) + 1);
	}
	return runs;
}

/** Runs of the deliveries `ntf-<tag>-0` ... `ntf-<tag>-<n-1>` (or `ntf-<tag>` when n is 1 and no such ids). */
function counts(runs: Map<string, number>, tag: string, n: number): number[] {
	if (n === 1 && !runs.has(`ntf-${tag}-0`)) return [runs.get(`ntf-${tag}`) ?? 0];
	return Array.from({ length: n }, (_, k) => runs.get(`ntf-${tag}-${k}`) ?? 0);
}

beforeAll(async () => {
	const t0 = Date.now();
	const binaries = await ensureQueueServices(log);
	figures.servicesReadyMs = Date.now() - t0;
	await ensureN8n(log);
	const tgz = await packPackage();
	sim = await startSimulator();
	addMovements(sim, sim.credentials.businessId, EXTRA_MOVEMENTS);
	addMovements(sim, excelBusiness(), EXCEL_MOVEMENTS - sim.state.col('movements').filter((m) => m._businessId === excelBusiness()).length);
	const t1 = Date.now();
	cluster = await Cluster.start({
		binaries,
		tgz,
		webhooks: 2,
		workers: 2,
		workerConcurrency: WORKER_CONCURRENCY,
		credentials: (c) => [
			{ id: CREDENTIAL_ID, name: 'Sales & Payments (queue)', type: 'salesPaymentsApi', data: sim.credentials },
			{ id: EXCEL_CREDENTIAL_ID, name: 'Sales & Payments (queue, export)', type: 'salesPaymentsApi', data: { ...sim.credentials, businessId: excelBusiness() } },
			{
				id: APP_CREDENTIAL_ID,
				name: 'App database (queue)',
				type: 'postgres',
				data: { host: '127.0.0.1', port: c.postgres.port, database: 'app', user: 'postgres', password: '', ssl: 'disable', allowUnauthorizedCerts: false, maxConnections: 20 },
			},
		],
		workflows: [
			triggerWorkflow(TRIGGER_WF, TRIGGER_HOOK, ['order.paid'], false, true),
			triggerWorkflow(DEDUP_WF, DEDUP_HOOK, ['order.updated'], true, false),
			removeDuplicatesWorkflow,
			claimWorkflow,
			returnAllWorkflow,
			excelWorkflow,
			refundsWorkflow(sim),
		],
		publish: [TRIGGER_WF, RETURN_ALL_WF, EXCEL_WF],
		log,
	});
	figures.clusterStartMs = Date.now() - t1;
}, SETUP_TIMEOUT);

afterAll(async () => {
	const t = Date.now();
	await cluster?.stop();
	figures.clusterStopMs = Date.now() - t;
	await sim?.close();
	const outDir = path.join(REPO_DIR, 'test-output');
	mkdirSync(outDir, { recursive: true });
	writeFileSync(path.join(outDir, 'queue-mode.json'), `${JSON.stringify(figures, null, 2)}\n`);
	log(`figures: ${JSON.stringify(figures)}`);
}, 120_000);

describe('n8n 2.8.4 queue mode: main + 2 webhook processes + 2 workers, Postgres, Redis', () => {
	it('main registered exactly one webhook, pointing at WEBHOOK_URL (the webhook processes), not at main', async () => {
		const [webhook] = await waitFor('the trigger webhook', () => (webhooksFor(TRIGGER_HOOK).length ? webhooksFor(TRIGGER_HOOK) : undefined), 60_000);
		expect(webhooksFor(TRIGGER_HOOK)).toHaveLength(1);
		expect(simWebhooks()).toHaveLength(1);
		expect(sim.requestsTo('POST', '/webhooks')).toHaveLength(1);
		expect(webhook.dispatchers).toHaveLength(1);
		expect(webhook.dispatchers[0].url).toBe(`${cluster.webhookUrl}webhook/${TRIGGER_HOOK}/webhook`);
		expect(webhook.dispatchers[0].url).not.toContain(`:${cluster.main.port}/`);
		// Main serves no production webhooks (N8N_DISABLE_PRODUCTION_MAIN_PROCESS); each webhook
		// process knows the path (an unsigned delivery is refused by the node, not "not found").
		const atMain = await axios.post(`http://127.0.0.1:${cluster.main.port}${productionPath(TRIGGER_HOOK)}`, {}, { validateStatus: () => true });
		expect(atMain.status).toBe(404);
		for (const node of cluster.webhooks) {
			const res = await axios.post(`http://127.0.0.1:${node.port}${productionPath(TRIGGER_HOOK)}`, {}, { validateStatus: () => true });
			expect({ process: node.name, status: res.status }).toEqual({ process: node.name, status: 401 });
		}
	}, 90_000);

	it('forged and unsigned deliveries get 401 at both webhook processes and start nothing', async () => {
		const before = (await cluster.executions(TRIGGER_WF)).length;
		const body = { id: 'ntf-forged', event: 'order.paid', createdAt: new Date().toISOString(), data: { id: 'forged-order', status: 'paid' } };
		const statuses: number[] = [];
		for (const node of cluster.webhooks) {
			const url = `http://127.0.0.1:${node.port}${productionPath(TRIGGER_HOOK)}`;
			for (const headers of [{ [SECRET_HEADER]: 'f'.repeat(64) }, {}, { [SECRET_HEADER]: '' }]) {
				statuses.push((await axios.post(url, body, { headers, validateStatus: () => true })).status);
			}
		}
		expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
		// Executions are created before a webhook process answers (responseMode onReceived), so
		// none can show up later; one genuine delivery afterwards is the only new execution.
		const [orderId] = await createPaidOrders(1);
		await sim.settle();
		const rows = await cluster.waitForExecutions(TRIGGER_WF, before + 1, 60_000);
		expect(rows).toHaveLength(before + 1);
		const withData = (await cluster.executions(TRIGGER_WF, true)).slice(before);
		expect(withData.map((r) => (itemsOf(r.data, 'Trigger')[0]?.data as { id?: string })?.id)).toEqual([orderId]);
		knownOrderId = orderId;
		expect(sim.requestsTo('GET', '/orders/forged-order')).toHaveLength(0);
	}, 90_000);

	it('one delivery at a time: answered by a webhook process, run by a worker (latency measured)', async () => {
		const before = (await cluster.executions(TRIGGER_WF)).length;
		const from = cluster.balancer.log.length;
		for (let k = 0; k < SINGLE_DELIVERIES; k++) {
			await createPaidOrders(1);
			await sim.settle();
		}
		const rows = (await cluster.waitForExecutions(TRIGGER_WF, before + SINGLE_DELIVERIES, 60_000)).slice(before);
		expect(rows.map((r) => r.status)).toEqual(Array(SINGLE_DELIVERIES).fill('success'));
		const forwarded = cluster.balancer.log.slice(from).filter((f) => f.path === productionPath(TRIGGER_HOOK));
		expect(forwarded.map((f) => f.status)).toEqual(Array(SINGLE_DELIVERIES).fill(200));
		figures.singleDeliveries = {
			deliveries: SINGLE_DELIVERIES,
			webhookProcessLatencyMs: latency(forwarded.map((f) => f.ms)),
			createdToFinishedMs: latency(rows.map((r) => r.createdToFinishedMs ?? NaN)),
		};
	}, 120_000);

	it(`${BURSTS * BURST_SIZE} deliveries in bursts across two worker restarts: one execution each, none lost at the webhook processes or duplicated`, async () => {
		const before = await cluster.executions(TRIGGER_WF);
		const balancerBefore = cluster.balancer.log.length;
		const deliveriesBefore = (sim.state.col('webhookDeliveries') as unknown[]).length;
		const [worker1, worker2] = cluster.workers;
		const t0 = Date.now();
		const orderOf = (r: ExecutionRow) => String((itemsOf(r.data, 'Trigger')[0]?.data as { id?: string })?.id);
		const waitAll = async (count: number) => await cluster.waitForExecutions(TRIGGER_WF, before.length + count, 180_000);

		// Part 1: a burst, worker-2 restarted at a quiet moment, a burst. Every execution succeeds.
		const quiet: string[] = [];
		quiet.push(...(await createPaidOrders(BURST_SIZE)));
		await sim.settle();
		await waitAll(BURST_SIZE);
		const quietStop = await worker2.stop();
		await worker2.start();
		quiet.push(...(await createPaidOrders(BURST_SIZE)));
		await sim.settle();
		const afterQuiet = (await waitAll(2 * BURST_SIZE)).filter((r) => !before.some((b) => b.id === r.id));
		expect(afterQuiet.some((r) => r.status !== 'success') ? await cluster.failures(TRIGGER_WF) : []).toEqual([]);

		// Part 2: worker-1 gets its SIGTERM (once) while it takes jobs of a burst; another burst
		// arrives while it shuts down; it starts again once the platform has sent everything.
		const loaded: string[] = [];
		loaded.push(...(await createPaidOrders(BURST_SIZE)));
		await sleep(300);
		const stopping = worker1.stop();
		loaded.push(...(await createPaidOrders(BURST_SIZE)));
		const loadedStop = await stopping;
		await sim.settle();
		await worker1.start();
		const total = BURSTS * BURST_SIZE;
		const orders = [...quiet, ...loaded];
		expect(orders).toHaveLength(total);

		// Every delivery was accepted by a webhook process (nothing queued on the platform).
		const deliveries = (sim.state.col('webhookDeliveries') as Array<{ ok: boolean; status: number }>).slice(deliveriesBefore);
		expect(deliveries).toHaveLength(total);
		expect(deliveries.filter((d) => !d.ok)).toEqual([]);
		const forwarded = cluster.balancer.log.slice(balancerBefore).filter((f) => f.path === productionPath(TRIGGER_HOOK));
		expect(forwarded.map((f) => f.status)).toEqual(Array(total).fill(200));
		const perProcess = [0, 0];
		for (const f of forwarded) perProcess[f.backend]++;
		expect(perProcess.every((n) => n > 0)).toBe(true);

		// Executions exist once their delivery was answered; a job orphaned by a shutdown stays
		// "new" until a stalled-job check (at a worker's start, then every 30 s).
		const rows = await waitAll(total);
		const elapsedMs = Date.now() - t0;
		const fresh = rows.filter((r) => !before.some((b) => b.id === r.id));
		expect(fresh).toHaveLength(total);
		expect(new Set(fresh.map((r) => r.mode))).toEqual(new Set(['webhook']));
		const data = (await cluster.executions(TRIGGER_WF, true)).filter((r) => fresh.some((f) => f.id === r.id));

		// n8n 2.8.4 can fail a few jobs a worker takes as it shuts down (its known races: Bull's
		// forced disconnect orphans a job, "failed to be processed too many times"; the worker
		// closes its database while a job it just took runs, "Driver not Connected"; or exits
		// during it, "did not finish", or a "crashed" execution without an error). Only those,
		// only under load, at most one worker's concurrency of them.
		const failed = fresh.filter((r) => r.status !== 'success');
		const failures = (failed.length ? await cluster.failures(TRIGGER_WF) : []).filter((f) => failed.some((r) => r.id === f.id));
		for (const f of failures) {
			const race = f.status === 'crashed' || WORKER_SHUTDOWN_RACE.test(String(f.error));
			expect({ id: f.id, status: f.status, error: f.error, race }).toEqual({ id: f.id, status: f.status, error: f.error, race: true });
		}
		expect(failed.length).toBeLessThanOrEqual(WORKER_CONCURRENCY);

		// One execution per delivery: none lost at the webhook processes, none duplicated. A failed
		// execution whose data n8n replaced (a crash, "Driver not Connected") no longer shows its
		// order: there are exactly as many of those as orders not shown, all from the loaded half.
		const unreadable = data.filter((r) => orderOf(r) === 'undefined');
		for (const r of unreadable) expect(failed.map((f) => f.id)).toContain(r.id);
		const shown = data.filter((r) => orderOf(r) !== 'undefined').map(orderOf);
		expect(new Set(shown).size).toBe(shown.length);
		for (const id of shown) expect(orders).toContain(id);
		const notShown = orders.filter((id) => !shown.includes(id));
		expect(notShown).toHaveLength(unreadable.length);
		const failedOrders = [...data.filter((r) => failed.some((f) => f.id === r.id) && orderOf(r) !== 'undefined').map(orderOf), ...notShown];
		for (const id of failedOrders) expect(loaded).toContain(id);
		for (const r of data.filter((x) => x.status === 'success')) expect(itemsOf(r.data, 'Get the order')).toHaveLength(1);
		// The successful ones fetched their order once; nothing was fetched twice.
		for (const id of orders) {
			const gets = sim.requestsTo('GET', `/orders/${id}`).length;
			expect({ id, gets }).toEqual({ id, gets: failedOrders.includes(id) ? expect.any(Number) : 1 });
			expect(gets).toBeLessThanOrEqual(1);
		}

		// What n8n's Retry (executions list) makes of the failed ones.
		const retried: Array<{ error: string; status: string }> = [];
		for (const r of failed) {
			const res = await cluster.main.n8n.rest<{ data?: { status?: string } }>('POST', `/executions/${r.id}/retry`, { loadWorkflow: false });
			retried.push({
				error: String(failures.find((f) => f.id === r.id)?.error).slice(0, 50),
				status: res.status === 200 ? String(res.data.data?.status) : `HTTP ${res.status}`,
			});
		}
		if (failed.length) await waitAll(total + failed.length);
		const successes = new Map<string, number>();
		for (const r of (await cluster.executions(TRIGGER_WF, true)).filter((x) => x.status === 'success' && !before.some((b) => b.id === x.id))) {
			successes.set(orderOf(r), (successes.get(orderOf(r)) ?? 0) + 1);
		}
		expect([...successes.values()].filter((n) => n > 1)).toEqual([]);

		// Both workers ran executions, each was restarted once.
		const byWorker = cluster.workerOfExecutions();
		const ranOn: Record<string, number> = {};
		for (const r of fresh.filter((x) => x.status === 'success')) {
			const name = byWorker.get(r.id) ?? 'unknown';
			ranOn[name] = (ranOn[name] ?? 0) + 1;
		}
		expect(ranOn.unknown).toBeUndefined();
		expect(Object.keys(ranOn).sort()).toEqual(['worker-1', 'worker-2']);
		expect([quietStop.graceful, loadedStop.graceful]).toEqual([true, true]);

		figures.deliveries = {
			delivered: total,
			bursts: `${BURSTS} x ${BURST_SIZE}`,
			executions: fresh.length,
			lostAtWebhookProcesses: total - data.length,
			duplicated: shown.length - new Set(shown).size,
			failedWithoutTheirData: unreadable.length,
			quietRestart: { deliveries: quiet.length, failed: 0, workerStopMs: quietStop.ms },
			restartUnderLoad: {
				deliveries: loaded.length,
				failed: failures.map((f) => `${f.status}: ${String(f.error).slice(0, 50)}`),
				retried,
				ordersFetchedTwiceAfterRetry: orders.filter((id) => sim.requestsTo('GET', `/orders/${id}`).length > 1).length,
				workerStopMs: loadedStop.ms,
			},
			perWebhookProcess: perProcess,
			perWorker: ranOn,
			firstDeliveryToLastExecutionMs: elapsedMs,
			webhookProcessLatencyMs: latency(forwarded.map((f) => f.ms)),
			createdToFinishedMs: latency(fresh.filter((r) => r.status === 'success').map((r) => r.createdToFinishedMs ?? NaN)),
		};
	}, 300_000);

	it('a main restart keeps exactly one webhook; deliveries run while main is down', async () => {
		const [webhook] = webhooksFor(TRIGGER_HOOK);
		const createsBefore = sim.requestsTo('POST', '/webhooks').length;
		const detailsBefore = sim.requestsTo('GET', `/webhooks/details/${webhook.id}`).length;
		const before = (await cluster.executions(TRIGGER_WF)).length;

		const stopped = await cluster.main.stop();
		expect(stopped.graceful).toBe(true);
		// SIGTERM does not deactivate: the webhook stays registered, and the webhook processes
		// and workers keep serving deliveries without main.
		expect(webhooksFor(TRIGGER_HOOK).map((w) => w.id)).toEqual([webhook.id]);
		const [whileDown] = await createPaidOrders(1);
		await sim.settle();
		await cluster.waitForExecutions(TRIGGER_WF, before + 1, 60_000);

		const t0 = Date.now();
		await cluster.main.start();
		await cluster.loginToMain();
		// On start main checks the webhook on the platform (by its stored id) instead of adding one.
		await waitFor('main to check the webhook', () => (sim.requestsTo('GET', `/webhooks/details/${webhook.id}`).length > detailsBefore ? true : undefined), 60_000);
		figures.mainRestartToWebhookCheckedMs = Date.now() - t0;
		expect(sim.requestsTo('POST', '/webhooks')).toHaveLength(createsBefore);
		expect(webhooksFor(TRIGGER_HOOK).map((w) => w.id)).toEqual([webhook.id]);
		expect(simWebhooks()).toHaveLength(1);

		const [afterRestart] = await createPaidOrders(1);
		await sim.settle();
		const rows = await cluster.waitForExecutions(TRIGGER_WF, before + 2, 60_000);
		expect(rows.slice(-2).map((r) => r.status)).toEqual(['success', 'success']);
		for (const id of [whileDown, afterRestart]) expect(sim.requestsTo('GET', `/orders/${id}`)).toHaveLength(1);
	}, 180_000);

	it('Return All (Movement > Get Many) runs on a worker and returns every record once', async () => {
		const expected = (
			await axios.post(
				`${sim.url}/movement/filter?page=1&limit=1`,
				{},
				{ headers: { 'x-api-key': sim.credentials.apiKey, 'x-api-secret': sim.credentials.apiSecret, 'business-id': sim.credentials.businessId } },
			)
		).data as { data: { count: number } };
		const count = expected.data.count;
		expect(count).toBeGreaterThan(EXTRA_MOVEMENTS);
		sim.clearRequests();
		const t0 = Date.now();
		const res = await axios.post(`${cluster.webhookUrl}webhook/${RETURN_ALL_PATH}`, { month: 'all' }, { validateStatus: () => true });
		expect(res.status).toBe(200);
		const [row] = await cluster.waitForExecutions(RETURN_ALL_WF, 1, 120_000);
		figures.returnAll = { records: count, pages: 0, executionMs: Date.now() - t0 };
		const [withData] = await cluster.executions(RETURN_ALL_WF, true);
		expect(row.status).toBe('success');
		const items = itemsOf(withData.data, 'Movements');
		expect(items).toHaveLength(count);
		expect(new Set(items.map((m) => m.id)).size).toBe(count);
		const pages = sim.requestsTo('POST', '/movement/filter');
		expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(count / 1000));
		(figures.returnAll as Record<string, unknown>).pages = pages.length;
		const worker = cluster.workerOfExecutions().get(row.id);
		expect(worker).toMatch(/^worker-\d$/);
		(figures.returnAll as Record<string, unknown>).ranOn = worker;
	}, 180_000);

	it(`an Excel export of ${EXCEL_MOVEMENTS.toLocaleString('en-US')} movements on a worker, in the default binary data mode (database): stored in Postgres well within 512 MiB, a workbook that reads back row by row`, async () => {
		const before = cluster.workers.map((w) => memoryOf(w.proc.pid));
		const t0 = Date.now();
		const res = await axios.post(`${cluster.webhookUrl}webhook/${EXCEL_PATH}`, {}, { validateStatus: () => true });
		expect(res.status).toBe(200);
		const [row] = await cluster.waitForExecutions(EXCEL_WF, 1, 600_000);
		const executionMs = Date.now() - t0;
		const [withData] = await cluster.executions(EXCEL_WF, true);
		expect({ status: row.status, error: withData.data?.resultData.error?.message }).toEqual({ status: 'success', error: undefined });
		const [item] = (withData.data?.resultData.runData.Movements?.[0]?.data?.main?.[0] ?? []) as Array<{ json: Record<string, unknown>; binary?: { data?: { id?: string; fileName?: string } } }>;
		expect(item.json).toMatchObject({ fileName: 'movements-queue.xlsx', records: EXCEL_MOVEMENTS, reconciled: true });
		// n8n's default in queue mode: the file went to Postgres (binary_data), whole.
		const id = item.binary?.data?.id ?? '';
		expect(id).toMatch(/^database:/);
		const stored = (await cluster.postgres.query(`SELECT "fileSize" || '|' || encode(data, 'base64') FROM binary_data WHERE "fileId" = '${id.slice('database:'.length).replace(/'/g, "''")}'`)).trim();
		const [size, base64] = [stored.slice(0, stored.indexOf('|')), stored.slice(stored.indexOf('|') + 1)];
		const file = Buffer.from(base64, 'base64');
		expect(file.length).toBe(Number(size));
		expect(file.length).toBeLessThan((512 * 1024 ** 2) / 8);
		// Row by row, as a streaming reader takes a large workbook.
		const [sheet] = await readXlsxStreaming(file);
		expect(sheet.rows).toHaveLength(EXCEL_MOVEMENTS + 1);
		expect(new Set(sheet.rows.slice(1).map((r) => r[0])).size).toBe(EXCEL_MOVEMENTS);
		const worker = cluster.workerOfExecutions().get(row.id);
		expect(worker).toMatch(/^worker-\d$/);
		const index = cluster.workers.findIndex((w) => w.name === worker);
		figures.excelDatabaseMode = {
			movements: EXCEL_MOVEMENTS,
			fileBytes: file.length,
			executionMs,
			ranOn: worker,
			workerMemoryBefore: before[index],
			workerMemoryAfter: memoryOf(cluster.workers[index]?.proc.pid),
		};
	}, 900_000);

	it('Ignore Duplicate Deliveries (set on): the same delivery at both webhook processes, sequentially and concurrently', async () => {
		const hook = await activateTrigger(DEDUP_WF, DEDUP_HOOK, 'order.updated');
		// Sequentially (a platform retry after the first answer): the first answer comes after
		// the node saved its static data, so the second process sees it.
		await deliverPairs(hook, 'seq', SEQUENTIAL_PAIRS, 'sequential');
		// Concurrently: both webhook processes read the static data before either saves it.
		await deliverPairs(hook, 'con', CONCURRENT_PAIRS, 'concurrent');
		// Distinct deliveries arriving together, then each again one at a time: concurrent saves
		// of the static data (read, change, write the whole object) can drop remembered ones.
		await Promise.all(Array.from({ length: SPREAD }, async (_, k) => expect(await hook.send(k % 2, delivery('order.updated', `spread-${k}`))).toBe(200)));
		for (let k = 0; k < SPREAD; k++) expect(await hook.send((k + 1) % 2, delivery('order.updated', `spread-${k}`))).toBe(200);

		const runs = await runsPerDelivery(DEDUP_WF);
		const sequential = counts(runs, 'seq', SEQUENTIAL_PAIRS);
		const concurrent = counts(runs, 'con', CONCURRENT_PAIRS);
		const spread = counts(runs, 'spread', SPREAD);
		// Sequential duplicates are dropped whichever process gets them.
		expect(sequential).toEqual(Array(SEQUENTIAL_PAIRS).fill(1));
		// Concurrent ones: at least one execution each, at most one per webhook process.
		for (const n of [...concurrent, ...spread]) expect([1, 2]).toContain(n);
		figures.ignoreDuplicates = {
			sequentialPairs: SEQUENTIAL_PAIRS,
			sequentialExecutions: sum(sequential),
			concurrentPairs: CONCURRENT_PAIRS,
			concurrentExecutions: sum(concurrent),
			concurrentPairsRunTwice: concurrent.filter((n) => n === 2).length,
			distinctDeliveriesTogetherThenRepeated: SPREAD,
			repeatsThatRanAgain: spread.filter((n) => n === 2).length,
		};

		// Control: with the option explicitly off, a sequential duplicate runs twice.
		const before = (await cluster.executions(TRIGGER_WF)).length;
		const trigger = triggerHook(TRIGGER_WF, TRIGGER_HOOK, 'order.paid');
		const body = delivery('order.paid', 'control', knownOrderId);
		expect(await trigger.send(0, body)).toBe(200);
		expect(await trigger.send(1, body)).toBe(200);
		await cluster.waitForExecutions(TRIGGER_WF, before + 2, 60_000);
		// Only this test's executions: the burst test may have left failed ones (worker-shutdown races).
		const control = counts(await runsPerDelivery(TRIGGER_WF, undefined, before), 'control', 1);
		expect(control).toEqual([2]);
		figures.ignoreDuplicates = { ...(figures.ignoreDuplicates as object), optionOffSequentialExecutions: control[0] };

		await cluster.main.n8n.deactivate(DEDUP_WF);
		expect(webhooksFor(DEDUP_HOOK)).toHaveLength(0);
	}, 180_000);

	it("n8n's Remove Duplicates across executions behind the trigger: a repeat after the first run, back to back, concurrently", async () => {
		const hook = await activateTrigger(REMOVE_DUP_WF, REMOVE_DUP_HOOK, 'order.canceled');
		// One delivery first: Remove Duplicates creates its record in the database on first use.
		const warm = await hook.send(0, delivery('order.canceled', 'warm'));
		if (warm !== 200) {
			const stored = await cluster.postgres.query(`SELECT "staticData" FROM workflow_entity WHERE id = '${REMOVE_DUP_WF}'`);
			throw new Error(`warm-up delivery got ${warm}; platform webhooks ${JSON.stringify(webhooksFor(REMOVE_DUP_HOOK))}; stored static data ${stored}`);
		}
		await cluster.waitForExecutions(REMOVE_DUP_WF, 1, 60_000);
		// The node reads and writes its list inside the execution, on a worker: what counts is
		// whether the first execution ran before the second.
		await deliverPairs(hook, 'run', SEQUENTIAL_PAIRS, 'afterRun');
		await deliverPairs(hook, 'seq', SEQUENTIAL_PAIRS, 'sequential');
		await deliverPairs(hook, 'con', CONCURRENT_PAIRS, 'concurrent');
		// Every delivery starts an execution (the trigger's option is off): count those that got
		// past Remove Duplicates.
		const passed = await runsPerDelivery(REMOVE_DUP_WF, (data) => itemsOf(data, 'Passed').length > 0);
		const started = await runsPerDelivery(REMOVE_DUP_WF);
		for (const [tag, n] of [['run', SEQUENTIAL_PAIRS], ['seq', SEQUENTIAL_PAIRS], ['con', CONCURRENT_PAIRS]] as const) {
			expect(counts(started, tag, n)).toEqual(Array(n).fill(2));
		}
		const afterRun = counts(passed, 'run', SEQUENTIAL_PAIRS);
		const sequential = counts(passed, 'seq', SEQUENTIAL_PAIRS);
		const concurrent = counts(passed, 'con', CONCURRENT_PAIRS);
		expect(afterRun).toEqual(Array(SEQUENTIAL_PAIRS).fill(1));
		for (const n of [...sequential, ...concurrent]) expect([1, 2]).toContain(n);
		figures.removeDuplicates = {
			afterFirstRunPairs: SEQUENTIAL_PAIRS,
			afterFirstRunPassed: sum(afterRun),
			backToBackPairs: SEQUENTIAL_PAIRS,
			backToBackPassedTwice: sequential.filter((n) => n === 2).length,
			concurrentPairs: CONCURRENT_PAIRS,
			concurrentPassedTwice: concurrent.filter((n) => n === 2).length,
		};
		await cluster.main.n8n.deactivate(REMOVE_DUP_WF);
		expect(webhooksFor(REMOVE_DUP_HOOK)).toHaveLength(0);
	}, 180_000);

	it('an atomic claim in a database (INSERT ... ON CONFLICT DO NOTHING) behind the trigger: exactly once, also concurrently', async () => {
		await cluster.postgres.createDatabase('app');
		await cluster.postgres.query(`CREATE TABLE ${CLAIM_TABLE} (key text PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())`, 'app');
		const hook = await activateTrigger(CLAIM_WF, CLAIM_HOOK, 'order.refunded');
		await deliverPairs(hook, 'seq', SEQUENTIAL_PAIRS, 'sequential');
		await deliverPairs(hook, 'con', CONCURRENT_PAIRS, 'concurrent');
		const started = await runsPerDelivery(CLAIM_WF);
		const claimed = await runsPerDelivery(CLAIM_WF, (data) => itemsOf(data, 'Claim')[0]?.inserted === 1);
		expect(counts(started, 'seq', SEQUENTIAL_PAIRS)).toEqual(Array(SEQUENTIAL_PAIRS).fill(2));
		expect(counts(started, 'con', CONCURRENT_PAIRS)).toEqual(Array(CONCURRENT_PAIRS).fill(2));
		const sequential = counts(claimed, 'seq', SEQUENTIAL_PAIRS);
		const concurrent = counts(claimed, 'con', CONCURRENT_PAIRS);
		expect(sequential).toEqual(Array(SEQUENTIAL_PAIRS).fill(1));
		expect(concurrent).toEqual(Array(CONCURRENT_PAIRS).fill(1));
		figures.atomicClaim = {
			backToBackPairs: SEQUENTIAL_PAIRS,
			backToBackClaimed: sum(sequential),
			concurrentPairs: CONCURRENT_PAIRS,
			concurrentClaimed: sum(concurrent),
		};
		// One row per delivery key: the table holds what was claimed.
		expect(Number((await cluster.postgres.query(`SELECT count(*) FROM ${CLAIM_TABLE}`, 'app')).trim())).toBe(SEQUENTIAL_PAIRS + CONCURRENT_PAIRS);
		await cluster.main.n8n.deactivate(CLAIM_WF);
		expect(webhooksFor(CLAIM_HOOK)).toHaveLength(0);
	}, 180_000);

	it('deactivating through main deletes the webhook', async () => {
		const [webhook] = webhooksFor(TRIGGER_HOOK);
		await cluster.main.n8n.deactivate(TRIGGER_WF);
		expect(sim.requestsTo('DELETE', `/webhooks/delete/${webhook.id}`)).toHaveLength(1);
		expect(simWebhooks()).toHaveLength(0);
		// The webhook processes no longer know the path.
		const res = await axios.post(`${cluster.webhookUrl}webhook/${TRIGGER_HOOK}/webhook`, {}, { validateStatus: () => true });
		expect(res.status).toBe(404);
	}, 60_000);
});

interface Refund {
	id: string;
	createdAt: string;
}

/** Refund requests created on the platform by the polling tests, oldest first. */
const refunds: Refund[] = [];

const refundPolls = () => sim.requestsTo('GET', '/order-revert-requests/list').length;

async function waitPolls(more: number, from = refundPolls()): Promise<void> {
	await waitFor(`${more} more polls of the refund list`, () => (refundPolls() >= from + more ? true : undefined), 30_000);
}

/** Polls per second over a window (the cron fires every second). */
async function pollRate(ms = RATE_WINDOW_MS): Promise<number> {
	const from = refundPolls();
	const t0 = Date.now();
	await sleep(ms);
	return round1(((refundPolls() - from) * 1000) / (Date.now() - t0));
}

/** A new refund request on the platform (status requested, dated now). */
async function createRefund(tag: string): Promise<Refund> {
	const res = await axios.post(`${sim.url}/__sim/records/refunds`, { motive: `queue ${tag}`, valueInCents: 1234 });
	const record = (res.data as { record: Refund }).record;
	refunds.push(record);
	return record;
}

/** Messages the workflow sent to the finance team about a refund request. */
async function messagesAbout(refundId: string): Promise<number> {
	const inbox = (await axios.get(`${sim.url}/__sim/inbox`)).data as Array<{ body?: { refundRequestId?: string } }>;
	return inbox.filter((m) => m.body?.refundRequestId === refundId).length;
}

/** Refund request ids a polling execution started with (the trigger's output items). */
const refundsOf = (row: ExecutionRow) => itemsOf(row.data, POLL_TRIGGER).map((item) => String(item.id));

/** The polling trigger's cursor as saved in the workflow's static data in Postgres. */
async function savedCursor(): Promise<number | undefined> {
	const data = await cluster.staticData(POLL_WF);
	return (data?.[`node:${POLL_TRIGGER}`] as { pollState?: { ts?: number } } | undefined)?.pollState?.ts;
}

/**
 * The cursor after the poll that emitted the newest record dated `createdMs`: that date, or the
 * poll's clock less one minute when earlier (the cursor never passes the poll's clock). The poll
 * may have started a little before the record was created and still read it (seen: 5 ms), so
 * the lower bound allows the poll's own duration.
 */
const POLL_DURATION_MS = 10_000;
function expectCursorFor(cursor: number | undefined, createdMs: number): void {
	expect(cursor).toBeLessThanOrEqual(createdMs);
	expect(cursor).toBeGreaterThanOrEqual(createdMs - CURSOR_MARGIN_MS - POLL_DURATION_MS);
}

/**
 * Every polling execution so far: each refund request created started exactly one, each
 * execution was enqueued by main (the poll ran there) and run by a worker, and the finance team
 * got one message per refund request. Returns the executions.
 */
async function expectEachRefundOnce(): Promise<ExecutionRow[]> {
	const rows = await cluster.executions(POLL_WF, true);
	const started = rows.flatMap(refundsOf);
	expect([...started].sort()).toEqual(refunds.map((r) => r.id).sort());
	const workers = cluster.workerOfExecutions();
	const enqueuers = cluster.enqueuersOfExecutions();
	for (const r of rows) {
		expect({ id: r.id, status: r.status, mode: r.mode, enqueuedBy: enqueuers.get(r.id), ranOn: workers.get(r.id) }).toEqual({
			id: r.id,
			status: 'success',
			mode: 'trigger',
			enqueuedBy: ['main'],
			ranOn: expect.stringMatching(/^worker-\d$/),
		});
	}
	for (const refund of refunds) expect({ refund: refund.id, messages: await messagesAbout(refund.id) }).toEqual({ refund: refund.id, messages: 1 });
	return rows;
}

describe('n8n 2.8.4 queue mode: the polling trigger (New Refund Request, polling every second)', () => {
	const polling: Record<string, unknown> = {};
	const pollingExecutions = new Set<number>();

	afterAll(() => {
		const rows = cluster.workerOfExecutions();
		polling.perWorker = {};
		for (const id of pollingExecutions) {
			const name = rows.get(id) ?? 'unknown';
			(polling.perWorker as Record<string, number>)[name] = ((polling.perWorker as Record<string, number>)[name] ?? 0) + 1;
		}
		figures.pollingTrigger = polling;
	});

	it('activated on main, it polls every second; each new refund request gives one execution, enqueued by main, run by a worker', async () => {
		const from = refundPolls();
		await cluster.main.n8n.activate(POLL_WF);
		// Activation: the baseline poll, then the cron's.
		await waitPolls(3, from);
		// The refund requests that existed before the activation are not replayed.
		expect(sim.state.col('refunds').length).toBeGreaterThan(0);
		expect(await cluster.executions(POLL_WF)).toHaveLength(0);
		polling.pollsPerSecond = await pollRate();

		const ms: number[] = [];
		for (let k = 0; k < ONE_AT_A_TIME; k++) {
			const t0 = Date.now();
			await createRefund(`one-${k}`);
			await cluster.waitForExecutions(POLL_WF, k + 1, 60_000);
			ms.push(Date.now() - t0);
		}
		// More polls find nothing new.
		await waitPolls(3);
		const rows = await expectEachRefundOnce();
		expect(rows.map(refundsOf)).toEqual(refunds.map((r) => [r.id]));
		for (const r of rows) pollingExecutions.add(r.id);
		polling.oneAtATime = {
			refundRequests: ONE_AT_A_TIME,
			executions: rows.length,
			// Created on the platform -> the test saw the execution finished in Postgres (checked every 0.5 s).
			createdToExecutionFinishedMs: latency(ms),
		};
		expectCursorFor(await savedCursor(), Date.parse(refunds[refunds.length - 1].createdAt));
	}, 120_000);

	it('polling goes on while every worker is stopped; the emission waits in the queue and runs once when a worker is back', async () => {
		const before = (await cluster.executions(POLL_WF)).length;
		const stops = await Promise.all(cluster.workers.map(async (w) => await w.stop()));
		expect(stops.map((s) => s.graceful)).toEqual(cluster.workers.map(() => true));
		const atStop = refundPolls();
		const rateWithoutWorkers = await pollRate();
		const refund = await createRefund('workers-down');
		// Main polls, finds it and enqueues an execution that no worker takes yet.
		const queued = await waitFor(
			'the queued execution',
			async () => {
				const rows = await cluster.executions(POLL_WF);
				return rows.length > before ? rows.slice(before) : undefined;
			},
			30_000,
		);
		expect(queued.map((r) => r.status)).toEqual(['new']);
		expect(cluster.enqueuersOfExecutions().get(queued[0].id)).toEqual(['main']);
		await waitPolls(3);
		expect(await cluster.executions(POLL_WF)).toHaveLength(before + 1);
		expect(await messagesAbout(refund.id)).toBe(0);
		const pollsWhileDown = refundPolls() - atStop;

		const t0 = Date.now();
		await Promise.all(cluster.workers.map(async (w) => await w.start()));
		await cluster.waitForExecutions(POLL_WF, before + 1, 60_000);
		const workersStartToFinishedMs = Date.now() - t0;
		await waitPolls(3);
		expect(await cluster.executions(POLL_WF)).toHaveLength(before + 1);
		const rows = await expectEachRefundOnce();
		expect(refundsOf(rows[before])).toEqual([refund.id]);
		pollingExecutions.add(rows[before].id);
		expectCursorFor(await savedCursor(), Date.parse(refund.createdAt));
		polling.workersStopped = {
			pollsPerSecondWithWorkers: polling.pollsPerSecond,
			pollsPerSecondWithoutWorkers: rateWithoutWorkers,
			pollsWhileWorkersDown: pollsWhileDown,
			queuedExecutionStatus: queued[0].status,
			workersStartToExecutionFinishedMs: workersStartToFinishedMs,
			workerStopMs: stops.map((s) => s.ms),
		};
	}, 180_000);

	it('nothing polls while main is down; after the restart polling resumes from the saved cursor: nothing replayed, nothing missed', async () => {
		const before = (await cluster.executions(POLL_WF)).length;
		const cursor = await savedCursor();
		expectCursorFor(cursor, Date.parse(refunds[refunds.length - 1].createdAt));
		const stopped = await cluster.main.stop();
		expect(stopped.graceful).toBe(true);
		// Main has exited: any poll from now on would come from a webhook process or a worker.
		const atStop = refundPolls();
		const t0 = Date.now();
		const whileDown: Refund[] = [];
		for (let k = 0; k < WHILE_MAIN_DOWN; k++) whileDown.push(await createRefund(`main-down-${k}`));
		await sleep(MAIN_DOWN_WATCH_MS);
		const pollsWhileMainDown = refundPolls() - atStop;
		expect(pollsWhileMainDown).toBe(0);
		expect(cluster.webhooks.concat(cluster.workers).map((n) => n.proc.running)).toEqual(cluster.webhooks.concat(cluster.workers).map(() => true));
		expect(await cluster.executions(POLL_WF)).toHaveLength(before);
		const mainDownMs = Date.now() - t0;

		const t1 = Date.now();
		await cluster.main.start();
		await cluster.loginToMain();
		await cluster.waitForExecutions(POLL_WF, before + 1, 60_000);
		const restartToExecutionFinishedMs = Date.now() - t1;
		await waitPolls(3);
		const rows = await expectEachRefundOnce();
		const fresh = rows.slice(before);
		const freshRefunds = fresh.flatMap(refundsOf);
		const downIds = whileDown.map((r) => r.id);
		// The refund requests created while main was down, each once; none from before the restart.
		expect([...freshRefunds].sort()).toEqual([...downIds].sort());
		for (const r of fresh) pollingExecutions.add(r.id);
		expectCursorFor(await savedCursor(), Math.max(...whileDown.map((r) => Date.parse(r.createdAt))));
		polling.mainRestart = {
			refundRequestsWhileMainDown: WHILE_MAIN_DOWN,
			mainDownMs,
			pollsWhileMainDown,
			executionsAfterRestart: fresh.length,
			itemsPerExecution: fresh.map((r) => refundsOf(r).length),
			replayed: freshRefunds.filter((id) => !downIds.includes(id)).length,
			missed: downIds.filter((id) => !freshRefunds.includes(id)).length,
			mainStartToExecutionFinishedMs: restartToExecutionFinishedMs,
		};
	}, 180_000);

	it('deactivating on main stops the polls; no process logged the API key or secret', async () => {
		await cluster.main.n8n.deactivate(POLL_WF);
		// A poll sent just before the cron was removed may still arrive.
		await sleep(1_500);
		const at = refundPolls();
		await sleep(3_000);
		expect(refundPolls()).toBe(at);
		polling.executions = (await cluster.executions(POLL_WF)).length;
		polling.refundRequests = refunds.length;
		for (const node of cluster.nodes) {
			const text = node.proc.log();
			expect({ process: node.name, leaks: [sim.credentials.apiKey, sim.credentials.apiSecret].filter((s) => text.includes(s)) }).toEqual({
				process: node.name,
				leaks: [],
			});
		}
	}, 60_000);
});
