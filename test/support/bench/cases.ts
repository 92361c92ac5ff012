/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The cases of `npm run bench`, each run in a fresh child process started on this file
 * (`<node> <tsx> test/support/bench/cases.ts --case <json>`, see caseChildArgs): Return All of
 * the movements by the node (n8n-core, the built package: n8n-run.ts), by the floor (a keep-alive
 * `node:http` loop) or by an anchor node (anchors.ts); the trigger's deliveries; and the load of
 * the built module, which runs in plain node.
 */
import { existsSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import type { Anchor } from './anchors';
import { runCommand } from '../command';
import type { Memory } from './measure';
import { answerCase, caseArgs, digestOf, measureMemory } from './measure';
import type { DeliveryStats } from './n8n-run';
import { LIST_PATH, REPO_DIR } from './settings';

export interface Target {
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
	businessId: string;
}

export type Client = 'node' | 'floor' | Anchor;

export interface ListSpec {
	kind: 'list';
	client: Client;
	target: Target;
	pageSize: number;
	/** node: Max Concurrent Requests; undefined leaves the Pagination options at their defaults. Anchors: pages read at a time (default 1). */
	concurrency?: number;
	/** Anchors: the most pages read (a bounded run; `expected` says how many records that is). */
	pages?: number;
	expected: number;
	/** node: the package built in this folder instead of this repository (the baseline). */
	packageDir?: string;
	/** floor: the headers and body the node sends, as the simulator received them. */
	headers: Record<string, string>;
	body: string;
	/** A V8 CPU profile of the measured work (not the warm-up) is written to this file (.cpuprofile). */
	profile?: string;
	/**
	 * Per item (issue 45): instead of the list, one request per input item, `items` of them: Order ›
	 * Get (`read`) or Customer › Create (`write`); `expected` is the number of items.
	 */
	perItem?: { op: PerItemOp; items: number };
	/** Per item, node: no warm-up, nothing learned before the measured run (the first run of a fresh n8n process). */
	fresh?: boolean;
	/** Per item, node: first (unmeasured) the same number of items of this operation, same credential and process. */
	after?: PerItemOp;
}

export type PerItemOp = 'read' | 'write';

/** The input items of the per-item cases: order ids to read, or leads to create. */
export function perItemInput(op: PerItemOp, items: number): Array<{ json: Record<string, string> }> {
	return Array.from({ length: items }, (_, n) => {
		const json: Record<string, string> = op === 'read' ? { id: `ord_${String(n).padStart(5, '0')}` } : { name: `Lead ${n}`, email: `lead${n}@mail.example` };
		return { json };
	});
}

export type CaseSpec = ListSpec | { kind: 'trigger'; target: Target; deliveries: number; packageDir?: string } | { kind: 'load' };

export interface ListResult extends Memory {
	wallMs: number;
	/** CPU time (user + system) of the measuring process during the work: steadier than wall time on a busy machine. */
	cpuMs: number;
	items: number;
	/** sha256 of the record ids in output order: equal outputs have equal digests. */
	digest: string;
	/** The run's error message (a node run that failed), if any. */
	error?: string;
}

export interface TriggerResult {
	good: DeliveryStats;
	forged: DeliveryStats;
	/** With --against: that build's figures, measured in the same rounds. */
	against?: { label: string; good: DeliveryStats; forged: DeliveryStats };
}

export interface LoadResult {
	/** require() of the node module with n8n-workflow already loaded (as inside n8n). */
	requireMs: number;
	/** require() of n8n-workflow itself, for scale. */
	n8nWorkflowRequireMs: number;
	/** new SalesPayments() and reading its description. */
	constructMs: number;
	properties: number;
	/** Modules of dist/ that the require loaded. */
	modules: number;
}

/** Headers a client sets itself: never copied from the node's request. */
const OWN_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

export function sameHeaders(headers: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(headers).filter(([name]) => !OWN_HEADERS.has(name.toLowerCase())));
}

/**
 * The floor: one keep-alive `node:http` connection, the node's pages one after another with
 * its headers and body, each page's JSON parsed and its records pushed into one array.
 */
