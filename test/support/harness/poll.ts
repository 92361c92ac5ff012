/* eslint-disable @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Runs the polling trigger the way n8n does, in-process, through n8n-core's PollContext:
 * - activation (ActiveWorkflows.activatePolling): one PollContext for as long as the workflow is
 *   active, a first poll right away whose error fails the activation, then static data saved
 *   (ActiveWorkflowManager saves it after adding the triggers and pollers);
 * - each cron tick (createPollExecuteFn): poll(); a non-null answer is emitted: n8n saves the
 *   workflow's static data (when it changed) and starts an execution with the items; an error
 *   goes to __emitError (n8n records an error execution) and the next tick polls again;
 * - a manual run ("Fetch Test Event", WorkflowExecute.executePollNode): a fresh PollContext in
 *   mode 'manual' whose answer is the node's output;
 * - a restart: the workflow is rebuilt from the static data n8n last saved (not from the live
 *   copy), as when n8n starts again.
 * Every emission and error is handed to the secret audit.
 */
import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { recordRun } from './audit';
import type { CredentialValues } from './n8n-core';
import { CredentialsHelper, loadPackage, makeAdditionalData, PACKAGE_NAME } from './n8n-core';

export const POLLING_TRIGGER_TYPE = `${PACKAGE_NAME}.salesPaymentsPollingTrigger`;

export interface PollOptions {
	parameters: INodeParameters;
	credentials: CredentialValues;
	workflowId?: string;
	nodeName?: string;
	/** The workflow's time zone setting (default UTC). */
	timezone?: string;
	/** Static data as n8n saved it, to start as after a restart. */
	staticData?: IDataObject;
	/**
	 * n8n's clock (epoch ms) for each poll: while a poll runs, Date.now() goes from there (the
	 * node reads its own clock with Date.now()). Default: the machine's clock.
	 */
	clock?: () => number;
}

const realNow = Date.now.bind(Date);
let clockOffset = 0;
let clockUsers = 0;

/** Runs `fn` with Date.now() shifted to `clock()` (nested and concurrent polls share one shift). */
async function atClock<T>(clock: (() => number) | undefined, fn: () => Promise<T>): Promise<T> {
	if (!clock) return await fn();
	clockOffset = clock() - realNow();
	if (clockUsers++ === 0) Date.now = () => realNow() + clockOffset;
	try {
		return await fn();
	} finally {
		if (--clockUsers === 0) Date.now = realNow;
	}
}

type PollError = Error & { description?: string; httpCode?: string | null; node?: INode };

export class PollHarness {
	workflow!: Workflow;
	node!: INode;
	nodeType!: INodeType;
	additionalData!: IWorkflowExecuteAdditionalData;
	/** The items of every execution n8n would have started, in order. */
	readonly executions: INodeExecutionData[][] = [];
	/** Errors n8n would have recorded as error executions (polls after activation). */
	readonly errors: PollError[] = [];
	/** The static data as n8n last saved it to its database. */
	saved: IDataObject = {};
	private context!: PollContext;

	private constructor(private readonly options: PollOptions) {}

	/** Builds the workflow and activates it (first poll right away; its error is thrown). */
	static async activate(options: PollOptions, activation: WorkflowActivateMode = 'activate'): Promise<PollHarness> {
		const harness = new PollHarness(options);
		harness.saved = options.staticData ? clone(options.staticData) : {};
		await harness.build();
		await harness.startPolling(activation);
		return harness;
	}

