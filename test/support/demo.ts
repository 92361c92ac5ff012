/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * `npm run demo`: everything a newcomer needs to see the nodes work, on 127.0.0.1 only.
 * Installs n8n 2.8.4 once (cache outside the repo), builds and packs this package, starts the
 * platform simulator and a real n8n with the package installed as a community package, an owner
 * account, credentials pointing at the simulator and the example workflows of examples/workflows.
 * The shop workflow (Trigger on order.paid) is active and the simulator creates a paid order every
 * few seconds so it fires. Ctrl-C deactivates it (its webhook is deleted on the simulator) and
 * stops everything.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import axios from 'axios';

import type { Simulator } from './simulator/server';
import { IDENTITY_PREFIX, PLAIN_USER } from './simulator/routes/identity';
import { addMovements } from './simulator/routes/financials';
import { addVoucher, vouchersOf } from './simulator/routes/vouchers';
import { startSimulator } from './simulator/server';
import { ensureN8n, N8N_VERSION, npmCommand, packPackage, REPO_DIR, run } from './n8n-install';
import { DEFAULT_OWNER, freePort, N8nInstance, sleep } from './n8n-process';
import { step } from './progress';
import { runCommand } from './command';

export const EXAMPLES_DIR = path.join(REPO_DIR, 'examples', 'workflows');
/** The example whose trigger is activated by the demo. */
export const SHOP_WORKFLOW_ID = 'spExampleShop';
export const DATA_CREDENTIAL_ID = 'spDemoApi';
export const IDENTITY_CREDENTIAL_ID = 'spDemoIdentity';

export interface DemoOptions {
	/** n8n port (default 5678, or a free one when taken). */
	port?: number;
	simulatorPort?: number;
	/** Seconds between simulated paid orders; 0 disables them. */
	orderEverySeconds?: number;
	/** Where n8n keeps its data (default .demo/ in the repo, recreated on each run). */
	dataDir?: string;
	log?: (line: string) => void;
	/** Skip `npm run build` (the caller built already). */
	skipBuild?: boolean;
}

export interface Demo {
	n8n: N8nInstance;
	sim: Simulator;
	/** Folder the finance example writes its files to. */
	filesDir: string;
	stop(): Promise<void>;
}

async function portOr(preferred: number | undefined, fallback: number): Promise<number> {
	const wanted = preferred ?? fallback;
	const probe = await freePort();
	if (preferred === 0) return probe;
	// Use the wanted port when nothing listens on it.
	try {
		await axios.get(`http://127.0.0.1:${wanted}/`, { timeout: 500 });
		return probe;
	} catch (error) {
		return (error as { code?: string }).code === 'ECONNREFUSED' ? wanted : probe;
	}
}

/** The example month of the finance workflow, and the sample code of the marketing workflow. */
export const EXAMPLE_MONTH = '2025-06';
/** The finance example's time zone (its workflow settings): its month is São Paulo's, UTC-3 in 2025. */
export const EXAMPLE_TIME_ZONE = 'America/Sao_Paulo';
/** The example month in São Paulo, as instants: [start, end). */
export const EXAMPLE_MONTH_UTC = { from: '2025-06-01T03:00:00.000Z', to: '2025-07-01T03:00:00.000Z' };
export const SAMPLE_VOUCHER_CODE = 'WELCOME-SAMPLE';
/** Movements the demo adds to the example month: enough that Return All visibly pages. */
export const DEMO_MONTH_MOVEMENTS = 3000;

type Workflow = Record<string, unknown> & { id: string; nodes: Array<{ name: string; parameters: Record<string, unknown> }> };

/** The example workflows exactly as shipped in examples/workflows (no placeholders to fill). */
export function loadExamples(): Workflow[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => JSON.parse(readFileSync(path.join(EXAMPLES_DIR, f), 'utf8')) as Workflow);
}

/** Sets a field of a workflow's "Settings" node, as the README tells users to. */
export function setSetting(workflow: Workflow, field: string, value: string): void {
	const settings = workflow.nodes.find((n) => n.name === 'Settings');
	const assignments = (settings?.parameters.assignments as { assignments?: Array<{ name: string; value: unknown }> } | undefined)
		?.assignments;
	const entry = assignments?.find((a) => a.name === field);
	if (!entry) throw new Error(`${String(workflow.name)} has no setting "${field}"`);
	entry.value = value;
}

/** The finance example's two export nodes: the Excel file (enabled as shipped) and the CSV variant (disabled). */
export const FINANCE_EXCEL_NODE = 'Every movement of the month';
export const FINANCE_CSV_NODE = 'Every movement of the month, as CSV';

