/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The bench's platform for the list cases: a `node:http` server (keep-alive, 127.0.0.1 only) that
 * answers `POST /movement/filter?page=N&limit=M` with page bodies rendered once by the simulator,
 * so that what a row measures is the client's cost, not the simulator's (its routing, filtering,
 * envelope and JSON.stringify of every page, about 4 ms a page of 1,000 movements). Per request
 * it only checks the API key, drains the request body, optionally waits (`latencyMs`) and writes
 * a ready Buffer. A page not rendered yet (another size, e.g. a warm-up's) is asked of the
 * simulator once and kept.
 *
 * The per-item scenario (issue 45) reads `GET /orders/<id>` (one order rendered once, its id set
 * per request) and writes `POST /customers` (the customer answered with an id made of its email).
 * The network scenario's platforms (`mode`): a token bucket per key (429, with `Retry-After` in
 * whole seconds to the next token, a fixed value, or none), an overloaded platform (each request
 * slower by `perInFlightMs` per request in flight above `above`), and seeded faults (a connection
 * reset halfway through the body, or a 502).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { rng } from '../simulator/state';
import { LIST_PATH } from './settings';

/** How the platform behaves besides its latency (the network scenario's platforms). */
export type PlatformMode =
	| { kind: 'plain' }
	/** A token bucket per API key, full at the start of each run: `retryAfter` fixed ("2"), null for none, undefined for the seconds to the next token. */
	| { kind: 'bucket'; ratePerSecond: number; burst: number; retryAfter?: string | null }
	/** Each request `perInFlightMs` slower per request in flight above `above` when it arrives (itself included). */
	| { kind: 'overload'; perInFlightMs: number; above: number }
	/** With `probability`, half the body then a connection reset, or a 502 (alternately). */
	| { kind: 'faults'; probability: number; seed: number };

/** One answered request: when it arrived (ms, the server's clock) and its status (0: reset). */
export interface Answered {
	at: number;
	status: number;
}

export interface PageServer {
	url: string;
	/** The HTTP server itself: network.ts hands it the TLS connections it accepts. */
	server: http.Server;
	/** Added before every answer (ms); 0 answers at once. */
	latencyMs: number;
	mode: PlatformMode;
	/** Statuses of the list and item requests answered since the last clear(). */
	readonly statuses: number[];
	/** The same with their arrival times. */
	readonly answered: Answered[];
	/** Starts a run afresh: the bucket full, the fault sequence from its seed. */
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

/** The order every `GET /orders/<id>` answers, its id replaced. */
const ORDER = {
	status: 'paid',
	date: '2026-11-20T12:00:00.000Z',
	paidAt: '2026-11-20T12:00:05.000Z',
	orderBuyer: { name: 'Carla Dias', email: 'carla@mail.example' },
	items: [{ name: 'Course', quantity: 1, priceInCents: 4990 }],
	payments: [{ method: 'pix', numberInstallments: 1, valueInCents: 4990 }],
};

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
	const answered: Answered[] = [];
	let bucket = { tokens: 0, at: 0 };
	let random = rng(1);
	let faultNo = 0;
	let inFlight = 0;
	const send = (res: http.ServerResponse, status: number, text: Buffer, at: number, extra: Record<string, string> = {}) => {
		statuses.push(status);
		answered.push({ at, status });
		res.writeHead(status, { 'content-type': 'application/json', 'content-length': text.length, ...extra });
		res.end(text);
	};
	/** Undefined when the request may go on, else its 429's Retry-After (null: none). */
	const refusal = (now: number): string | null | undefined => {
		const mode = result.mode;
		if (mode.kind !== 'bucket') return undefined;
		bucket.tokens = Math.min(mode.burst, bucket.tokens + ((now - bucket.at) / 1000) * mode.ratePerSecond);
		bucket.at = now;
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			return undefined;
		}
		if (mode.retryAfter !== undefined) return mode.retryAfter;
		return String(Math.max(1, Math.ceil((1 - bucket.tokens) / mode.ratePerSecond)));
	};
	const answer = async (req: http.IncomingMessage, res: http.ServerResponse, raw: string, at: number, first: boolean): Promise<void> => {
		const url = req.url ?? '';
		const q = url.indexOf('?');
		const path = q < 0 ? url : url.slice(0, q);
		if (req.headers['x-api-key'] !== apiKey) return send(res, 401, Buffer.from('{"statusCode":401,"message":"Unauthorized"}'), at);
		if (req.method === 'GET' && path.startsWith('/orders/')) {
			const id = decodeURIComponent(path.slice('/orders/'.length));
			return send(res, 200, Buffer.from(JSON.stringify({ statusCode: 200, data: { id, ...ORDER } })), at);
		}
		if (req.method === 'POST' && path === '/customers') {
			const { name, email } = JSON.parse(raw || '{}') as { name?: string; email?: string };
			const customer = { id: `cus_${String(email).replace(/[^a-z0-9]/gi, '_')}`, name, email, createdAt: '2026-11-20T12:00:00.000Z' };
			return send(res, 201, Buffer.from(JSON.stringify({ statusCode: 201, data: { customer } })), at);
		}
		if (req.method !== 'POST' || path !== LIST_PATH) return send(res, 404, Buffer.from('{"statusCode":404}'), at);
		const query = new URLSearchParams(url.slice(q + 1));
		const text = await page(Number(query.get('page') ?? 1), Number(query.get('limit') ?? 10)).catch(() => undefined);
		if (!text) return send(res, 500, Buffer.from('{"statusCode":500}'), at);
		const mode = result.mode;
		if (mode.kind === 'faults' && !first && random() < mode.probability) {
			if (faultNo++ % 2 === 1) return send(res, 502, Buffer.from('{"statusCode":502,"message":"Bad gateway"}'), at);
			// Half the body, then the connection is reset: the client cannot tell how much the platform did.
			statuses.push(0);
			answered.push({ at, status: 0 });
			res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
			res.write(text.subarray(0, text.length >> 1), () => res.socket?.destroy());
			return;
		}
		send(res, 200, text, at);
	};
	// The warm-up's request (the first after clear()) takes no token and meets no fault.
	let warmUp = true;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const at = Date.now();
			inFlight++;
			res.once('close', () => inFlight--);
			const first = warmUp;
			warmUp = false;
			const retryAfter = first ? undefined : refusal(at);
			if (retryAfter !== undefined) {
				return send(res, 429, Buffer.from('{"statusCode":429,"message":"Too many requests"}'), at, retryAfter === null ? {} : { 'retry-after': retryAfter });
			}
			const mode = result.mode;
			const delay = result.latencyMs + (mode.kind === 'overload' ? mode.perInFlightMs * Math.max(0, inFlight - mode.above) : 0);
			const go = () => void answer(req, res, Buffer.concat(chunks).toString('utf8'), at, first);
			if (delay > 0) setTimeout(go, delay);
			else go();
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
		mode: { kind: 'plain' },
		statuses,
		answered,
		clear: () => {
			statuses.length = 0;
			answered.length = 0;
			const mode = result.mode;
			bucket = { tokens: mode.kind === 'bucket' ? mode.burst : 0, at: Date.now() };
			random = rng(mode.kind === 'faults' ? mode.seed : 1);
			faultNo = 0;
			warmUp = true;
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
