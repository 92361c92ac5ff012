/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * A test file's credentials and workflows in a running n8n, driven through n8n's REST API as the
 * editor drives it: credentials and workflows saved (POST /rest/credentials, /rest/workflows), a
 * workflow run as *Execute workflow* runs it (POST /rest/workflows/<id>/run from its manual
 * trigger), its execution read back once n8n saved it (GET /rest/executions/<id>, n8n's `flatted`
 * text parsed with n8n's own copy of flatted), and at the end everything the file saved archived
 * and deleted (archiving deactivates, so a trigger's `delete` runs while the file's simulator still
 * answers).
 *
 * No CLI call: a run costs what the workflow does, not an n8n start (about 5 s each, 10-13 s under
 * load: `n8n execute`). The n8n is the one the e2e global setup started for this jest worker
 * (test/e2e/setup.ts, `openSession`) or one the file started for itself; either way the file sees
 * only what it saved.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { n8nCacheDir } from './n8n-install';
import type { ExecutedRun, N8nInstance } from './n8n-process';
import { sleep } from './n8n-process';

/** A credential as a test file gives it: its own id (named in its workflows), name, type and plain data. */
export interface CredentialSpec {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

interface SavedWorkflow {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; disabled?: boolean; credentials?: Record<string, { id: string | null; name: string }> }>;
	[key: string]: unknown;
}

/** One run read back from n8n: what `n8n execute --rawOutput` printed, and n8n's log lines written meanwhile. */
export interface SessionRun {
	executionId: string;
	status: string;
	run: ExecutedRun;
	/** n8n's own output from the run's start until it was saved. */
	log: string;
}

const FINAL = new Set(['success', 'error', 'crashed', 'canceled']);
const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';

export class N8nSession {
	/** The test's credential id -> the id n8n gave the saved credential. */
	private readonly credentialIds = new Map<string, string>();
	private readonly workflowIds = new Set<string>();

	constructor(
		readonly n8n: N8nInstance,
		/** Whether n8n is the worker's shared one (other files used it before this one, and will after). */
		readonly shared: boolean,
		/** The one folder n8n may read and write files in (N8N_RESTRICT_FILE_ACCESS_TO); files' folders go inside. */
		readonly filesRoot: string,
	) {}

	/** A new folder n8n's file nodes may write to. */
	filesDir(prefix: string): string {
		return mkdtempSync(path.join(this.filesRoot, prefix));
	}

	/** Saves credentials (n8n encrypts their data); workflows saved afterwards name them by the test's ids. */
	async addCredentials(credentials: CredentialSpec[]): Promise<void> {
		for (const c of credentials) {
			if (this.credentialIds.has(c.id)) throw new Error(`credential ${c.id} was saved in this session already`);
			const res = await this.n8n.rest<{ data: { id: string } }>('POST', '/credentials', { name: c.name, type: c.type, data: c.data });
			if (res.status !== 200) throw new Error(`saving credential ${c.id} (${c.type}) failed: ${res.status} ${JSON.stringify(res.data).slice(0, 500)}`);
			this.credentialIds.set(c.id, res.data.data.id);
		}
	}

	/**
	 * Saves workflows built by the test (a workflow this session saved before under the same id is
	 * replaced). Each node's credential is the one this session saved under the id it names.
	 */
	async addWorkflows(workflows: unknown[], o: { keepUnknownCredentials?: boolean } = {}): Promise<void> {
		for (const workflow of workflows) {
			const copy = structuredClone(workflow) as SavedWorkflow;
			for (const node of copy.nodes) {
				if (!node.credentials) continue;
				// A new object per node: nodes may share one (structuredClone keeps them shared).
				const credentials: Record<string, { id: string; name: string }> = {};
				for (const [type, ref] of Object.entries(node.credentials)) {
					const id = ref.id === null ? undefined : this.credentialIds.get(ref.id);
					if (!id && o.keepUnknownCredentials) {
						credentials[type] = { id: ref.id!, name: ref.name };
						continue;
					}
					if (!id) throw new Error(`workflow ${copy.id}, node ${node.name}: its ${type} credential ${String(ref.id)} was not saved in this session (addCredentials)`);
					credentials[type] = { id, name: ref.name };
				}
				node.credentials = credentials;
			}
			await this.save(copy);
		}
	}

	/**
	 * Saves workflow files as they are, as `n8n import:workflow` does, except for the credential ids
	 * their nodes name: those of the credentials this session saved under these ids (n8n gives a
	 * saved credential an id of its own), as when the credentials were imported with those ids; a
	 * credential the session did not save stays named as it is, as an import leaves it.
	 */
	async addWorkflowFiles(files: string[]): Promise<void> {
		await this.addWorkflows(
			files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown),
			{ keepUnknownCredentials: true },
		);
	}

	private async save(workflow: SavedWorkflow): Promise<void> {
		if (this.workflowIds.has(workflow.id)) await this.remove(workflow.id);
		const res = await this.n8n.rest('POST', '/workflows', workflow);
		if (res.status !== 200) throw new Error(`saving workflow ${workflow.id} failed: ${res.status} ${JSON.stringify(res.data).slice(0, 500)}`);
		this.workflowIds.add(workflow.id);
	}

	/** Archives (which deactivates) and deletes a workflow with its executions. */
	private async remove(workflowId: string): Promise<void> {
		const archived = await this.n8n.rest('POST', `/workflows/${workflowId}/archive`, {});
		const deleted = archived.status === 200 ? await this.n8n.rest('DELETE', `/workflows/${workflowId}`) : archived;
		if (deleted.status !== 200) throw new Error(`removing workflow ${workflowId} failed: ${deleted.status} ${JSON.stringify(deleted.data).slice(0, 500)}`);
		this.workflowIds.delete(workflowId);
	}

	/** Bytes of n8n's log so far: where a run's own lines start. */
	private logMark(): number {
		return this.n8n.logFile ? statSync(this.n8n.logFile).size : 0;
	}

	private logSince(mark: number): string {
		return this.n8n.logFile ? readFileSync(this.n8n.logFile).subarray(mark).toString('utf8') : '';
	}

	/**
	 * Runs a saved workflow once from its manual trigger, as *Execute workflow* in the editor does,
	 * and returns the run once n8n has saved it (failed runs too: check `status`).
	 */
	async run(workflowId: string, timeoutMs = 180_000): Promise<SessionRun> {
		const saved = await this.n8n.rest<{ data: SavedWorkflow }>('GET', `/workflows/${workflowId}`);
		if (saved.status !== 200) throw new Error(`workflow ${workflowId}: ${saved.status} ${JSON.stringify(saved.data).slice(0, 300)}`);
		const triggers = saved.data.data.nodes.filter((n) => n.type === MANUAL_TRIGGER && !n.disabled);
		if (triggers.length !== 1) throw new Error(`workflow ${workflowId} has ${triggers.length} enabled manual triggers: one is needed to run it`);
		const mark = this.logMark();
		const started = await this.n8n.rest<{ data: { executionId?: string; waitingForWebhook?: boolean } }>('POST', `/workflows/${workflowId}/run`, {
			workflowData: saved.data.data,
			triggerToStartFrom: { name: triggers[0].name },
		});
		const executionId = started.data?.data?.executionId;
		if (started.status !== 200 || !executionId) throw new Error(`running workflow ${workflowId} failed: ${started.status} ${JSON.stringify(started.data).slice(0, 500)}`);
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const res = await this.n8n.rest<{ data: { status: string; data: string } }>('GET', `/executions/${executionId}`);
			const execution = res.status === 200 ? res.data.data : undefined;
			if (execution && FINAL.has(execution.status)) {
				const data = parseFlatted(this.n8n, execution.data) as ExecutedRun['data'];
				return { executionId, status: execution.status, run: { status: execution.status, data }, log: this.logSince(mark) };
			}
			if (Date.now() > deadline) {
				throw new Error(`workflow ${workflowId}: execution ${executionId} not done within ${timeoutMs} ms (${res.status}, ${execution?.status ?? JSON.stringify(res.data).slice(0, 300)})`);
			}
			await sleep(250);
		}
	}

	/** Runs a workflow and expects it to succeed; a failure names the node and its message. */
	async runOk(workflowId: string, timeoutMs?: number): Promise<ExecutedRun> {
		const { run, status } = await this.run(workflowId, timeoutMs);
		const failure = run.data.resultData.error as { message?: string; node?: { name?: string } } | undefined;
		expect({ status, failure: failure ? `${failure.node?.name}: ${failure.message}` : undefined }).toEqual({ status: 'success', failure: undefined });
		return run;
	}

	/**
	 * Removes everything this session saved: its workflows (archived first, which deactivates them)
	 * and its credentials. Every removal is tried; the first failure is thrown after the others.
	 */
	async end(): Promise<void> {
		const failures: string[] = [];
		for (const id of [...this.workflowIds]) {
			try {
				await this.remove(id);
			} catch (error) {
				failures.push((error as Error).message);
			}
		}
		for (const [testId, id] of this.credentialIds) {
			const res = await this.n8n.rest('DELETE', `/credentials/${id}`);
			if (res.status !== 200) failures.push(`removing credential ${testId} failed: ${res.status}`);
			else this.credentialIds.delete(testId);
		}
		if (failures.length) throw new Error(`the n8n session did not end cleanly: ${failures.join('; ')}`);
	}
}

/** n8n stores execution data in the `flatted` format; its own copy of flatted reads it. */
function parseFlatted(n8n: N8nInstance, text: string): unknown {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const flatted = require(path.join(n8nCacheDir(n8n.target), 'node_modules', 'flatted')) as { parse(text: string): unknown };
	return flatted.parse(text);
}