async function floorList(spec: ListSpec, limitPages = 10_000): Promise<unknown[]> {
	const base = new URL(spec.target.baseUrl);
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	const headers = { ...sameHeaders(spec.headers), 'content-length': String(Buffer.byteLength(spec.body)) };
	const items: unknown[] = [];
	try {
		for (let page = 1; page <= limitPages; page++) {
			const text = await new Promise<string>((resolve, reject) => {
				const req = http.request(
					{
						host: base.hostname,
						port: base.port,
						agent,
						method: 'POST',
						path: `${LIST_PATH}?page=${page}&limit=${spec.pageSize}`,
						headers,
					},
					(res) => {
						const chunks: Buffer[] = [];
						res.on('data', (chunk: Buffer) => chunks.push(chunk));
						res.on('end', () =>
							res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`HTTP ${res.statusCode}`)),
						);
						res.on('error', reject);
					},
				);
				req.on('error', reject);
				req.end(spec.body);
			});
			const data = (JSON.parse(text) as { data: { movements: unknown[]; count: number } }).data;
			const records = data.movements;
			for (const record of records) items.push(record);
			if (records.length === 0 || items.length >= Number(data.count)) break;
		}
	} finally {
		agent.destroy();
	}
	return items;
}

/** An anchor node (anchors.ts) executed by n8n-core; `pages` bounds it (the warm-up reads one page). */
async function anchorList(spec: ListSpec, anchor: Anchor, pages = spec.pages) {
	const { executeNode } = await import('./n8n-run');
	const { ANCHOR_TYPES } = await import('./anchors');
	const parameters = {
		pageSize: spec.pageSize,
		...(pages ? { pages } : {}),
		...(spec.concurrency ? { concurrency: spec.concurrency } : {}),
		...(spec.perItem ? { perItem: spec.perItem.op } : {}),
	};
	const input = spec.perItem ? perItemInput(spec.perItem.op, spec.perItem.items) : undefined;
	return await executeNode(parameters, { ...spec.target }, undefined, ANCHOR_TYPES[anchor], undefined, input);
}

/** Order › Get or Customer › Create for every input item, with the node's defaults (or Max Concurrent Requests). */
async function nodePerItem(spec: ListSpec, perItem: NonNullable<ListSpec['perItem']>) {
	const parameters =
		perItem.op === 'read'
			? { resource: 'order', operation: 'get', orderId: '={{ $json.id }}', simplify: false }
			: { resource: 'customer', operation: 'create', name: '={{ $json.name }}', email: '={{ $json.email }}' };
	const options = spec.concurrency !== undefined ? { requestOptions: { maxConcurrency: spec.concurrency } } : {};
	const { executeNode } = await import('./n8n-run');
	return await executeNode({ ...parameters, ...options }, { ...spec.target }, spec.packageDir, undefined, undefined, perItemInput(perItem.op, perItem.items));
}

async function nodeList(spec: ListSpec, defaultPageSize: number, limit?: number) {
	if (spec.perItem) return await nodePerItem(spec, limit === undefined ? spec.perItem : { ...spec.perItem, items: 1 });
	const pagination: Record<string, number> = {};
	if (spec.pageSize !== defaultPageSize) pagination.pageSize = spec.pageSize;
	if (spec.concurrency !== undefined) pagination.maxConcurrency = spec.concurrency;
	const parameters = {
		resource: 'movement',
		operation: 'getMany',
		returnAll: limit === undefined,
		...(limit === undefined ? {} : { limit }),
		// Default settings: no Pagination option set at all, as a new node has it.
		...(Object.keys(pagination).length ? { pagination } : {}),
	};
	// A static import there: a dynamic import of n8n-workflow here would load its ESM build,
	// a second copy beside the CommonJS one that n8n-core uses.
	const { executeNode } = await import('./n8n-run');
	return await executeNode(parameters, { ...spec.target }, spec.packageDir);
}

function defaultPageSizeOf(packageDir: string): number {
	// Where the module is, or was before the walk's own room (an --against ref before it) and before
	// the one-service-folder move (a ref before e8bd725).
	const places = ['paging/pages.js', 'lists/pagination.js', 'shared/pagination.js'];
	const file = places.map((place) => path.join(packageDir, 'dist/nodes/SalesPayments', place)).find((f) => existsSync(f));
	if (file === undefined) throw new Error(`no built page module (${places.join(', ')}) under ${packageDir}/dist/nodes/SalesPayments`);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(file) as { DEFAULT_PAGE_SIZE: number }).DEFAULT_PAGE_SIZE;
}

