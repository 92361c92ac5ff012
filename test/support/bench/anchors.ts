/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The bench's reference nodes: two trivial n8n nodes that read the same list as Movement > Get
 * Many, executed by n8n-core exactly like the package's node, so that their distance to it is
 * the cost of the package's own work (checks, caps, guards, concurrency) and not of n8n.
 * - `keepAlive`: the floor's `node:http` keep-alive loop inside a node (one page at a time).
 * - `helperLoop`: the usual pattern of verified nodes: a sequential loop of
 *   `this.helpers.httpRequestWithAuthentication` (n8n's axios client, the credential's
 *   authentication evaluated for every request).
 * Both output one item per record and stop where the list's `count` says it ends.
 */
import http from 'node:http';

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
		],
	} as INodeTypeDescription;
}

async function settings(ctx: IExecuteFunctions) {
	const credentials = await ctx.getCredentials('salesPaymentsApi');
	const pages = ctx.getNodeParameter('pages', 0) as number;
	return { credentials, pageSize: ctx.getNodeParameter('pageSize', 0) as number, pages, base: String(credentials.baseUrl) };
}

class KeepAliveAnchor implements INodeType {
	description = description('keepAlive');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { credentials, pageSize, pages, base } = await settings(this);
		const url = new URL(base);
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		const body = '{}';
		const headers = {
			accept: 'application/json',
			'content-type': 'application/json',
			'content-length': String(Buffer.byteLength(body)),
			'x-api-key': String(credentials.apiKey),
			'x-api-secret': String(credentials.apiSecret),
			'business-id': String(credentials.businessId),
		};
		const out: INodeExecutionData[] = [];
		try {
			for (let page = 1; page <= pages; page++) {
				const text = await new Promise<string>((resolve, reject) => {
					const req = http.request(
						{ host: url.hostname, port: url.port, agent, method: 'POST', path: `${LIST_PATH}?page=${page}&limit=${pageSize}`, headers },
						(res) => {
							const chunks: Buffer[] = [];
							res.on('data', (chunk: Buffer) => chunks.push(chunk));
							res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`HTTP ${res.statusCode}`))));
							res.on('error', reject);
						},
					);
					req.on('error', reject);
					req.end(body);
				});
				const data = (JSON.parse(text) as { data: { movements: IDataObject[]; count: number } }).data;
				for (const record of data.movements) out.push({ json: record, pairedItem: { item: 0 } });
				if (data.movements.length === 0 || out.length >= Number(data.count)) break;
			}
		} finally {
			agent.destroy();
		}
		return [out];
	}
}

class HelperLoopAnchor implements INodeType {
	description = description('helperLoop');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { credentials, pageSize, pages, base } = await settings(this);
		const out: INodeExecutionData[] = [];
		for (let page = 1; page <= pages; page++) {
			const answer = (await this.helpers.httpRequestWithAuthentication.call(this, 'salesPaymentsApi', {
				method: 'POST',
				url: `${base}${LIST_PATH}`,
				qs: { page: String(page), limit: String(pageSize) },
				headers: { 'business-id': String(credentials.businessId) },
				body: {},
				json: true,
			})) as { data: { movements: IDataObject[]; count: number } };
			const data = answer.data;
			for (const record of data.movements) out.push({ json: record, pairedItem: { item: 0 } });
			if (data.movements.length === 0 || out.length >= Number(data.count)) break;
		}
		return [out];
	}
}

export const anchorNodes: Record<string, INodeType> = {
	[ANCHOR_TYPES.keepAlive]: new KeepAliveAnchor(),
	[ANCHOR_TYPES.helperLoop]: new HelperLoopAnchor(),
};