	private async build(): Promise<void> {
		const { nodeTypes, credentialTypes } = await loadPackage();
		this.nodeType = nodeTypes.getByNameAndVersion(POLLING_TRIGGER_TYPE, 1);
		this.node ??= {
			id: 'polling-trigger-node',
			name: this.options.nodeName ?? 'Sales & Payments Polling Trigger',
			type: POLLING_TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: this.options.parameters,
			credentials: { salesPaymentsApi: { id: 'cred-salesPaymentsApi', name: 'salesPaymentsApi' } },
		};
		this.workflow = new Workflow({
			id: this.options.workflowId ?? 'wf-polling-1',
			name: 'Polling test',
			nodes: [this.node],
			connections: {},
			nodeTypes,
			active: true,
			staticData: clone(this.saved),
			settings: { executionOrder: 'v1', timezone: this.options.timezone ?? 'UTC' },
		});
		const credentialsHelper = new CredentialsHelper(credentialTypes, { ...this.options.credentials });
		this.additionalData = makeAdditionalData(credentialsHelper);
	}

	private async startPolling(activation: WorkflowActivateMode): Promise<void> {
		const emit = (data: INodeExecutionData[][]) => {
			this.save();
			this.executions.push(data[0] ?? []);
			this.audit(data[0] ?? []);
		};
		const emitError = (error: Error) => {
			this.errors.push(error as PollError);
			this.audit([], error);
		};
		this.context = new PollContext(this.workflow, this.node, this.additionalData, 'trigger', activation, emit, emitError);
		await this.tick(true);
		// ActiveWorkflowManager.add() saves the static data once the pollers are added.
		this.save();
	}

	/** One cron tick: createPollExecuteFn of n8n-core's ActiveWorkflows. */
	private async tick(testingTrigger: boolean): Promise<void> {
		try {
			const response = await atClock(this.options.clock, async () => await this.nodeType.poll!.call(this.context));
			if (response !== null) this.context.__emit(response);
		} catch (error) {
			if (testingTrigger) throw error;
			this.context.__emitError(error as Error);
		}
	}

	/** A scheduled poll; returns the items of the execution it started (undefined: none). */
	async poll(): Promise<INodeExecutionData[] | undefined> {
		const before = this.executions.length;
		await this.tick(false);
		return this.executions.length > before ? this.executions[this.executions.length - 1] : undefined;
	}

	/** The JSON of every item emitted by one scheduled poll ([] when it started nothing). */
	async pollJson(): Promise<IDataObject[]> {
		return ((await this.poll()) ?? []).map((item) => item.json);
	}

	/** A manual run (executePollNode in mode 'manual'): the node's output, static data untouched by n8n. */
	async manual(): Promise<IDataObject[]> {
		const context = new PollContext(this.workflow, this.node, this.additionalData, 'manual', 'manual');
		const response = await atClock(this.options.clock, async () => await this.nodeType.poll!.call(context));
		const items = response?.[0] ?? [];
		this.audit(items);
		return items.map((item) => item.json);
	}

	/** Changes node parameters and reactivates (saving an edited active workflow does that). */
	async update(parameters: INodeParameters): Promise<void> {
		this.node.parameters = parameters;
		this.saved = this.liveStaticData();
		await this.build();
		await this.startPolling('update');
	}

	/** n8n stops (unsaved static data is lost) and starts again: activation 'init' from the saved data. */
	async restart(): Promise<void> {
		await this.build();
		await this.startPolling('init');
	}

	/** WorkflowStaticDataService.saveStaticData: saved only when something changed. */
	private save(): void {
		const data = this.workflow.staticData as IDataObject & { __dataChanged?: boolean };
		if (data.__dataChanged === true) {
			this.saved = this.liveStaticData();
			data.__dataChanged = false;
		}
	}

	liveStaticData(): IDataObject {
		return clone(this.workflow.staticData as IDataObject);
	}

	/** The node's static data (live). */
	get nodeStaticData(): IDataObject {
		return this.workflow.getStaticData('node', this.node);
	}

	private audit(items: INodeExecutionData[], error?: unknown): void {
		recordRun(
			[{ name: this.node.name, parameters: { resource: 'pollingTrigger', operation: String(this.node.parameters.event) } }],
			[this.node.name],
			this.options.credentials,
			{ run: { data: { resultData: { runData: { [this.node.name]: [{ data: { main: [items] } }] }, error } } } },
		);
	}
}

function clone<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? {})) as T;
}
