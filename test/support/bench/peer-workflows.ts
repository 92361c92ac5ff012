/**
 * The workflows of the peer rows (peer.ts) and of their e2e test (test/e2e/peer.test.ts): what a
 * user of n8n 2.8.4 builds to read every movement without this package, beside the package's own
 * Get Many. Each starts with a Webhook node (Respond: Immediately), so that a running n8n executes
 * it as production executions run (mode `webhook`), without the editor.
 *
 * - **HTTP Request** (v4.4, the newest of n8n 2.8.4): `POST /movement/filter` with body `{}` and
 *   query `limit`, authenticated by a *Custom Auth* credential (Generic Credential Type): the one
 *   generic credential of HTTP Request that sends several headers (x-api-key, x-api-secret,
 *   business-id); *Header Auth* sends one. Pagination: *Update a Parameter in Each Request*, query
 *   `page` = `{{ $pageCount + 1 }}`, *Complete When: Other* with `{{ $response.body.data.movements.length < LIMIT }}`
 *   (the default *Response Is Empty* never ends here: the body is an object, never empty, and
 *   n8n stops only when it has seen the same answer 3 more times, with an error), *Limit Pages
 *   Fetched* at 1,000. Then **Split Out** of `data.movements` (one item per movement), then
 *   nothing, or **Convert to File** (v1.1) to CSV or XLSX.
 * - **Sales & Payments** Movement › Get Many, Return All, Output items, CSV File or Excel File.
 */
import type { SimCredentials } from '../simulator/server';

export type PeerClient = 'httpRequest' | 'package';
export type PeerOutput = 'items' | 'csv' | 'xlsx';

export interface PeerContender {
	id: string;
	client: PeerClient;
	output: PeerOutput;
	label: string;
	/** HTTP Request's *Pagination Complete When*: the expression of this API (default) or n8n's default, which never ends here. */
	completeWhen?: 'other' | 'responseIsEmpty';
}

export const PEER_CONTENDERS: PeerContender[] = [
	{ id: 'http-items', client: 'httpRequest', output: 'items', label: 'HTTP Request + Split Out' },
	{ id: 'package-items', client: 'package', output: 'items', label: 'Sales & Payments Get Many, items' },
	{ id: 'http-csv', client: 'httpRequest', output: 'csv', label: 'HTTP Request + Split Out + Convert to File (CSV)' },
	{ id: 'package-csv', client: 'package', output: 'csv', label: 'Sales & Payments Get Many, CSV File' },
	{ id: 'http-xlsx', client: 'httpRequest', output: 'xlsx', label: 'HTTP Request + Split Out + Convert to File (XLSX)' },
	{ id: 'package-xlsx', client: 'package', output: 'xlsx', label: 'Sales & Payments Get Many, Excel File' },
];

/** HTTP Request's Max Pages (its *Limit Pages Fetched*): 1,000,000 movements at 1,000 a page. */
export const PEER_MAX_PAGES = 1000;
/** The package's default page size and the platform's largest: both sides read 1,000 a page. */
export const PEER_PAGE_SIZE = 1000;

export const PEER_CREDENTIALS = { package: 'peerPackage', customAuth: 'peerCustomAuth' } as const;

/** The two saved credentials: the package's, and the Custom Auth one HTTP Request uses. */
export function peerCredentials(sim: SimCredentials) {
	return [
		{ id: PEER_CREDENTIALS.package, name: 'Sales & Payments (peer)', type: 'salesPaymentsApi', data: { ...sim } },
		{
			id: PEER_CREDENTIALS.customAuth,
			name: 'Platform headers (Custom Auth)',
			type: 'httpCustomAuth',
			data: { json: JSON.stringify({ headers: { 'x-api-key': sim.apiKey, 'x-api-secret': sim.apiSecret, 'business-id': sim.businessId } }) },
		},
	];
}

/** The node whose output is the contender's result. */
export function resultNode(c: PeerContender): string {
	if (c.client === 'package') return 'Sales & Payments';
	return c.output === 'items' ? 'Split Out' : 'Convert to File';
}

export function webhookPath(c: PeerContender): string {
	return `peer-${c.id}`;
}