/** The finance example switched to CSV as its sticky note says: the Excel node disabled, the CSV node enabled. */
export function financeAsCsv(workflow: Workflow): Workflow {
	for (const node of workflow.nodes as Array<{ name: string; disabled?: boolean }>) {
		if (node.name === FINANCE_EXCEL_NODE) node.disabled = true;
		if (node.name === FINANCE_CSV_NODE) delete node.disabled;
	}
	return workflow;
}

/** The example that tells the finance team about new refund requests (a polling trigger). */
export const REFUNDS_WORKFLOW_ID = 'spExampleRefunds';

/**
 * The examples as the demo runs them: the finance export writes into `filesDir`, the shop and
 * the refund messages are posted to the simulator's inbox (the settings the README explains).
 */
export function demoExamples(sim: Simulator, filesDir: string): Workflow[] {
	const examples = loadExamples();
	setSetting(examples.find((w) => w.id === 'spExampleFinance')!, 'folder', filesDir);
	for (const id of [SHOP_WORKFLOW_ID, REFUNDS_WORKFLOW_ID]) {
		setSetting(examples.find((w) => w.id === id)!, 'summaryUrl', `${sim.url}/__sim/inbox`);
	}
	return examples;
}

/**
 * The demo's data on top of the simulator's seed: a few thousand movements in the example month
 * (so that Return All walks many pages and Max Concurrent Requests shows), and the sample code.
 */
export function seedDemoData(sim: Simulator): void {
	const businessId = sim.credentials.businessId;
	addMovements(sim, businessId, DEMO_MONTH_MOVEMENTS, EXAMPLE_MONTH_UTC);
	if (!vouchersOf(sim, businessId).some((v) => v.code === SAMPLE_VOUCHER_CODE)) addVoucher(sim, businessId, SAMPLE_VOUCHER_CODE);
}

export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
	const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
	const phase = <T>(what: string, work: () => Promise<T>, status?: () => string) => step('demo', what, log, work, status);
	await ensureN8n(log);
	if (!options.skipBuild) {
		await phase('building the package (npm run build)', async () => {
			const built = await run(npmCommand(), ['run', 'build', '--silent'], { cwd: REPO_DIR, timeoutMs: 10 * 60_000 });
			if (built.code !== 0) throw new Error(`npm run build failed:\n${built.stdout}${built.stderr}`);
		});
	}
	const tgz = await phase('packing it as npm would publish it (npm pack)', packPackage);

	const dataDir = options.dataDir ?? path.join(REPO_DIR, '.demo');
	rmSync(dataDir, { recursive: true, force: true });
	const filesDir = path.join(dataDir, 'files');
	mkdirSync(filesDir, { recursive: true });

	const sim = await startSimulator({ port: await portOr(options.simulatorPort, 4010), size: 300 });
	seedDemoData(sim);
	log(`[demo] platform simulator: ${sim.url}`);

	const n8n = new N8nInstance(path.join(dataDir, 'n8n'));
	mkdirSync(n8n.userFolder, { recursive: true });
	n8n.port = await portOr(options.port, 5678);
	await n8n.installPackage(tgz);
	// The tarball is unpacked: its temporary folder goes (a demo runs for hours).
	rmSync(path.dirname(tgz), { recursive: true, force: true });
	// The finance example writes files: allow exactly the demo's folder.
	n8n.extraEnv.N8N_RESTRICT_FILE_ACCESS_TO = filesDir;
	const identityUrl = `${sim.url}${IDENTITY_PREFIX}`;
	await phase('importing the two credentials (n8n import:credentials; n8n creates its database first)', () =>
		n8n.importCredentials([
			{ id: DATA_CREDENTIAL_ID, name: 'Sales & Payments (simulator)', type: 'salesPaymentsApi', data: sim.credentials },
			{
				id: IDENTITY_CREDENTIAL_ID,
				name: 'Sales & Payments Identity (simulator)',
				type: 'salesPaymentsIdentityApi',
				data: { identityUrl, username: PLAIN_USER.username, password: PLAIN_USER.password, fingerprint: 'n8n-demo-device' },
			},
		]),
	);
	const examples = demoExamples(sim, filesDir);
	await phase(`importing the ${examples.length} example workflows (n8n import:workflow)`, () => n8n.importWorkflows(examples));
	await phase('publishing the shop workflow (n8n publish:workflow)', () => n8n.publish(SHOP_WORKFLOW_ID));
	await phase(`starting n8n ${N8N_VERSION} on ${n8n.baseUrl}`, () => n8n.start(), () => `starting n8n ${N8N_VERSION}: waiting for its REST API`);
	await n8n.setupOwner(DEFAULT_OWNER);

	// n8n activates the published trigger shortly after start: wait for its webhook.
	const registered = await phase('waiting for the shop trigger to register its webhook on the simulator', async () => {
		const deadline = Date.now() + 60_000;
		while (Date.now() < deadline && sim.requestsTo('POST', '/webhooks').length === 0) await sleep(250);
		return sim.requestsTo('POST', '/webhooks').length > 0;
	});
	log(registered ? '[demo] trigger active: its webhook is registered on the simulator.' : '[demo] warning: the trigger did not register a webhook within 60 s.');

	let timer: NodeJS.Timeout | undefined;
	const every = options.orderEverySeconds ?? 10;
	if (every > 0) {
		timer = setInterval(() => {
			void axios.post(`${sim.url}/__sim/orders`, {}).catch(() => undefined);
		}, every * 1000);
	}

	let stopped = false;
	return {
		n8n,
		sim,
		filesDir,
		async stop() {
			if (stopped) return;
			stopped = true;
			if (timer) clearInterval(timer);
			try {
				await n8n.deactivate(SHOP_WORKFLOW_ID);
				const deleted = sim.requestsTo('DELETE', /^\/webhooks\/delete\//).length;
				log(`[demo] trigger deactivated: ${deleted ? 'its webhook was deleted on the simulator' : 'no webhook was deleted'}.`);
			} catch (error) {
				log(`[demo] could not deactivate the trigger: ${(error as Error).message}`);
			}
			await phase(`stopping n8n ${N8N_VERSION}`, () => n8n.stop());
			await sim.close();
		},
	};
}

