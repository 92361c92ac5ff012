/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The bench's reference nodes: two trivial n8n nodes that read the same list as Movement > Get
 * Many, executed by n8n-core exactly like the package's node, so that their distance to it is
 * the cost of the package's own work (checks, caps, guards, concurrency) and not of n8n.
 * - `keepAlive`: the floor's `node:http` keep-alive loop inside a node (one page at a time), or
 *   `https` when the Base URL is (the network scenario, network.ts).
 * - `helperLoop`: the usual pattern of verified nodes: a sequential loop of
 *   `this.helpers.httpRequestWithAuthentication` (n8n's axios client, the credential's
 *   authentication evaluated for every request).
 * Both output one item per record and stop where the list's `count` says it ends. With
 * Concurrency N above 1 (the network scenario), the first page tells the count and the other
 * pages are read N at a time (a pool of N; `keepAlive`: over N kept-alive connections).
 * Per item (`perItem` read or write, issue 45): one request per input item instead of the list,
 * `GET /orders/<id>` or `POST /customers`, N at a time; one output item per input item, in order.
 */
import http from 'node:http';
import https from 'node:https';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

export const ANCHOR_TYPES = { keepAlive: 'bench.keepAlive', helperLoop: 'bench.helperLoop' } as const;
export type Anchor = keyof typeof ANCHOR_TYPES;

const LIST_PATH = '/movement/filter';
const MAX_PAGES = 10_000;

function description(name: string): INodeTypeDescription {
	return {
		displayName: name,
		name,
		group: ['transform'],
		version: 1,
		description: 'Bench anchor',
		defaults: { name },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'salesPaymentsApi', required: true }],
		properties: [
			{ displayName: 'Page Size', name: 'pageSize', type: 'number', default: 1000 },
			{ displayName: 'Pages', name: 'pages', type: 'number', default: MAX_PAGES },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
			{ displayName: 'Per Item', name: 'perItem', type: 'string', default: '' },
		],
	} as INodeTypeDescription;
}

async function settings(ctx: IExecuteFunctions) {
	const credentials = await ctx.getCredentials('salesPaymentsApi');
	const pages = ctx.getNodeParameter('pages', 0) as number;
	const concurrency = ctx.getNodeParameter('concurrency', 0, 1) as number;
	return { credentials, pageSize: ctx.getNodeParameter('pageSize', 0) as number, pages, concurrency, base: String(credentials.baseUrl) };
}

type ListPage = { movements: IDataObject[]; count: number };

