/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Executes real workflows in-process with n8n-core, the way n8n runs them: the built package
 * is loaded by n8n's PackageDirectoryLoader, credentials are applied by a credentials helper
 * that follows n8n's rules (generic authenticate blocks, preAuthentication), and workflows run
 * through WorkflowExecute. Trigger lifecycles run through HookContext and WebhookContext.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// n8n-core writes an encryption key into the user folder: keep it out of $HOME.
process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-sp-test-'));

import { ExecutionLifecycleHooks, PackageDirectoryLoader, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
	IConnections,
} from 'n8n-workflow';
import { createDeferredPromise, ICredentialsHelper, Workflow } from 'n8n-workflow';

import { recordRun } from './audit';
import { closeAtEnd } from '../teardown';

/**
 * n8n-core starts a 60-second cleanup timer when a node first runs (SSHClientsManager, stopped by
 * n8n on shutdown); jest loads n8n-core once per test file, so each file stops its own. The
 * service is taken from n8n-core's own DI container here (n8n-core does not export it, and the
 * module registry is gone when the file's closers run); n8n-core then uses this same instance.
 */
function stopN8nCoreTimersAtEnd(): void {
	const fromCore = { paths: [path.dirname(require.resolve('n8n-core'))] };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Container } = require(require.resolve('@n8n/di', fromCore)) as { Container: { get<T>(type: new (...args: never[]) => T): T } };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { SSHClientsManager } = require(require.resolve('n8n-core/dist/execution-engine/ssh-clients-manager', fromCore)) as {
		SSHClientsManager: new (...args: never[]) => { onShutdown(): void };
	};
	const manager = Container.get(SSHClientsManager);
	closeAtEnd("n8n-core's SSH clients manager", () => manager.onShutdown());
}
if (process.env.JEST_WORKER_ID !== undefined) stopN8nCoreTimersAtEnd();

/** One line the nodes logged through n8n's logger (`ctx.logger`) during an in-process run. */
export interface LoggedLine {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
}

const logged: LoggedLine[] = [];

/**
 * n8n-core hands nodes the Logger of its DI container, which prints to the console. In tests it
 * records instead: a passing test prints nothing, and a test that cares reads what was logged.
 */
function captureN8nLogger(): void {
	const fromCore = { paths: [path.dirname(require.resolve('n8n-core'))] };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Container } = require(require.resolve('@n8n/di', fromCore)) as { Container: { set(type: unknown, instance: unknown): void } };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Logger } = require(require.resolve('@n8n/backend-common', fromCore)) as { Logger: unknown };
	const record = (level: LoggedLine['level']) => (message: unknown) => void logged.push({ level, message: String(message) });
	const logger = { error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') };
	Container.set(Logger, { ...logger, scoped: () => logger });
}
if (process.env.JEST_WORKER_ID !== undefined) captureN8nLogger();

/** What the nodes logged through n8n's logger since the last takeLogged() (and forgets it). */
export function takeLogged(level?: LoggedLine['level']): string[] {
	const lines = logged.splice(0, logged.length);
	return lines.filter((line) => level === undefined || line.level === level).map((line) => line.message);
}

