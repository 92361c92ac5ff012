/**
 * The n8n-core side of `npm run bench`, loaded only by the bench's child processes that need it.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { ICredentialDataDecryptedObject, INode, INodeExecutionData, INodeParameters, INodeTypes, IRun, IRunExecutionData } from 'n8n-workflow';
import { createDeferredPromise, Workflow } from 'n8n-workflow';

import { ACTION_TYPE, CredentialsHelper, loadPackage, loadPackageFrom, makeAdditionalData } from '../harness/n8n-core';
import { TriggerHarness } from '../harness/trigger';
import { anchorNodes } from './anchors';

/** The header the trigger node expects its secret in. */
const SECRET_HEADER = 'x-sp-webhook-secret';

/**
 * Executes one Sales & Payments node as a manual workflow run, exactly as runNodes() of
 * test/support/harness/n8n-core.ts does (n8n's package loader, credentials helper and WorkflowExecute) but
 * without the harness' secret audit, which keeps a text copy of every output item for the test
 * that ran it and would be measured with the node otherwise.
 */
export async function executeNode(
	parameters: INodeParameters,
	credentials: ICredentialDataDecryptedObject,
	packageDir?: string,
	type: string = ACTION_TYPE,
	/** The workflow's time zone (default: n8n's default). */
	timezone?: string,
	/** The node's input items (default: one empty item). */
	input: INodeExecutionData[] = [{ json: {} }],
): Promise<INodeExecutionData[]> {
	const loaded = packageDir ? await loadPackageFrom(packageDir) : await loadPackage();
	const { credentialTypes } = loaded;
	// The bench's anchors (anchors.ts) run beside the package's nodes, with its credential.
	const nodeTypes: INodeTypes = {
		getByName: (name) => anchorNodes[name] ?? loaded.nodeTypes.getByName(name),
		getByNameAndVersion: (name, version) => anchorNodes[name] ?? loaded.nodeTypes.getByNameAndVersion(name, version),
		getKnownTypes: () => loaded.nodeTypes.getKnownTypes(),
	};
	const node: INode = {
		id: 'node-0',
		name: 'Sales & Payments',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { salesPaymentsApi: { id: 'cred-salesPaymentsApi', name: 'salesPaymentsApi' } },
	};
	const workflow = new Workflow({
		id: 'bench-workflow',
		name: 'bench',
		nodes: [node],
		connections: {},
		nodeTypes,
		active: false,
		settings: { executionOrder: 'v1', ...(timezone ? { timezone } : {}) },
	});
	const helper = new CredentialsHelper(credentialTypes, { salesPaymentsApi: { ...credentials } });
	const hooks = new ExecutionLifecycleHooks('manual', 'bench-execution', workflow as never);
	const done = createDeferredPromise<IRun>();
	hooks.addHandler('workflowExecuteAfter', (run) => done.resolve(run));
	const runExecutionData = {
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			nodeExecutionStack: [{ node, data: { main: [input] }, source: null }],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as unknown as IRunExecutionData;
	await new WorkflowExecute(makeAdditionalData(helper, hooks), 'manual', runExecutionData).processRunExecutionData(workflow);
	const run = await done.promise;
	if (run.data.resultData.error) throw run.data.resultData.error;
	return run.data.resultData.runData[node.name]?.[0]?.data?.main?.[0] ?? [];
}


export interface DeliveryStats {
	deliveries: number;
	totalMs: number;
	perDeliveryUs: number;
	/** Of it, the time inside node.webhook() (the node's own work; the rest is the harness standing in for n8n). */
	nodeUs?: number;
	/** Deliveries that started an execution (good secret) or were answered 401 (forged secret). */
	accepted: number;
	refused: number;
}

/**
 * The trigger's cost per delivery: the node is activated against the simulator (its secret is
 * stored in static data), then `deliveries` notifications go through n8n-core's WebhookContext
 * and node.webhook() (TriggerHarness.deliver: fake request and response objects, no HTTP; each
 * request reads and writes back the static data as n8n does), first with the genuine secret, then
 * with a forged one of the same length. `packageDir`: another build (--against).
 */
export async function measureDeliveries(
	credentials: ICredentialDataDecryptedObject,
	deliveries: number,
	packageDir?: string,
): Promise<{ good: DeliveryStats; forged: DeliveryStats }> {
	const harness = await TriggerHarness.start({
		packageDir,
		parameters: { events: ['order.paid', 'order.refunded', 'subscription.created'] },
		credentials: { salesPaymentsApi: credentials },
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
	});
	await harness.activate();
	try {
		const secret = String(harness.nodeStaticData.webhookSecret ?? '');
		if (!secret) throw new Error('the trigger stored no secret on activation');
		const forged = `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
		// The warm-up's notifications come after the measured ones: none of them is a repeat.
		const warmUp = Math.min(500, deliveries);
		const bodies = Array.from({ length: deliveries + warmUp }, (_, n) => ({
			id: `notification-${n}`,
			event: 'order.paid',
			createdAt: new Date(Date.UTC(2025, 0, 1) + n * 1000).toISOString(),
			businessId: String(credentials.businessId),
			data: {
				id: `order-${n}`,
				status: 'paid',
				orderBuyer: { name: 'Carla Dias', email: 'carla@mail.example' },
				items: [{ name: 'Course', quantity: 1, priceInCents: 4990 }],
				payments: [{ method: 'pix', numberInstallments: 1, valueInCents: 4990 }],
			},
		}));
		const run = async (value: string, count: number, from = 0): Promise<DeliveryStats> => {
			const headers = { 'content-type': 'application/json', [SECRET_HEADER]: value };
			let accepted = 0;
			let refused = 0;
			const nodeBefore = harness.webhookMs;
			const started = performance.now();
			for (let n = 0; n < count; n++) {
				const result = await harness.deliver({ headers, body: bodies[from + n] });
				if (result.items?.length === 1) accepted++;
				else if (result.httpStatus === 401) refused++;
			}
			const totalMs = performance.now() - started;
			harness.executions.length = 0;
			return {
				deliveries: count,
				totalMs: Math.round(totalMs),
				perDeliveryUs: Math.round((totalMs * 1000) / count),
				nodeUs: Math.round(((harness.webhookMs - nodeBefore) * 1000) / count),
				accepted,
				refused,
			};
		};
		// Warm-up (JIT) outside the measurement.
		await run(secret, warmUp, deliveries);
		await run(forged, warmUp, deliveries);
		const good = await run(secret, deliveries);
		const bad = await run(forged, deliveries);
		if (good.accepted !== deliveries) throw new Error(`only ${good.accepted} of ${deliveries} genuine deliveries started an execution`);
		if (bad.refused !== deliveries) throw new Error(`only ${bad.refused} of ${deliveries} forged deliveries were refused`);
		return { good, forged: bad };
	} finally {
		await harness.delete();
	}
}
