/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * One peer run in a real n8n 2.8.4 (peer.ts runs them, test/e2e/peer.test.ts checks them on a small
 * list): the workflows of peer-workflows.ts imported and activated once; for every run a freshly
 * started n8n (so that each run's memory is its own), the contender's webhook called, the
 * execution awaited until n8n has saved it, then its output read back and digested.
 *
 * Measured per run, all of the n8n server process (`n8n start`, regular mode, n8n's defaults:
 * SQLite, binary data mode `filesystem`, execution data saved):
 * - the execution's own time: `stoppedAt - startedAt` of its execution record (n8n's clock, the
 *   nodes' work only: not the webhook call, not the saving of the execution);
 * - until saved: from the webhook call to the execution's status being final (polled every 200 ms
 *   through n8n's REST API), so including the saving of the execution data;
 * - peak RSS: the kernel's high-water mark of the n8n process (VmHWM), reset through
 *   /proc/<pid>/clear_refs just before the call and read once the execution is saved (sampled
 *   every 100 ms where the reset is refused); RSS before: the idle process just before the call;
 *   the peak during the execution alone (its saving excluded): the highest 100 ms sample between
 *   its startedAt and stoppedAt;
 * - CPU: the n8n process' user + system time over the same span (/proc/<pid>/stat);
 * - the task runner and any other child process: their summed RSS, sampled every 100 ms (nothing
 *   here runs in them: no Code node);
 * - requests: the platform requests the simulator recorded, with their statuses.
 * The output, read after the measurement from the saved execution (n8n's REST API) and, for files,
 * from n8n's binary data folder: count of records, sha256 of the ids in order, sum of valueInCents.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import axios from 'axios';

import { ensureN8n, n8nCacheDir, packPackage } from '../n8n-install';
import type { N8nInstance } from '../n8n-process';
import { sleep } from '../n8n-process';
import type { Simulator } from '../simulator/server';
import { parseCsv } from '../helpers/csv';
import type { PeerContender, PeerWorkflowOptions } from './peer-workflows';
import { PEER_CONTENDERS, peerCredentials, peerWorkflow, resultNode, webhookPath, workflowId } from './peer-workflows';

export interface PeerRun {
	executionId?: string;
	status?: string;
	executionMs: number;
	savedMs: number;
	cpuMs: number;
	rssBeforeMb: number;
	/** Peak RSS from the webhook call until the execution was saved. */
	peakRssMb: number;
	/** Peak of the 100 ms samples within the execution's span (startedAt-stoppedAt): its saving excluded. */
	executionPeakRssMb: number;
	/** Summed RSS of n8n's child processes (its task runner), peak of the samples. */
	childrenPeakMb: number;
	requests: number;
	/** Non-200 answers of the platform, by status. */
	refusals: Record<string, number>;
	records: number;
	digest: string;
	valueSum: number;
	fileBytes?: number;
	error?: string;
}

const PAGE_KB = 4;
const mb = (kb: number) => Math.round(kb / 102.4) / 10;

/** A field of /proc/<pid>/status in kB (VmRSS, VmHWM). */
function statusKb(pid: number, field: string): number {
	try {
		const line = readFileSync(`/proc/${pid}/status`, 'utf8')
			.split('\n')
			.find((l) => l.startsWith(`${field}:`));
		return line ? Number(line.split(/\s+/)[1]) : 0;
	} catch {
		return 0;
	}
}

/** User + system CPU time of a process, in ms. */
function cpuMsOf(pid: number): number {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
	} catch {
		return 0;
	}
}

function descendants(pid: number): number[] {
	const out: number[] = [];
	const walk = (p: number) => {
		let children: number[] = [];
		try {
			children = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
		} catch {
			children = [];
		}
		for (const c of children) {
			out.push(c);
			walk(c);
		}
	};
	walk(pid);
	return out;
}

/** Resets the process' VmHWM to its current RSS (Linux >= 4.0); false when refused. */
function resetPeak(pid: number): boolean {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return statusKb(pid, 'VmHWM') <= statusKb(pid, 'VmRSS') + PAGE_KB * 256;
	} catch {
		return false;
	}
}

interface ExecutionData {
	resultData: {
		error?: { message?: string; description?: string };
		runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown>; binary?: Record<string, { id?: string; data?: string }> }>> } }>>;
	};
}