export const PACKAGE_DIR = path.resolve(__dirname, '../../..');
export const PACKAGE_NAME = 'n8n-nodes-sales-payments';
export const ACTION_TYPE = `${PACKAGE_NAME}.salesPayments`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.salesPaymentsTrigger`;
/** The action node as an AI agent's tool: the type n8n registers for it (see asAiTool). */
export const TOOL_TYPE = `${ACTION_TYPE}Tool`;

export interface LoadedPackage {
	nodeTypes: INodeTypes;
	credentialTypes: Record<string, ICredentialType>;
}

const loadedFrom = new Map<string, Promise<LoadedPackage>>();

/** Loads dist/ through n8n's own package loader (run `npm run build` first; `npm test` does). */
export async function loadPackage(): Promise<LoadedPackage> {
	return await loadPackageFrom(PACKAGE_DIR);
}

/** Loads a built package folder (this one, or the bench's baseline build) once per process. */
export async function loadPackageFrom(dir: string): Promise<LoadedPackage> {
	let loaded = loadedFrom.get(dir);
	if (!loaded) loadedFrom.set(dir, (loaded = loadFrom(dir)));
	return await loaded;
}

async function loadFrom(dir: string): Promise<LoadedPackage> {
	const loader = new PackageDirectoryLoader(dir);
	await loader.loadAll();
	const nodes: Record<string, INodeType | IVersionedNodeType> = {};
	for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
		nodes[`${PACKAGE_NAME}.${name}`] = type;
		// As n8n registers a node with usableAsTool a second time, as an AI agent's tool.
		if (!('nodeVersions' in type) && type.description.usableAsTool) nodes[`${PACKAGE_NAME}.${name}Tool`] = asAiTool(type);
	}
	const credentialTypes: Record<string, ICredentialType> = {};
	for (const [name, { type }] of Object.entries(loader.credentialTypes)) credentialTypes[name] = type;
	const nodeTypes: INodeTypes = {
		getByName: (type) => nodes[type],
		getByNameAndVersion: (type, version) => {
			const node = nodes[type];
			if (!node) throw new Error(`Unknown node type ${type}`);
			return 'nodeVersions' in node ? node.getNodeType(version) : node;
		},
		getKnownTypes: () => ({}),
	};
	return { nodeTypes, credentialTypes };
}

/**
 * The node as n8n makes a tool of it (n8n 2.8.4 `tool-generation/ai-tools.js` convertNodeToAiTool,
 * the same in 1.123.81 and 2.41.1): the same node with its description copied under the name plus
 * `Tool`, no main input, the `ai_tool` output, and the Tool Description fields. A workflow node of
 * this type runs it as an AI Agent (v3) does: through WorkflowExecute, its input on `main`.
 */
function asAiTool(type: INodeType): INodeType {
	const description = JSON.parse(JSON.stringify(type.description)) as INodeType['description'];
	description.name += 'Tool';
	description.displayName += ' Tool';
	description.inputs = [];
	description.outputs = ['ai_tool' as never];
	delete description.usableAsTool;
	description.properties = [
		{
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Set Automatically', value: 'auto', description: 'Automatically set based on resource and operation' },
				{ name: 'Set Manually', value: 'manual', description: 'Manually set the description' },
			],
			default: 'auto',
		},
		{
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: type.description.description,
			required: true,
			typeOptions: { rows: 2 },
			displayOptions: { show: { descriptionType: ['manual'] } },
		},
		...description.properties,
	];
	return Object.create(type, { description: { value: description } }) as INodeType;
}

/** Credential values by type, as a user would have saved them. */
export type CredentialValues = Record<string, ICredentialDataDecryptedObject>;

/** n8n's credential rules, applied in-process (n8n's own CredentialsHelper lives in the CLI). */
export class CredentialsHelper extends ICredentialsHelper {
	/** Every value preAuthentication produced, to check that tokens were refreshed. */
	readonly updates: Array<{ type: string; data: ICredentialDataDecryptedObject }> = [];

	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly values: CredentialValues,
	) {
		super();
	}

	getParentTypes(name: string): string[] {
		const ext = this.types[name]?.extends ?? [];
		return ext.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const type = this.types[typeName];
		const auth = type?.authenticate;
		if (!auth) return requestOptions;
		if (typeof auth === 'function') return await auth(credentials, requestOptions);
		const resolve = (value: unknown) =>
			workflow.expression.getParameterValue(
				value as string,
				null,
				0,
				0,
				node.name,
				[],
				'internal',
				{ $credentials: credentials } as never,
			) as unknown;
		const props = auth.properties as Record<string, Record<string, unknown> | undefined>;
		for (const section of ['headers', 'qs', 'body', 'auth'] as const) {
			const entries = props[section];
			if (!entries) continue;
			const target = ((requestOptions as unknown as Record<string, IDataObject | undefined>)[section] ??= {});
			for (const [key, value] of Object.entries(entries)) target[key] = resolve(value) as IDataObject[string];
		}
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.types[typeName];
		if (!type?.preAuthentication) return undefined;
		const expirable = type.properties.find((p) => p.type === 'hidden' && p.typeOptions?.expirable === true);
		if (!expirable) return undefined;
		if (!credentialsExpired && credentials[expirable.name]) return undefined;
		const data = (await type.preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
		const merged = { ...credentials, ...data } as ICredentialDataDecryptedObject;
		this.values[typeName] = merged;
		this.updates.push({ type: typeName, data: merged });
		return data;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails): Promise<ICredentials> {
		// Only id and name are read from this object in node executions.
		return { id: nodeCredentials.id, name: nodeCredentials.name } as unknown as ICredentials;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const value = this.values[type];
		if (!value) throw new Error(`No test credentials of type ${type}`);
		return { ...value };
	}

	async updateCredentials(_c: INodeCredentialsDetails, type: string, data: ICredentialDataDecryptedObject) {
		this.values[type] = data;
	}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}
}

export function makeAdditionalData(
	credentialsHelper: ICredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
	webhookBaseUrl = 'http://127.0.0.1:5678/webhook',
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		hooks,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used in these tests');
		},
		getRunExecutionData: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		webhookBaseUrl,
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners are not used in these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface NodeSpec {
	name?: string;
	type?: string;
	parameters: INodeParameters;
	/** Credential types this node uses; ids are made up. */
	credentials?: string[];
	continueOnFail?: boolean;
	/** "On Error: Continue (using error output)": failed items go to output 1. */
	errorOutput?: boolean;
}

export interface RunOptions {
	credentials: CredentialValues;
	/** Items fed to the first node. */
	input?: INodeExecutionData[];
	mode?: WorkflowExecuteMode;
	/** The workflow's time zone setting (default UTC, so that dates without a zone read as UTC). */
	timezone?: string;
	/** Further workflow settings, e.g. `{ binaryMode: 'combined' }` (n8n 2.x keeps files under `_files`). */
	settings?: IDataObject;
}

export interface RunResult {
	run: IRun;
	/** Output items of each node (main output 0, first run). */
	output: Record<string, INodeExecutionData[]>;
	/** Every main output of each node (first run): [0] regular, [1] errors with errorOutput. */
	outputs: Record<string, INodeExecutionData[][]>;
	/** Output items of the last node. */
	items: INodeExecutionData[];
	/** The error that stopped the workflow, if any. */
	error?: Error & { description?: string; httpCode?: string | null; context?: IDataObject };
	credentialsHelper: CredentialsHelper;
}

/**
 * Runs a chain of nodes (each feeding the next) as a manual execution and returns every node's
 * output. The first node receives `input` (default: one empty item), as from a Manual Trigger.
 */
export async function runNodes(specs: NodeSpec[], options: RunOptions): Promise<RunResult> {
	const { nodeTypes, credentialTypes } = await loadPackage();
	const nodes: INode[] = specs.map((spec, index) => ({
		id: `node-${index}`,
		name: spec.name ?? `Node ${index + 1}`,
		type: spec.type ?? ACTION_TYPE,
		typeVersion: 1,
		position: [index * 200, 0],
		parameters: spec.parameters,
		continueOnFail: spec.continueOnFail,
		onError: spec.errorOutput ? 'continueErrorOutput' : spec.continueOnFail ? 'continueRegularOutput' : undefined,
		credentials: Object.fromEntries(
			(spec.credentials ?? ['salesPaymentsApi']).map((type) => [type, { id: `cred-${type}`, name: type }]),
		),
	}));
	const connections: IConnections = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'test',
		nodes,
		connections,
		nodeTypes,
		active: false,
		settings: { executionOrder: 'v1', timezone: options.timezone ?? 'UTC', ...(options.settings ?? {}) },
	});
	const credentialsHelper = new CredentialsHelper(credentialTypes, { ...options.credentials });
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', workflow as never);
	const done = createDeferredPromise<IRun>();
	hooks.addHandler('workflowExecuteAfter', (run) => done.resolve(run));
	const additionalData = makeAdditionalData(credentialsHelper, hooks);
	const start: IExecuteData = {
		node: nodes[0],
		data: { main: [options.input ?? [{ json: {} }]] },
		source: null,
	};
	const runExecutionData: IRunExecutionData = {
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			nodeExecutionStack: [start],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as IRunExecutionData;
	const execute = new WorkflowExecute(additionalData, options.mode ?? 'manual', runExecutionData);
	await execute.processRunExecutionData(workflow);
	const run = await done.promise;
	const output: Record<string, INodeExecutionData[]> = {};
	const outputs: Record<string, INodeExecutionData[][]> = {};
	for (const [name, runs] of Object.entries(run.data.resultData.runData)) {
		output[name] = runs[0]?.data?.main?.[0] ?? [];
		outputs[name] = (runs[0]?.data?.main ?? []).map((items) => items ?? []);
	}
	const last = nodes[nodes.length - 1].name;
	// Every output and error is scanned for secrets after the test (see audit.ts).
	recordRun(specs, nodes.map((n) => n.name), options.credentials, { run });
	return {
		run,
		output,
		outputs,
		items: output[last] ?? [],
		error: run.data.resultData.error as RunResult['error'],
		credentialsHelper,
	};
}

/** Runs one action node and returns its output (or error). */
export async function runNode(spec: NodeSpec, options: RunOptions): Promise<RunResult> {
	return await runNodes([{ name: 'Sales & Payments', ...spec }], options);
}
