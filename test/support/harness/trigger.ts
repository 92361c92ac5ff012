/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Runs the trigger node's webhook lifecycle the way n8n does, in-process: checkExists / create /
 * delete through n8n-core's HookContext (as WebhookService.createWebhookIfNotExists and
 * deleteWebhook call them) and deliveries through WebhookContext -> node.webhook(), answered
 * like n8n's webhook server answers them. A small local HTTP server can stand in for n8n's
 * webhook endpoint so the simulator delivers real HTTP requests to the node.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { copyFileSync, cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';

import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { CredentialValues } from './n8n-core';
import { CredentialsHelper, loadPackage, loadPackageFrom, makeAdditionalData, PACKAGE_DIR, TRIGGER_TYPE } from './n8n-core';
import { closeAtEnd } from '../teardown';

export interface TriggerOptions {
	parameters: INodeParameters;
	credentials: CredentialValues;
	workflowId?: string;
	workflowName?: string;
	nodeName?: string;
	/** The node's webhookId (a uuid n8n gives every webhook node); part of its URL. */
	webhookId?: string;
	/** Static data as n8n saved it, to start as after a restart. */
	staticData?: IDataObject;
	/** Start a local HTTP server that forwards requests into node.webhook(). */
	listen?: boolean;
	/** Base of production webhook URLs when not listening. */
	webhookBaseUrl?: string;
	/** The node's version (default: the version new nodes get). */
	typeVersion?: number;
	/** Stands in for another n8n instance (n8n's instance id comes from its encryption key). */
	instanceId?: string;
	/** Another built package to load (the bench's --against build); default: this repository's. */
	packageDir?: string;
}

/** How n8n fares with one delivery's execution (default: the harness-wide executionMs / failExecutions). */
export interface DeliverOptions {
	isTest?: boolean;
	/** How long creating this delivery's execution takes, in ms. */
	executionMs?: number;
	/** Creating this delivery's execution fails (n8n answers 500 and saves nothing); false: it succeeds. */
	failExecution?: boolean;
}

/** One delivery as the node saw it and as n8n would have answered it. */
export interface DeliveryResult {
	response: IWebhookResponseData;
	/** Items that would start an execution; undefined when none starts. */
	items?: INodeExecutionData[];
	httpStatus: number;
	httpBody: unknown;
}

export interface IncomingDelivery {
	headers: Record<string, string | string[] | undefined>;
	/** The body as n8n parsed it (default: JSON.parse of `raw`). */
	body?: unknown;
	/** The body as sent (n8n's rawBody; default: JSON.stringify of `body`). */
	raw?: string | Buffer;
	query?: Record<string, string>;
}

/**
 * Just enough of express' Response: a node that answers by itself (401) writes to it, n8n's answer
 * ends it (`writableEnded`, then 'finish' as node:http emits it, on a later turn of the event loop).
 */
class CapturedResponse extends EventEmitter {
	statusCode = 200;
	body: unknown;
	headersSent = false;
	writableEnded = false;
	readonly headers: Record<string, string> = {};

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	json(body: unknown): this {
		return this.end(body);
	}

	send(body?: unknown): this {
		return this.end(body);
	}

	end(body?: unknown): this {
		if (this.writableEnded) return this;
		if (body !== undefined) this.body = body;
		this.headersSent = true;
		this.writableEnded = true;
		setImmediate(() => {
			this.emit('finish');
			this.emit('close');
		});
		return this;
	}

	setHeader(name: string, value: string): this {
		this.headers[name.toLowerCase()] = value;
		return this;
	}
}

/** A turn of the event loop: where n8n awaits its database (other requests run meanwhile). */
function databaseTurn(ms = 0): Promise<void> {
	return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

/**
 * dist/ and package.json copied to a new temporary folder (node_modules linked to this
 * repository's, so n8n-workflow is the same module): loading it gives fresh module state.
 */
function freshPackageCopy(): string {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'sp-new-process-'));
	cpSync(path.join(PACKAGE_DIR, 'dist'), path.join(dir, 'dist'), { recursive: true });
	copyFileSync(path.join(PACKAGE_DIR, 'package.json'), path.join(dir, 'package.json'));
	symlinkSync(path.join(PACKAGE_DIR, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
	closeAtEnd(`package copy ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
	return dir;
}

function copy(data: IDataObject): IDataObject {
	const plain = JSON.parse(JSON.stringify(data)) as IDataObject;
	// n8n-workflow's ObservableObject marks changed static data; the database keeps the data only.
	delete plain.__dataChanged;
	return plain;
}

export class TriggerHarness {
	workflow!: Workflow;
	/** The test listen's workflow (TestWebhooks: staticData {} then the registration's cached static data). */
	testWorkflow?: Workflow;
	/** How many times n8n's cleanup after a failed production activation ran. */
	cleanups = 0;
	/** The database: the static data n8n has saved (shared with the harnesses of other processes). */
	private database: { saved: IDataObject } = { saved: {} };
	private nodeTypes!: Awaited<ReturnType<typeof loadPackage>>['nodeTypes'];
	/** The built package this "process" loaded (default: this repository's dist/). */
	private packageDir: string | undefined;
	node!: INode;
	additionalData!: IWorkflowExecuteAdditionalData;
	credentialsHelper!: CredentialsHelper;
	nodeType!: INodeType;
	/** Requests the local server received, with the node's answer. */
	readonly received: Array<{ path: string; headers: IncomingDelivery['headers']; body: unknown; result: DeliveryResult }> = [];
	/** Every item that started an "execution", in order. */
	readonly executions: INodeExecutionData[][] = [];
	/** What the node logged through n8n's logger (checkExists / create / delete, deliveries). */
	readonly logs: Array<{ level: string; message: string }> = [];
	/** While set, the local server answers every request with this status (an n8n outage). */
	outage: number | undefined;
	private server?: http.Server;
	private baseUrl = 'http://127.0.0.1:5678';

	private constructor(private readonly options: TriggerOptions) {
		this.packageDir = options.packageDir;
	}

	static async start(options: TriggerOptions): Promise<TriggerHarness> {
		const harness = new TriggerHarness(options);
		if (options.listen) await harness.listen();
		else if (options.webhookBaseUrl) harness.baseUrl = options.webhookBaseUrl.replace(/\/webhook\/?$/, '');
		await harness.build(options.staticData);
		return harness;
	}

	private async build(staticData?: IDataObject): Promise<void> {
		const { nodeTypes, credentialTypes } = this.packageDir ? await loadPackageFrom(this.packageDir) : await loadPackage();
		this.nodeTypes = nodeTypes;
		const typeVersion = this.options.typeVersion ?? (nodeTypes.getByName(TRIGGER_TYPE) as INodeType).description.defaultVersion ?? 1;
		this.nodeType = nodeTypes.getByNameAndVersion(TRIGGER_TYPE, typeVersion);
		this.node ??= {
			id: 'trigger-node',
			name: this.options.nodeName ?? 'Sales & Payments Trigger',
			type: TRIGGER_TYPE,
			typeVersion,
			position: [0, 0],
			webhookId: this.options.webhookId ?? randomUUID(),
			parameters: this.options.parameters,
			credentials: { salesPaymentsApi: { id: 'cred-salesPaymentsApi', name: 'salesPaymentsApi' } },
		};
		if (staticData || !this.sharesDatabase) this.database.saved = staticData ? copy(staticData) : {};
		this.workflow = this.fromDatabase();
		this.credentialsHelper = new CredentialsHelper(credentialTypes, { ...this.options.credentials });
		this.additionalData = makeAdditionalData(this.credentialsHelper, undefined, `${this.baseUrl}/webhook`);
		(this.additionalData as { webhookTestBaseUrl: string }).webhookTestBaseUrl = `${this.baseUrl}/webhook-test`;
	}

	/**
	 * The workflow as n8n builds it from its database row: ActiveWorkflowManager.add and
	 * clearWebhooks both do `new Workflow({ ..., staticData: workflowData.staticData })`.
	 */
	private fromDatabase(): Workflow {
		return this.newWorkflow(copy(this.database.saved), true);
	}

	private newWorkflow(staticData: IDataObject, active: boolean): Workflow {
		return new Workflow({
			id: this.options.workflowId ?? 'wf-trigger-1',
			name: this.options.workflowName ?? 'Paid orders to CRM',
			nodes: [this.node],
			connections: {},
			nodeTypes: this.nodeTypes,
			active,
			staticData,
			settings: { executionOrder: 'v1' },
		});
	}

	/** n8n's WorkflowStaticDataService.saveStaticData: the workflow's static data into the database. */
	private save(workflow: Workflow): void {
		this.database.saved = copy(workflow.staticData);
	}

	/** Changes node parameters (as saving an edited workflow does). */
	setParameters(parameters: INodeParameters): void {
		this.node.parameters = parameters;
	}

	/** Changes the node's static data n8n has saved (for example to what an earlier version saved). */
	editSavedStaticData(change: (nodeData: IDataObject) => void): void {
		const workflow = this.fromDatabase();
		change(workflow.getStaticData('node', this.node));
		this.save(workflow);
		this.workflow = workflow;
	}

	/** What n8n has saved in the database as the workflow's static data. */
	savedStaticData(): IDataObject {
		return copy(this.database.saved);
	}

	/** The node's own static data as n8n has saved it in its database (what the next request or activation reads). */
	get nodeStaticData(): IDataObject {
		return this.fromDatabase().getStaticData('node', this.node);
	}

	/** The node's static data of the current test listen (TestWebhooks keeps it with the registration). */
	get testStaticData(): IDataObject {
		return (this.testWorkflow ?? this.newWorkflow({}, false)).getStaticData('node', this.node);
	}

	/** Whether this harness is another n8n process on a database it shares (anotherProcess()). */
	private sharesDatabase = false;

	/**
	 * Another n8n process on the same database, as queue mode's webhook processes are: the same
	 * workflow and node, the package loaded anew (nothing in memory shared), the static data shared
	 * as n8n reads and writes it per request (last writer wins). It delivers only; `this` activated.
	 */
	async anotherProcess(): Promise<TriggerHarness> {
		const other = new TriggerHarness({ ...this.options, listen: false, webhookBaseUrl: `${this.baseUrl}/webhook`, packageDir: freshPackageCopy() });
		other.node = this.node;
		other.database = this.database;
		other.sharesDatabase = true;
		await other.build();
		return other;
	}

	/**
	 * Rebuilds the workflow from saved static data, as n8n does after a restart. With `newProcess`
	 * the package is loaded anew from a copy of dist/ (a fresh module: nothing the old process
	 * held in memory, such as the trigger's accepted deliveries, survives), as in a new n8n process.
	 */
	async restart(options: { newProcess?: boolean } = {}): Promise<void> {
		if (options.newProcess) this.packageDir = freshPackageCopy();
		await this.build(this.sharesDatabase ? undefined : this.savedStaticData());
	}

	webhookData(isTest = false): IWebhookData {
		const description = (this.nodeType.description.webhooks ?? [])[0] as IWebhookDescription;
		return {
			httpMethod: 'POST',
			node: this.node.name,
			path: `${this.node.webhookId}/${String(description.path)}`,
			webhookDescription: description,
			workflowId: String(this.workflow.id),
			workflowExecuteAdditionalData: this.additionalData,
			isTest,
		};
	}

	/** The URL the node registers (production, or the editor's test URL). */
	url(isTest = false): string {
		return `${this.baseUrl}/${isTest ? 'webhook-test' : 'webhook'}/${this.node.webhookId}/webhook`;
	}

	/**
	 * A hook context exactly as n8n makes it (n8n 2.8.4, dist/):
	 * - production checkExists/create: mode `trigger` (active-workflow-manager.js: add() calls
	 *   addWebhooks(workflow, additionalData, 'trigger', activationMode)), activation init,
	 *   activate, update or leadershipChange; webhookData.isTest false;
	 * - test listen checkExists/create: mode `manual`, activation `manual` (webhooks/test-webhooks.js,
	 *   needsWebhook: createWebhookIfNotExists(workflow, webhook, 'manual', 'manual')), isTest true;
	 * - every delete: mode `internal`, activation `update` (active-workflow-manager.js clearWebhooks,
	 *   test-webhooks.js deactivateWebhooks: deleteWebhook(workflow, webhook, 'internal', 'update')).
	 */
	private hookContext(workflow: Workflow, isTest: boolean, mode: WorkflowExecuteMode, activation: WorkflowActivateMode): HookContext {
		const context = new HookContext(workflow, this.node, this.additionalData, mode, activation, this.webhookData(isTest));
		const instanceId = this.options.instanceId;
		if (instanceId !== undefined) context.getInstanceId = () => instanceId;
		this.recordLogs(context);
		return context;
	}

	/** What the node logs through n8n's logger goes to `logs`. */
	private recordLogs(context: HookContext | WebhookContext): void {
		const record = (level: string) => (message: string) => this.logs.push({ level, message });
		const logger = { error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') };
		Object.defineProperty(context, 'logger', { value: logger });
	}

	private method(name: 'checkExists' | 'create' | 'delete') {
		return this.nodeType.webhookMethods!.default![name]!;
	}

	/**
	 * One hook call of an activation: production in the active workflow, test in the test listen's.
	 * A production call that throws is followed by n8n's cleanup, as in addWebhooks: clearWebhooks
	 * calls `delete` on a workflow rebuilt from the database and saves its static data; the error
	 * goes on (n8n retries an `init` activation later, with the database's static data).
	 */
	private async activationCall(name: 'checkExists' | 'create', options: { isTest?: boolean; activation?: WorkflowActivateMode }): Promise<boolean> {
		if (options.isTest) {
			this.testWorkflow ??= this.newWorkflow({}, false);
			return await this.method(name).call(this.hookContext(this.testWorkflow, true, 'manual', 'manual'));
		}
		try {
			const result = await this.method(name).call(this.hookContext(this.workflow, false, 'trigger', options.activation ?? 'activate'));
			// addWebhooks saves the static data once the webhooks are created (active-workflow-manager.js).
			if (name === 'create') this.save(this.workflow);
			return result;
		} catch (error) {
			this.cleanups++;
			await this.delete().catch((cleanupError: Error) => this.logs.push({ level: 'error', message: `cleanup: ${cleanupError.message}` }));
			this.workflow = this.fromDatabase();
			throw error;
		}
	}

	async checkExists(options: { isTest?: boolean; activation?: WorkflowActivateMode } = {}): Promise<boolean> {
		return await this.activationCall('checkExists', options);
	}

	async create(options: { isTest?: boolean; activation?: WorkflowActivateMode } = {}): Promise<boolean> {
		return await this.activationCall('create', options);
	}

	/**
	 * What n8n calls `delete` for: deactivating the workflow (clearWebhooks: a workflow built from
	 * the database's static data, which is saved afterwards), or stopping a test listen (the editor's
	 * stop, its timeout, or after the test event: the test registration's static data).
	 */
	async delete(options: { isTest?: boolean } = {}): Promise<boolean> {
		if (options.isTest) {
			const workflow = this.testWorkflow ?? this.newWorkflow({}, false);
			this.testWorkflow = undefined;
			return await this.method('delete').call(this.hookContext(workflow, true, 'internal', 'update'));
		}
		const workflow = this.fromDatabase();
		const result = await this.method('delete').call(this.hookContext(workflow, false, 'internal', 'update'));
		this.save(workflow);
		this.workflow = workflow;
		return result;
	}

	/**
	 * n8n's WebhookService.createWebhookIfNotExists (checkExists, then create when false), as its
	 * callers run it. Production (ActiveWorkflowManager.addWebhooks): on success the static data is
	 * saved; on a throw, clearWebhooks calls `delete` on a workflow rebuilt from the database, saves
	 * its static data, and the error goes on (n8n retries an `init` activation later). A test listen
	 * (TestWebhooks.needsWebhook): on a throw, deactivateWebhooks calls `delete` on the same workflow.
	 */
	async activate(options: { isTest?: boolean; activation?: WorkflowActivateMode } = {}): Promise<{ existed: boolean }> {
		// ActiveWorkflowManager.add reads the workflow, with its static data, from the database.
		if (!options.isTest) this.workflow = this.fromDatabase();
		try {
			const existed = await this.checkExists(options);
			if (!existed) await this.create(options);
			if (!options.isTest) this.save(this.workflow);
			return { existed };
		} catch (error) {
			// A test listen that failed is deactivated (TestWebhooks.needsWebhook's catch);
			// production's cleanup ran in activationCall.
			if (options.isTest) await this.delete({ isTest: true });
			throw error;
		}
	}

	/**
	 * One webhook request as n8n 2.8.4 handles it (webhooks/live-webhooks.js executeWebhook,
	 * webhook-helpers.js executeWebhook, workflow-static-data.service.js):
	 * - production: the workflow and its static data are read from the database at the start of
	 *   the request, so each request has its own copy; node.webhook() runs on it; when it returns
	 *   items, the execution is created (WorkflowRunner.run; `failExecutions` makes that fail, and
	 *   n8n answers 500, saving nothing); then the copy is written back whole when it changed (last
	 *   writer wins) and only then is the request answered (responseMode onReceived);
	 * - a test event runs on the test listen's workflow (TestWebhooks: its own static data).
	 * Between these steps other requests run, as they do while n8n awaits its database.
	 */
	async deliver(request: IncomingDelivery, options: DeliverOptions = {}): Promise<DeliveryResult> {
		const headers: Record<string, string | string[] | undefined> = {};
		for (const [key, value] of Object.entries(request.headers)) headers[key.toLowerCase()] = value;
		const res = new CapturedResponse();
		const raw = Buffer.from(request.raw ?? JSON.stringify(request.body ?? null));
		// As n8n's body parser leaves it (middlewares/body-parser.js: rawBody, contentType, encoding, body).
		const req = {
			headers,
			body: request.body === undefined && request.raw !== undefined ? (JSON.parse(raw.toString('utf8')) as unknown) : request.body,
			query: request.query ?? {},
			params: {},
			rawBody: raw,
			contentType: 'application/json',
			encoding: 'utf-8',
			method: 'POST',
		};
		const additionalData = { ...this.additionalData, httpRequest: req, httpResponse: res } as unknown as IWorkflowExecuteAdditionalData;
		const mode: WorkflowExecuteMode = options.isTest ? 'manual' : 'webhook';
		if (!options.isTest) await databaseTurn();
		const workflow = options.isTest ? (this.testWorkflow ?? this.newWorkflow({}, false)) : this.fromDatabase();
		const context = new WebhookContext(workflow, this.node, additionalData, mode, this.webhookData(options.isTest), [], null);
		this.recordLogs(context);
		const started = performance.now();
		const response = (await this.nodeType.webhook!.call(context)) as IWebhookResponseData;
		this.webhookMs += performance.now() - started;
		const items = response.workflowData?.[0];
		let httpStatus = 200;
		let httpBody: unknown;
		if (items) {
			try {
				await this.createExecution(options);
			} catch (error) {
				// webhook-helpers.js: the error goes to the response callback; n8n answers 500, saves nothing.
				this.answer(res, 500, { code: 0, message: (error as Error).message });
				return { response, httpStatus: 500, httpBody: res.body };
			}
			this.executions.push(items);
		}
		// What n8n answers (webhook-helpers.js, responseMode onReceived), after saving the static data.
		if (response.noWebhookResponse) {
			httpStatus = res.statusCode;
			httpBody = res.body;
		} else if (response.workflowData) httpBody = { message: 'Workflow was started' };
		else if (response.webhookResponse !== undefined) httpBody = response.webhookResponse;
		else httpBody = { message: 'Webhook call received' };
		if (!options.isTest) await this.saveStaticData(workflow);
		this.answer(res, httpStatus, httpBody);
		return { response, items, httpStatus, httpBody };
	}

	/**
	 * What the loaded package keeps in this "process" between executions: the BoundedStores of its
	 * transport/boundedStore.ts (the module n8n loaded, not a copy), by name.
	 */
	processStores(): Map<string, { size: number; limits: { maxEntries: number; idleMs: number }; entries(): Array<[unknown, unknown]> }> {
		const file = path.join(this.packageDir ?? PACKAGE_DIR, 'dist/nodes/SalesPayments/transport/boundedStore.js');
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { PROCESS_STORES } = require(file) as { PROCESS_STORES: Array<{ name: string; size: number; limits: { maxEntries: number; idleMs: number }; entries(): Array<[unknown, unknown]> }> };
		return new Map(PROCESS_STORES.map((store) => [store.name, store]));
	}

	/** Time spent inside node.webhook() over every delivery so far (the node's own cost; the bench reads it). */
	webhookMs = 0;
	/** While above 0, WorkflowRunner.run fails that many times (n8n answers 500, saves no static data). */
	failExecutions = 0;
	/** How long creating an execution takes (n8n writes it to its database), in ms: 0 is one event-loop turn. */
	executionMs = 0;

	private async createExecution(options: DeliverOptions): Promise<void> {
		await databaseTurn(options.executionMs ?? this.executionMs);
		if (options.failExecution) throw new Error('There was a problem executing the workflow');
		if (options.failExecution === undefined && this.failExecutions > 0) {
			this.failExecutions--;
			throw new Error('There was a problem executing the workflow');
		}
	}

	/** WorkflowStaticDataService.saveStaticData: the whole static data, when it changed (no lock, no merge). */
	private async saveStaticData(workflow: Workflow): Promise<void> {
		const staticData = workflow.staticData as IDataObject & { __dataChanged?: boolean };
		if (staticData.__dataChanged !== true) return;
		await databaseTurn();
		this.database.saved = copy(staticData);
		staticData.__dataChanged = false;
	}

	private answer(res: CapturedResponse, status: number, body: unknown): void {
		if (res.writableEnded) return;
		res.status(status).json(body);
	}

	private async listen(): Promise<void> {
		this.server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				void (async (): Promise<void> => {
					if (this.outage !== undefined) {
						res.writeHead(this.outage, { 'content-type': 'application/json' });
						res.end(JSON.stringify({ message: 'n8n is unavailable' }));
						return;
					}
					const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
					const isTest = path.startsWith('/webhook-test/');
					if (path !== new URL(this.url(isTest)).pathname || req.method !== 'POST') {
						res.writeHead(404, { 'content-type': 'application/json' });
						res.end(JSON.stringify({ message: 'The requested webhook is not registered' }));
						return;
					}
					let body: unknown = {};
					const text = Buffer.concat(chunks).toString('utf8');
					try {
						body = text ? JSON.parse(text) : {};
					} catch {
						body = text;
					}
					try {
						const result = await this.deliver({ headers: req.headers, body, raw: text }, { isTest });
						this.received.push({ path, headers: req.headers, body, result });
						res.writeHead(result.httpStatus, { 'content-type': 'application/json' });
						res.end(JSON.stringify(result.httpBody ?? {}));
					} catch (error) {
						res.writeHead(500, { 'content-type': 'application/json' });
						res.end(JSON.stringify({ message: (error as Error).message }));
					}
				})();
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		this.unregister = closeAtEnd(`trigger harness server ${this.baseUrl}`, () => this.close());
	}

	private unregister = (): void => undefined;

	async close(): Promise<void> {
		this.unregister();
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
		this.server = undefined;
	}
}