interface Execution {
	id: string;
	status: string;
	startedAt?: string | null;
	stoppedAt?: string | null;
}

export interface PeerSetupOptions extends Omit<PeerWorkflowOptions, 'baseUrl'> {
	log: (line: string) => void;
	contenders?: PeerContender[];
	/** Extra environment of n8n (e.g. N8N_DEFAULT_BINARY_DATA_MODE). */
	env?: Record<string, string>;
	/** Each run in a freshly started n8n (the bench, default), or all in one (the e2e test). */
	freshProcessPerRun?: boolean;
}

/** The n8n instance of the peer runs: package installed, credentials and workflows imported, workflows active. */
export class PeerSetup {
	private activated = false;

	private constructor(
		readonly n8n: N8nInstance,
		readonly sim: Simulator,
		readonly contenders: PeerContender[],
		private readonly fresh: boolean,
	) {}

	static async prepare(n8n: N8nInstance, sim: Simulator, options: PeerSetupOptions): Promise<PeerSetup> {
		await ensureN8n(options.log);
		const tgz = await packPackage();
		await n8n.installPackage(tgz);
		rmSync(path.dirname(tgz), { recursive: true, force: true });
		Object.assign(n8n.extraEnv, options.env ?? {});
		const contenders = options.contenders ?? PEER_CONTENDERS;
		await n8n.importCredentials(peerCredentials(sim.credentials));
		await n8n.importWorkflows(contenders.map((c) => peerWorkflow(c, { ...options, baseUrl: sim.url })));
		return new PeerSetup(n8n, sim, contenders, options.freshProcessPerRun ?? true);
	}

	/** Starts n8n (the owner set up and the workflows activated the first time). */
	async start(): Promise<void> {
		await this.n8n.start(180_000);
		if (!this.activated) {
			await this.n8n.setupOwner();
			for (const c of this.contenders) await this.n8n.activate(workflowId(c));
			this.activated = true;
		} else {
			await this.n8n.login();
		}
	}

	private async executions(c: PeerContender): Promise<Execution[]> {
		const res = await this.rest<{ data: { results: Execution[] } }>(`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: workflowId(c) }))}`);
		return res.data?.data?.results ?? [];
	}

