/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The bench's platform for the list cases: a `node:http` server (keep-alive, 127.0.0.1 only) that
 * answers `POST /movement/filter?page=N&limit=M` with page bodies rendered once by the simulator,
 * so that what a row measures is the client's cost, not the simulator's (its routing, filtering,
 * envelope and JSON.stringify of every page, about 4 ms a page of 1,000 movements). Per request
 * it only checks the API key, drains the request body, optionally waits (`latencyMs`) and writes
 * a ready Buffer. A page not rendered yet (another size, e.g. a warm-up's) is asked of the
 * simulator once and kept.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { LIST_PATH } from './settings';

export interface PageServer {
	url: string;
	/** The HTTP server itself: network.ts hands it the TLS connections it accepts. */
	server: http.Server;
	/** Added before every answer (ms); 0 answers at once. */
	latencyMs: number;
	/** Statuses of the list requests answered since the last clear(). */
	readonly statuses: number[];
	clear(): void;
	/** Renders every page of `pageSize` for `total` records now, before anything is measured. */
	render(pageSize: number, total: number): Promise<void>;
	close(): Promise<void>;
}

/** The simulator's answer to one page, with the node's own headers and body. */
async function fetchPage(source: string, headers: Record<string, string>, body: string, page: number, limit: number): Promise<Buffer> {
	const response = await fetch(`${source}${LIST_PATH}?page=${page}&limit=${limit}`, { method: 'POST', headers, body });
	if (response.status !== 200) throw new Error(`the simulator answered ${response.status} to page ${page} of ${limit}`);
	return Buffer.from(await response.arrayBuffer());
}

export async function startPageServer(source: string, headers: Record<string, string>, body: string, apiKey: string): Promise<PageServer> {
	const pages = new Map<string, Promise<Buffer>>();
	const page = (pageNo: number, limit: number): Promise<Buffer> => {
		const key = `${pageNo}/${limit}`;
		let rendered = pages.get(key);
		if (!rendered) pages.set(key, (rendered = fetchPage(source, headers, body, pageNo, limit)));
		return rendered;
	};
	const sockets = new Set<Socket>();
	const statuses: number[] = [];
	const send = (res: http.ServerResponse, status: number, text: Buffer) => {
		statuses.push(status);
		res.writeHead(status, {
			'content-type': 'application/json',
			'content-length': text.length,
		});
		res.end(text);
	};
	const server = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			const url = req.url ?? '';
			const q = url.indexOf('?');
			if (req.method !== 'POST' || (q < 0 ? url : url.slice(0, q)) !== LIST_PATH) return send(res, 404, Buffer.from('{"statusCode":404}'));
			if (req.headers['x-api-key'] !== apiKey) return send(res, 401, Buffer.from('{"statusCode":401,"message":"Unauthorized"}'));
			const query = new URLSearchParams(url.slice(q + 1));
			const answer = () =>
				page(Number(query.get('page') ?? 1), Number(query.get('limit') ?? 10)).then(
					(text) => send(res, 200, text),
					() => send(res, 500, Buffer.from('{"statusCode":500}')),
				);
			if (result.latencyMs > 0) setTimeout(answer, result.latencyMs);
			else void answer();
		});
	});
	server.keepAliveTimeout = 5_000;
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const result: PageServer = {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		server,
		latencyMs: 0,
		statuses,
		clear: () => {
			statuses.length = 0;
		},
		render: async (pageSize, total) => {
			for (let n = 1; n <= Math.ceil(total / pageSize) + 1; n++) await page(n, pageSize);
		},
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
	return result;
}