/** One request per input item, `concurrency` at a time (a pool), outputs in input order. */
async function perItem(ctx: IExecuteFunctions, concurrency: number, send: (json: IDataObject) => Promise<IDataObject>): Promise<INodeExecutionData[]> {
	const input = ctx.getInputData();
	const out: IDataObject[] = new Array<IDataObject>(input.length);
	let next = 0;
	const worker = async () => {
		while (next < input.length) {
			const i = next++;
			out[i] = await send(input[i].json);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
	return out.map((json, i) => ({ json, pairedItem: { item: i } }));
}

/** The per-item request of an input item: the path, method and body (read: an order; write: a customer). */
function perItemRequest(op: string, json: IDataObject): { method: 'GET' | 'POST'; path: string; body?: IDataObject } {
	if (op === 'read') return { method: 'GET', path: `/orders/${encodeURIComponent(String(json.id))}` };
	return { method: 'POST', path: '/customers', body: { name: json.name, email: json.email } };
}

/** What the platform answered for the item: the order, or the created customer. */
const perItemOutput = (op: string, data: IDataObject): IDataObject => (op === 'read' ? data : (data.customer as IDataObject));

/**
 * Every page up to `pages` in order: one after another while `concurrency` is 1 (stops on an
 * empty page or at `count`), else the first page, then the rest `concurrency` at a time.
 */
async function readPages(pages: number, pageSize: number, concurrency: number, fetchPage: (page: number) => Promise<ListPage>): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	if (concurrency <= 1) {
		for (let page = 1; page <= pages; page++) {
			const data = await fetchPage(page);
			for (const record of data.movements) out.push({ json: record, pairedItem: { item: 0 } });
			if (data.movements.length === 0 || out.length >= Number(data.count)) break;
		}
		return out;
	}
	const first = await fetchPage(1);
	const last = Math.min(pages, Math.ceil(Number(first.count) / pageSize));
	const rest: IDataObject[][] = [];
	let next = 2;
	const worker = async () => {
		while (next <= last) {
			const page = next++;
			rest[page - 2] = (await fetchPage(page)).movements;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	for (const records of [first.movements, ...rest]) for (const record of records) out.push({ json: record, pairedItem: { item: 0 } });
	return out;
}

class KeepAliveAnchor implements INodeType {
	description = description('keepAlive');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { credentials, pageSize, pages, concurrency, base } = await settings(this);
		const url = new URL(base);
		const client = url.protocol === 'https:' ? https : http;
		const agent = new client.Agent({ keepAlive: true, maxSockets: Math.max(1, concurrency) });
		const body = '{}';
		const headers = {
			accept: 'application/json',
			'content-type': 'application/json',
			'content-length': String(Buffer.byteLength(body)),
			'x-api-key': String(credentials.apiKey),
			'x-api-secret': String(credentials.apiSecret),
			'business-id': String(credentials.businessId),
		};
		const send = (method: string, path: string, text: string) =>
			new Promise<string>((resolve, reject) => {
				const req = client.request(
					{ host: url.hostname, port: url.port, agent, method, path, headers: { ...headers, 'content-length': String(Buffer.byteLength(text)) } },
					(res) => {
						const chunks: Buffer[] = [];
						res.on('data', (chunk: Buffer) => chunks.push(chunk));
						res.on('end', () =>
							res.statusCode === 200 || res.statusCode === 201 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`HTTP ${res.statusCode}`)),
						);
						res.on('error', reject);
					},
				);
				req.on('error', reject);
				req.end(text);
			});
		const fetchPage = async (page: number) => (JSON.parse(await send('POST', `${LIST_PATH}?page=${page}&limit=${pageSize}`, body)) as { data: ListPage }).data;
		const op = this.getNodeParameter('perItem', 0, '') as string;
		try {
			if (op) {
				return [
					await perItem(this, concurrency, async (json) => {
						const { method, path, body: item } = perItemRequest(op, json);
						return perItemOutput(op, (JSON.parse(await send(method, path, item ? JSON.stringify(item) : '')) as { data: IDataObject }).data);
					}),
				];
			}
			return [await readPages(pages, pageSize, concurrency, fetchPage)];
		} finally {
			agent.destroy();
		}
	}
}

class HelperLoopAnchor implements INodeType {
	description = description('helperLoop');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { credentials, pageSize, pages, concurrency, base } = await settings(this);
		const fetchPage = async (page: number) =>
			(
				(await this.helpers.httpRequestWithAuthentication.call(this, 'salesPaymentsApi', {
					method: 'POST',
					url: `${base}${LIST_PATH}`,
					qs: { page: String(page), limit: String(pageSize) },
					headers: { 'business-id': String(credentials.businessId) },
					body: {},
					json: true,
				})) as { data: ListPage }
			).data;
		const op = this.getNodeParameter('perItem', 0, '') as string;
		if (op) {
			return [
				await perItem(this, concurrency, async (json) => {
					const { method, path, body } = perItemRequest(op, json);
					const answer = (await this.helpers.httpRequestWithAuthentication.call(this, 'salesPaymentsApi', {
						method,
						url: `${base}${path}`,
						headers: { 'business-id': String(credentials.businessId) },
						...(body ? { body } : {}),
						json: true,
					})) as { data: IDataObject };
					return perItemOutput(op, answer.data);
				}),
			];
		}
		return [await readPages(pages, pageSize, concurrency, fetchPage)];
	}
}

export const anchorNodes: Record<string, INodeType> = {
	[ANCHOR_TYPES.keepAlive]: new KeepAliveAnchor(),
	[ANCHOR_TYPES.helperLoop]: new HelperLoopAnchor(),
};