	/**
	 * A GET of n8n's REST API, tried up to 5 times on a network error: Node's global agent keeps
	 * connections alive, and a busy n8n closing an idle one as the next poll reuses it answers
	 * ECONNRESET (seen while Convert to File wrote an XLSX of 100,000 rows).
	 */
	private async rest<T>(pathName: string): Promise<{ status: number; data: T }> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await this.n8n.rest<T>('GET', pathName);
			} catch (error) {
				if (attempt >= 5) throw error;
				await sleep(500);
			}
		}
	}

	/**
	 * One run of a contender in a freshly started n8n, stopped afterwards (with `freshProcessPerRun:
	 * false`, in the one n8n started on the first run); bounded by `deadlineMs`.
	 */
	async run(c: PeerContender, deadlineMs: number): Promise<PeerRun> {
		if (!this.fresh) {
			if (!this.n8n.pid) await this.start();
			return await this.measure(c, deadlineMs);
		}
		await this.start();
		try {
			return await this.measure(c, deadlineMs);
		} finally {
			await this.n8n.stop();
		}
	}

	private async measure(c: PeerContender, deadlineMs: number): Promise<PeerRun> {
		const pid = this.n8n.pid;
		if (!pid) throw new Error('n8n is not running');
		const known = new Set((await this.executions(c)).map((e) => e.id));
		this.sim.clearRequests();
		const rssBefore = statusKb(pid, 'VmRSS');
		const exactPeak = resetPeak(pid);
		let sampledPeak = rssBefore;
		let childrenPeak = 0;
		// (time, RSS) every 100 ms: the peak within the execution's own span, its saving excluded.
		const samples: Array<[number, number]> = [];
		const sample = () => {
			const rss = statusKb(pid, 'VmRSS');
			samples.push([Date.now(), rss]);
			sampledPeak = Math.max(sampledPeak, rss);
			childrenPeak = Math.max(
				childrenPeak,
				descendants(pid).reduce((sum, p) => sum + statusKb(p, 'VmRSS'), 0),
			);
		};
		sample();
		const timer = setInterval(sample, 100);
		const cpuBefore = cpuMsOf(pid);
		const started = performance.now();
		let execution: Execution | undefined;
		let error: string | undefined;
		try {
			const res = await axios.post(`${this.n8n.baseUrl}/webhook/${webhookPath(c)}`, {}, { timeout: 30_000, validateStatus: () => true });
			if (res.status !== 200) throw new Error(`the webhook answered ${res.status} ${JSON.stringify(res.data).slice(0, 300)}`);
			const deadline = Date.now() + deadlineMs;
			for (;;) {
				execution = (await this.executions(c)).find((e) => !known.has(e.id));
				if (execution && !['new', 'running', 'waiting'].includes(execution.status)) break;
				if (Date.now() > deadline) throw new Error(`no finished execution after ${Math.round(deadlineMs / 1000)} s (${execution ? `execution ${execution.id} ${execution.status}` : 'none started'})`);
				await sleep(200);
			}
		} catch (e) {
			error = (e as Error).message;
		} finally {
			clearInterval(timer);
		}
		const savedMs = performance.now() - started;
		sample();
		const cpuMs = cpuMsOf(pid) - cpuBefore;
		const peak = exactPeak ? Math.max(statusKb(pid, 'VmHWM'), sampledPeak) : sampledPeak;
		const requests = this.sim.requestsTo('POST', '/movement/filter');
		const refusals: Record<string, number> = {};
		for (const r of requests) if (r.status !== 200) refusals[r.status] = (refusals[r.status] ?? 0) + 1;
		const [from, to] = execution?.startedAt && execution.stoppedAt ? [Date.parse(execution.startedAt), Date.parse(execution.stoppedAt)] : [0, 0];
		const run: PeerRun = {
			executionId: execution?.id,
			status: execution?.status,
			executionMs: to - from,
			executionPeakRssMb: mb(Math.max(rssBefore, ...samples.filter(([t]) => t >= from && t <= to + 100).map(([, rss]) => rss))),
			savedMs: Math.round(savedMs),
			cpuMs: Math.round(cpuMs),
			rssBeforeMb: mb(rssBefore),
			peakRssMb: mb(peak),
			childrenPeakMb: mb(childrenPeak),
			requests: requests.length,
			refusals,
			records: 0,
			digest: '',
			valueSum: 0,
		};
		if (!error && execution?.status !== 'success') error = `execution ${execution?.id} ended ${execution?.status}: ${await this.failure(execution!.id)}`;
		if (error) return { ...run, error };
		try {
			return { ...run, ...(await this.output(c, execution!.id)) };
		} catch (e) {
			return { ...run, error: `reading the output: ${(e as Error).message}` };
		} finally {
			// Read: deleted with its files, so that every run starts from the same database and disk
			// (a delete that fails costs only disk).
			await this.n8n.rest('POST', '/executions/delete', { ids: [execution!.id] }).catch(() => undefined);
		}
	}

	/** The saved execution's data, parsed from n8n's flatted format with n8n's own copy of flatted. */
	private async executionData(executionId: string): Promise<ExecutionData> {
		const res = await this.rest<{ data: { data: string } }>(`/executions/${executionId}`);
		if (res.status !== 200) throw new Error(`GET /rest/executions/${executionId} answered ${res.status}`);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const flatted = require(path.join(n8nCacheDir(this.n8n.target), 'node_modules', 'flatted')) as { parse(text: string): unknown };
		return flatted.parse(res.data.data.data) as ExecutionData;
	}

	/** The error a failed execution saved. */
	private async failure(executionId: string): Promise<string> {
		try {
			const { error } = (await this.executionData(executionId)).resultData;
			return error ? `${error.message ?? ''}${error.description ? ` (${error.description})` : ''}` : 'no error saved';
		} catch (e) {
			return `its error unread: ${(e as Error).message}`;
		}
	}

	/** The contender's output in the saved execution: its records digested (files read from n8n's storage). */
	private async output(c: PeerContender, executionId: string): Promise<Pick<PeerRun, 'records' | 'digest' | 'valueSum' | 'fileBytes'>> {
		const digest = new RecordDigest();
		// A file output: the one file this execution stored (nothing else in these workflows makes
		// one), read without fetching the execution's data, which is large after Split Out.
		let bytes = c.output === 'items' ? undefined : this.onlyFileOf(c, executionId);
		if (!bytes) {
			const data = await this.executionData(executionId);
			const items = data.resultData.runData[resultNode(c)]?.[0]?.data?.main?.[0] ?? [];
			if (c.output === 'items') {
				for (const item of items) digest.add(item.json.id, item.json.valueInCents);
				return digest.result();
			}
			if (items.length !== 1) throw new Error(`${items.length} items out of ${resultNode(c)}, expected one file`);
			const file = items[0].binary?.data;
			bytes = file?.id ? readFileSync(this.binaryFile(file.id)) : Buffer.from(file?.data ?? '', 'base64');
		}
		if (c.output === 'csv') csvRecords(bytes, digest);
		else xlsxRecords(bytes, digest, n8nCacheDir(this.n8n.target));
		return { ...digest.result(), fileBytes: bytes.length };
	}

	/** The execution's only file in n8n's filesystem binary data mode, if it stored exactly one. */
	private onlyFileOf(c: PeerContender, executionId: string): Buffer | undefined {
		for (const dir of ['storage', 'binaryData']) {
			const folder = path.join(this.n8n.userFolder, '.n8n', dir, 'workflows', workflowId(c), 'executions', executionId, 'binary_data');
			if (!existsSync(folder)) continue;
			const files = readdirSync(folder).filter((f) => !f.endsWith('.metadata'));
			return files.length === 1 ? readFileSync(path.join(folder, files[0])) : undefined;
		}
		return undefined;
	}

	/** Where n8n's filesystem binary data mode keeps a file (`filesystem-v2:<relative path>`). */
	private binaryFile(id: string): string {
		const relative = id.slice(id.indexOf(':') + 1);
		for (const dir of ['storage', 'binaryData']) {
			const file = path.join(this.n8n.userFolder, '.n8n', dir, relative);
			if (existsSync(file)) return file;
		}
		throw new Error(`the file ${id} is not in ${this.n8n.userFolder}/.n8n/{storage,binaryData}`);
	}
}