export async function main() {
	const running: { demo?: Demo } = {};
	let stopping = false;
	const shutdown = async () => {
		// tsx relays the terminal's SIGINT, so it may arrive twice: stop once.
		if (stopping) return;
		stopping = true;
		process.stdout.write('\nStopping...\n');
		await running.demo?.stop();
		process.stdout.write('Stopped.\n');
		process.exit(0);
	};
	process.on('SIGINT', () => void shutdown());
	process.on('SIGTERM', () => void shutdown());

	const demo = await startDemo();
	running.demo = demo;
	if (stopping) {
		// Interrupted while starting: stop what was started.
		await demo.stop();
		process.exit(0);
	}
	const { n8n, sim } = demo;
	process.stdout.write(`
  n8n ${N8N_VERSION} with n8n-nodes-sales-payments is ready.

  Open            ${n8n.baseUrl}
  Log in          ${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}
  Simulator       ${sim.url}  (credentials "Sales & Payments (simulator)" point here)

  Workflows:
    - Finance: export a month of movements to Excel or CSV   (Execute workflow: the export writes the
      ${DEMO_MONTH_MOVEMENTS.toLocaleString('en-US')}+ movements of ${EXAMPLE_MONTH}, oldest first, into one Excel file; it lands in ${demo.filesDir})
    - Marketing: look up and redeem a voucher code  (Execute workflow redeems the sample code
      ${SAMPLE_VOUCHER_CODE}; a second run shows the "already redeemed" answer. Activated, it answers
      POST ${n8n.baseUrl}/webhook/redeem-voucher {"code": "..."})
    - Shop: on order.paid, get the order and post a summary  (ACTIVE: a paid order arrives every 10 s;
      see its executions, and the summaries at ${sim.url}/__sim/inbox)
    - Finance: tell the finance team about new refund requests  (a polling trigger: activate it, then
      POST {} to ${sim.url}/__sim/records/refunds; the message lands in the same inbox within a minute)
    - Shop: fulfil each paid order once, and miss none  (the webhook trigger with a polling trigger
      beside it, Order › Get and Remove Duplicates: activate it to try; docs/examples.md explains it)
    - Sales assistant: an AI agent that reads orders, sales and vouchers  (add a chat-model credential
      to its OpenAI Chat Model first, as its sticky note says; then Open chat)

  Your edits are saved: workflows, credentials and executions you change in n8n stay while the demo
  runs (in ${n8n.userFolder}). Restarting \`npm run demo\` resets everything: that folder is recreated
  with the example workflows as shipped, and the simulator's data (orders, vouchers, movements...)
  starts again from its seed. Download a workflow (... > Download) to keep your changes.

  Ctrl-C stops everything (the trigger is deactivated and its webhook deleted first).
`);
}

runCommand(module, main);