/** V8's sampling profiler on this process (node:inspector), from now until stop() writes the profile. */
async function startProfile(): Promise<{ stop: (file: string) => Promise<void> }> {
	const { Session } = await import('node:inspector');
	const session = new Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 200 });
	await post('Profiler.start');
	return {
		stop: async (file) => {
			const { profile } = (await post('Profiler.stop')) as { profile: unknown };
			session.disconnect();
			writeFileSync(file, JSON.stringify(profile));
		},
	};
}

async function runListCase(spec: ListSpec): Promise<ListResult> {
	const defaultPageSize = defaultPageSizeOf(spec.packageDir ?? REPO_DIR);
	// Warm-up (module loading, JIT) outside the measurement: one request (none for a fresh process' first run).
	if (spec.client === 'node') {
		if (!spec.fresh) await nodeList(spec, defaultPageSize, 10);
	} else if (spec.client === 'floor') await floorList({ ...spec, pageSize: 10 }, 1);
	else await anchorList({ ...spec, pageSize: 10, ...(spec.perItem ? { perItem: { ...spec.perItem, items: 1 } } : {}) }, spec.client, 1);
	if (spec.client === 'node' && spec.perItem && spec.after) await nodePerItem(spec, { op: spec.after, items: spec.perItem.items });
	let error: string | undefined;
	const profiler = spec.profile ? await startProfile() : undefined;
	const { value, memory, wallMs, cpuMs } = await measureMemory(async () => {
		try {
			if (spec.client === 'floor') return (await floorList(spec)).map((r) => (r as { id: string }).id);
			if (spec.client !== 'node') return (await anchorList(spec, spec.client)).map((i) => i.json.id);
			return (await nodeList(spec, defaultPageSize)).map((i) => i.json.id);
		} catch (e) {
			error = (e as Error).message;
			return [];
		}
	});
	if (profiler && spec.profile) await profiler.stop(spec.profile);
	if (!error && value.length !== spec.expected) error = `${spec.client} returned ${value.length} records, expected ${spec.expected}`;
	return { wallMs: Math.round(wallMs), cpuMs: Math.round(cpuMs), ...memory, items: value.length, digest: digestOf(value), ...(error ? { error } : {}) };
}

/**
 * Runs in a plain `node` process (no TypeScript loader hooks, as inside n8n): require() of
 * n8n-workflow, then of the built action node, then new SalesPayments() and its description.
 */
const LOAD_SCRIPT = `
const { performance } = require('node:perf_hooks');
const path = require('node:path');
const dist = path.join(process.cwd(), 'dist');
const t0 = performance.now();
require('n8n-workflow');
const t1 = performance.now();
const mod = require(path.join(dist, 'nodes/SalesPayments/SalesPayments.node.js'));
const t2 = performance.now();
const node = new mod.SalesPayments();
const properties = node.description.properties.length;
const t3 = performance.now();
const modules = Object.keys(require.cache).filter((f) => f.startsWith(dist + path.sep)).length;
const r = (ms) => Math.round(ms * 10) / 10;
process.stdout.write(JSON.stringify({ result: { n8nWorkflowRequireMs: r(t1 - t0), requireMs: r(t2 - t1), constructMs: r(t3 - t2), properties, modules } }) + '\\n');
`;

/** How a case's child process is started: plain node for the load case, else this file on the case. */
export function caseChildArgs(spec: CaseSpec): string[] {
	return spec.kind === 'load' ? ['-e', LOAD_SCRIPT] : caseArgs(__filename, '--case', spec);
}

async function runCase(spec: CaseSpec): Promise<unknown> {
	if (spec.kind === 'list') return await runListCase(spec);
	if (spec.kind === 'load') throw new Error('the load case runs in plain node (LOAD_SCRIPT)');
	const { measureDeliveries } = await import('./n8n-run');
	return await measureDeliveries({ ...spec.target }, spec.deliveries, spec.packageDir);
}

// Children are started on this file (caseChildArgs).
runCommand(module, () => answerCase('--case', runCase));