/** Count, sha256 of the ids in order and sum of valueInCents: equal outputs have equal results. */
export class RecordDigest {
	private hash = createHash('sha256');
	private records = 0;
	private valueSum = 0;

	add(id: unknown, value: unknown): void {
		this.hash.update(`${String(id)}\n`);
		this.records++;
		this.valueSum += Number(value);
	}

	result(): { records: number; digest: string; valueSum: number } {
		return { records: this.records, digest: this.hash.digest('hex'), valueSum: this.valueSum };
	}
}

function csvRecords(bytes: Buffer, digest: RecordDigest): void {
	const [header, ...rows] = parseCsv(bytes.toString('utf8').replace(/^\uFEFF/, ''));
	const [id, value] = [header.indexOf('id'), header.indexOf('valueInCents')];
	if (id < 0 || value < 0) throw new Error(`the CSV's header has no id or valueInCents: ${header.join(',')}`);
	for (const row of rows) if (row.length > 1 || row[0] !== '') digest.add(row[id], row[value]);
}

/**
 * The first sheet's rows through SheetJS, n8n's own copy (the one Convert to File writes with):
 * it reads shared and inline strings alike, and cells without a reference (the package's sheets
 * name a cell only after a gap, which exceljs' streaming reader refuses).
 */
function xlsxRecords(bytes: Buffer, digest: RecordDigest, n8nDir: string): void {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const XLSX = require(path.join(n8nDir, 'node_modules', 'xlsx')) as {
		read(data: Buffer, options: object): { SheetNames: string[]; Sheets: Record<string, unknown> };
		utils: { sheet_to_json(sheet: unknown, options: object): unknown[][] };
	};
	const book = XLSX.read(bytes, { type: 'buffer', dense: true });
	const [header, ...rows] = XLSX.utils.sheet_to_json(book.Sheets[book.SheetNames[0]], { header: 1, raw: true });
	const [id, value] = [header.indexOf('id'), header.indexOf('valueInCents')];
	if (id < 0 || value < 0) throw new Error(`the sheet's header has no id or valueInCents: ${header.join(',')}`);
	for (const row of rows) digest.add(row[id], row[value]);
}