export function workflowId(c: PeerContender): string {
	return `wfPeer${c.id.replace(/(^|-)(\w)/g, (_, __, ch: string) => ch.toUpperCase())}`;
}

const FILE_NAMES: Record<Exclude<PeerOutput, 'items'>, string> = { csv: 'movements.csv', xlsx: 'movements.xlsx' };

export interface PeerWorkflowOptions {
	/** The platform's base URL (the simulator's). */
	baseUrl: string;
	pageSize?: number;
	/** n8n stops the execution after this many seconds (workflow setting *Timeout Workflow*). */
	timeoutSeconds?: number;
}

function node(name: string, type: string, typeVersion: number, x: number, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) {
	return { id: `${name.toLowerCase().replace(/\W+/g, '-')}`, name, type, typeVersion, position: [x, 0], parameters, ...extra };
}

/** HTTP Request v4.4 with its Pagination option, as a user sets it for this API. */
export function httpRequestNode(o: PeerWorkflowOptions, completeWhen: PeerContender['completeWhen'] = 'other', x = 200) {
	const limit = o.pageSize ?? PEER_PAGE_SIZE;
	return node(
		'HTTP Request',
		'n8n-nodes-base.httpRequest',
		4.4,
		x,
		{
			method: 'POST',
			url: `${o.baseUrl}/movement/filter`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpCustomAuth',
			sendQuery: true,
			specifyQuery: 'keypair',
			queryParameters: { parameters: [{ name: 'limit', value: String(limit) }] },
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: '{}',
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] },
						paginationCompleteWhen: completeWhen,
						...(completeWhen === 'other' ? { completeExpression: `={{ $response.body.data.movements.length < ${limit} }}` } : {}),
						limitPagesFetched: true,
						maxRequests: PEER_MAX_PAGES,
					},
				},
			},
		},
		{ credentials: { httpCustomAuth: { id: PEER_CREDENTIALS.customAuth, name: 'Platform headers (Custom Auth)' } } },
	);
}

/** One contender's workflow: Webhook (respond immediately) -> the contender's nodes. */
export function peerWorkflow(c: PeerContender, o: PeerWorkflowOptions) {
	const trigger = node('Webhook', 'n8n-nodes-base.webhook', 2.1, 0, { httpMethod: 'POST', path: webhookPath(c), responseMode: 'onReceived', options: {} }, { webhookId: `peer-${c.id}-hook` });
	const chain: Array<ReturnType<typeof node>> = [trigger];
	if (c.client === 'package') {
		const output = { items: 'items', csv: 'csvFile', xlsx: 'xlsxFile' }[c.output];
		chain.push(
			node(
				'Sales & Payments',
				'n8n-nodes-sales-payments.salesPayments',
				1,
				200,
				{
					resource: 'movement',
					operation: 'getMany',
					output,
					returnAll: true,
					...(c.output === 'items' ? {} : { fileOptions: { fileName: FILE_NAMES[c.output] } }),
					...(o.pageSize && o.pageSize !== PEER_PAGE_SIZE ? { pagination: { pageSize: o.pageSize } } : {}),
				},
				{ credentials: { salesPaymentsApi: { id: PEER_CREDENTIALS.package, name: 'Sales & Payments (peer)' } } },
			),
		);
	} else {
		chain.push(httpRequestNode(o, c.completeWhen));
		chain.push(node('Split Out', 'n8n-nodes-base.splitOut', 1, 400, { fieldToSplitOut: 'data.movements', include: 'noOtherFields', options: {} }));
		if (c.output !== 'items') {
			chain.push(
				node('Convert to File', 'n8n-nodes-base.convertToFile', 1.1, 600, {
					operation: c.output,
					binaryPropertyName: 'data',
					options: { fileName: FILE_NAMES[c.output] },
				}),
			);
		}
	}
	const connections: Record<string, unknown> = {};
	for (let n = 0; n + 1 < chain.length; n++) connections[chain[n].name] = { main: [[{ node: chain[n + 1].name, type: 'main', index: 0 }]] };
	return {
		id: workflowId(c),
		name: `peer ${c.label}`,
		active: false,
		nodes: chain,
		connections,
		settings: { executionOrder: 'v1', ...(o.timeoutSeconds ? { executionTimeout: o.timeoutSeconds } : {}) },
	};
}
