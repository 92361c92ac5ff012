/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * A stateful HTTP implementation of the platform API on 127.0.0.1, written from the spec.
 * Every file in routes/ exports `simModule` (its seed data and its routes) and is picked up here.
 */
import { readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';

import type { Json, RecordedRequest, RouteContext, RouteResult } from './core';
import { errorBody, errorName, parseMultipart, readBody, Router, sendJson, SimError } from './core';
import { Faults, MALFORMED_BODY } from './faults';
import type { FaultRule } from './faults';
import { HostilePaging } from './paging';
import type { PagingRule } from './paging';
import { RateLimiter } from './rate-limit';
import type { RateLimitRule } from './rate-limit';
import { State } from './state';
import { closeAtEnd } from '../teardown';

export interface SimModule {
	/** Adds seed records to the state; runs once, in file-name order, before the server listens. */
	seed?(sim: Simulator): void;
	routes(router: Router, sim: Simulator): void;
}

export interface SimulatorOptions {
	port?: number;
	/** Seed of every random choice (data and faults). */
	seed?: number;
	/** Records per seeded collection; >= 250 lets lists span many pages. */
	size?: number;
	/** Largest `limit` accepted (the platform's maximum is not documented). */
	maxLimit?: number;
	/** Print each request to stderr (the demo CLI uses it). */
	log?: boolean;
	/** A per-key rate limit from the start (see rate-limit.ts); off when absent. */
	rateLimit?: RateLimitRule;
	/** Hostile paging rules from the start (see paging.ts). */
	paging?: PagingRule[];
}

/** Credentials of the seeded primary account, as a user would type them into n8n. */
export interface SimCredentials {
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
	businessId: string;
}

export const PRIMARY_KEY = 'spk_test_5f1d7c2a9b8e4d60a1c3';
export const PRIMARY_SECRET = 'sps_test_9e2b71c4d0a84f35b6e7d1c2a3f4';
export const OTHER_KEY = 'spk_test_other_0c4e2a';
export const OTHER_SECRET = 'sps_test_other_7d1f3b9e';

/** Every simulator started in this module registry (one test file): the secret audit reads them. */
export const startedSimulators = new Set<Simulator>();

export class Simulator {
	readonly state: State;
	readonly faults = new Faults();
	/** Hostile paging modes (paging.ts): lists that contradict themselves or have the wrong shape. */
	readonly paging = new HostilePaging();
	/** Per-key token bucket answering 429 with Retry-After (rate-limit.ts); off by default. */
	readonly rateLimit = new RateLimiter();
	/** API requests received and not yet answered, and the most seen at once since resetInFlight(). */
	inFlight = 0;
	maxInFlight = 0;
	/**
	 * Every answer's `Date` header tells the simulator's clock (`state.clock`, settable), as a
	 * platform's tells its own; false sends none (the spec does not promise one).
	 */
	sendDate = true;
	/** The Date header's text for the clock's time, when set (another form than RFC 7231's IMF-fixdate). */
	dateHeader: ((now: number) => string) | undefined = undefined;
	readonly router = new Router();
	readonly requests: RecordedRequest[] = [];
	readonly maxLimit: number;
	url = '';
	private server?: http.Server;
	private readonly sockets = new Set<Socket>();
	private seq = 0;
	/**
	 * Called with each API request before it is answered: tests change the platform's data at a
	 * chosen moment (for example delete a record while a list is being read).
	 */
	onRequest?: (request: RecordedRequest) => void;
	/**
	 * Called with each API request that a route answered and the data of that answer, before it is
	 * sent: tests change the platform's data between two answers (a record read, then deleted).
	 */
	onAnswer?: (request: RecordedRequest, data: unknown) => void;
	/** Work (such as webhook deliveries) to finish before close() and settle(). */
	private readonly pending = new Set<Promise<unknown>>();
	private unregister = (): void => undefined;

	constructor(readonly options: SimulatorOptions = {}) {
		this.state = new State({ seed: options.seed ?? 42, size: options.size ?? 60 });
		this.faults.seed(options.seed ?? 42);
		this.maxLimit = options.maxLimit ?? 1000;
		if (options.rateLimit) this.rateLimit.set(options.rateLimit);
		for (const rule of options.paging ?? []) this.paging.add(rule);
		const modules = loadModules();
		for (const mod of modules) mod.seed?.(this);
		for (const mod of modules) mod.routes(this.router, this);
	}

	/** The primary account's credentials (its first business). */
	get credentials(): SimCredentials {
		const account = this.state.accounts[0];
		return { baseUrl: this.url, apiKey: account.apiKey, apiSecret: account.apiSecret, businessId: account.businessIds[0] };
	}

	async start(): Promise<this> {
		this.server = http.createServer((req, res) => {
			void this.handle(req, res);
		});
		this.server.keepAliveTimeout = 5_000;
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve) => this.server!.listen(this.options.port ?? 0, '127.0.0.1', resolve));
		const { port } = this.server.address() as AddressInfo;
		this.url = `http://127.0.0.1:${port}`;
		startedSimulators.add(this);
		this.unregister = closeAtEnd(`simulator ${this.url}`, () => this.close());
		return this;
	}

	async close(): Promise<void> {
		this.unregister();
		await this.settle();
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
	}

	/**
	 * Cuts every open connection: requests still waiting (e.g. on a latency fault) get no answer.
	 * For a test whose client gave up on a request: n8n-core's axios (1.12) leaves a request that
	 * hit its timeout open, and a large answer arriving later would hold that socket open for good.
	 */
	/** Connections clients hold open to the simulator now. */
	get openConnections(): number {
		return this.sockets.size;
	}

	dropConnections(): void {
		for (const socket of this.sockets) socket.destroy();
	}

	/** Tracks background work so tests can wait for it (`await sim.settle()`). */
	track<T>(work: Promise<T>): Promise<T> {
		this.pending.add(work);
		void work.finally(() => this.pending.delete(work)).catch(() => undefined);
		return work;
	}

	async settle(): Promise<void> {
		while (this.pending.size) await Promise.allSettled([...this.pending]);
	}

	/** Recorded requests, optionally only those of one method and path (exact, or a RegExp). */
	requestsTo(method?: string, pathMatch?: string | RegExp): RecordedRequest[] {
		return this.requests.filter(
			(r) =>
				(!method || r.method === method.toUpperCase()) &&
				(!pathMatch || (typeof pathMatch === 'string' ? r.path === pathMatch : pathMatch.test(r.path))) &&
				!r.path.startsWith('/__sim'),
		);
	}

	/** API requests (control routes excluded). */
	get apiRequests(): RecordedRequest[] {
		return this.requestsTo();
	}

	clearRequests(): void {
		this.requests.length = 0;
	}

	addFault(rule: FaultRule): void {
		this.faults.add(rule);
	}

	/** Starts counting the most API requests in flight at once afresh. */
	resetInFlight(): void {
		this.maxInFlight = this.inFlight;
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const method = (req.method ?? 'GET').toUpperCase();
		const query: Record<string, string | string[]> = {};
		for (const [key, value] of url.searchParams) {
			const prev = query[key];
			query[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
		}
		const headers: Record<string, string> = {};
		for (const [key, value] of Object.entries(req.headers)) {
			if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
		}
		const record: RecordedRequest = {
			seq: ++this.seq,
			method,
			path: url.pathname,
			query,
			headers,
			body: undefined,
			files: [],
			status: 0,
			receivedAt: Date.now(),
		};
		this.requests.push(record);
		if (this.sendDate) res.setHeader('date', this.dateHeader?.(this.state.clock.now()) ?? new Date(this.state.clock.now()).toUTCString());
		else res.sendDate = false;
		const control = url.pathname.startsWith('/__sim');
		if (!control) {
			this.inFlight++;
			if (this.inFlight > this.maxInFlight) this.maxInFlight = this.inFlight;
			res.once('close', () => this.inFlight--);
		}
		const send = (status: number, body: unknown, extra?: Record<string, string>) => {
			record.status = status;
			record.answeredAt = Date.now();
			sendJson(res, status, body, extra);
		};
		try {
			const raw = await readBody(req);
			const contentType = headers['content-type'] ?? '';
			if (contentType.startsWith('multipart/form-data')) {
				const { fields, files } = parseMultipart(raw, contentType);
				record.body = fields;
				record.files = files;
			} else if (raw.length) {
				try {
					record.body = JSON.parse(raw.toString('utf8'));
				} catch {
					throw new SimError(400, 'Invalid param: [body]');
				}
			}
			if (this.options.log) process.stderr.write(`[sim] ${method} ${url.pathname}${url.search}\n`);
			const retryAfter = control ? undefined : this.rateLimit.take(headers['x-api-key'], url.pathname);
			if (retryAfter !== undefined) return send(429, errorBody(429, 'Too many requests'), { 'retry-after': retryAfter });
			const fired = control ? [] : this.faults.pick(method, url.pathname, record.body, () => this.state.clock.now());
			const loadOf = (f: FaultRule) => (f.aboveInFlight === undefined ? this.inFlight - 1 : Math.max(0, this.inFlight - f.aboveInFlight));
			for (const f of fired) if (f.kind === 'latency') await delay((f.latencyMs ?? 20) + (f.perInFlightMs ?? 0) * loadOf(f));
			const before = fired.find((f) => f.kind !== 'latency' && !f.afterProcessing);
			if (before && this.applyFault(before, res, record)) return;

			if (!control) this.onRequest?.(record);
			// A capping platform (paging.ts `cap`) acts on a lower `limit` than the one sent and recorded.
			let asked = control || !this.paging.active ? query : this.paging.capped(method, url.pathname, query);
			let routeBody = record.body;
			// A platform that ignores date filters (paging.ts `ignoreDateFilter`) answers without them.
			if (!control && this.paging.active) ({ query: asked, body: routeBody } = this.paging.undated(method, url.pathname, asked, routeBody));
			let result = await this.route(method, url.pathname, { req, query: asked, headers, record, body: routeBody });
			if (!control && this.paging.active) {
				result = await this.paging.apply(method, url.pathname, query, result, (page) =>
					this.route(method, url.pathname, { req, query: { ...asked, page: String(page) }, headers, record, body: routeBody }),
				);
			}
			if (!control) this.onAnswer?.(record, result.data);
			const after = fired.find((f) => f.kind !== 'latency' && f.kind !== 'trickle' && f.afterProcessing);
			if (after && this.applyFault(after, res, record)) return;
			const status = result.status ?? 200;
			const body = result.raw !== undefined ? result.raw : { statusCode: status, data: (result.data ?? {}) as Json };
			const trickle = fired.find((f) => f.kind === 'trickle');
			if (trickle) return await this.trickle(trickle, res, record, status, body);
			send(status, body, result.headers);
		} catch (error) {
			if (error instanceof SimError) return send(error.status, errorBody(error.status, error.message, error.errorName));
			process.stderr.write(`[sim] internal error on ${method} ${url.pathname}: ${(error as Error).stack}\n`);
			send(500, errorBody(500, 'Internal server error'));
		}
	}

	/** Sends the answer `chunkBytes` at a time, `intervalMs` apart (the headers go out at once). */
	private async trickle(rule: FaultRule, res: http.ServerResponse, record: RecordedRequest, status: number, body: unknown): Promise<void> {
		record.status = status;
		const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
		res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
		const size = Math.max(1, rule.chunkBytes ?? 1);
		for (let at = 0; at < bytes.length; at += size) {
			// Bounded: a client that gave up closes the socket, and the loop ends with it.
			if (res.destroyed || res.socket?.destroyed) return;
			res.write(bytes.subarray(at, at + size));
			await delay(rule.intervalMs ?? 50);
		}
		res.end();
	}

	/** Returns true when the fault has answered (or dropped) the request. */
	private applyFault(rule: FaultRule, res: http.ServerResponse, record: RecordedRequest): boolean {
		if (rule.kind === 'drop') {
			record.status = 0;
			res.socket?.destroy();
			return true;
		}
		if (rule.kind === 'malformed') {
			record.status = rule.status ?? 200;
			res.writeHead(record.status, { 'content-type': 'application/json', ...(rule.contentEncoding ? { 'content-encoding': rule.contentEncoding } : {}) });
			res.end(rule.body ?? MALFORMED_BODY);
			return true;
		}
		if (rule.kind === 'redirect') {
			record.status = rule.status ?? 302;
			res.writeHead(record.status, { location: rule.location ?? '/', 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: 'Moved' }));
			return true;
		}
		if (rule.kind === 'trickle') return false;
		if (rule.kind === 'huge') {
			record.status = 200;
			void this.track(sendHuge(res, rule.bytes ?? 128 * 1024 * 1024, rule.gzip === true));
			return true;
		}
		const status = rule.status ?? 500;
		const headers: Record<string, string> = rule.retryAfter !== undefined ? { 'retry-after': rule.retryAfter } : {};
		const message = status === 500 ? 'Internal server error' : status === 429 ? 'Too many requests' : errorName(status);
		record.status = status;
		if (rule.body !== undefined) {
			res.writeHead(status, { 'content-type': 'application/json', ...headers });
			res.end(rule.body);
			return true;
		}
		sendJson(res, status, errorBody(status, message), headers);
		return true;
	}

	private async route(
		method: string,
		pathname: string,
		io: { req: http.IncomingMessage; query: RouteContext['query']; headers: Record<string, string>; record: RecordedRequest; body?: unknown },
	): Promise<RouteResult> {
		const found = this.router.match(method, pathname);
		if (found === undefined) throw new SimError(404, `Cannot ${method} ${pathname}`);
		if (found === 'method') throw new SimError(404, `Cannot ${method} ${pathname}`);
		const { route, params } = found;
		const ctx: RouteContext = {
			req: io.req,
			method,
			path: pathname,
			params,
			query: io.query,
			headers: io.headers,
			body: 'body' in io ? io.body : io.record.body,
			files: io.record.files,
		};
		if (route.auth !== 'none') {
			const account = this.state.accountByKey(io.headers['x-api-key'], io.headers['x-api-secret']);
			if (!account) throw new SimError(401, 'Unauthorized');
			ctx.accountId = account.id;
			if (route.auth === 'keys+biz') {
				const businessId = io.headers['business-id'];
				if (!businessId) throw new SimError(400, 'Invalid param: [business-id]');
				if (!account.businessIds.includes(businessId)) throw new SimError(403, 'Forbidden resource');
				ctx.businessId = businessId;
			}
		}
		return await route.handler(ctx);
	}
}

/**
 * Streams `bytes` bytes of a JSON text that never closes (`{"statusCode":200,"data":"aaaa...`),
 * gzip-compressed when asked, honouring backpressure: the simulator never holds the answer.
 * Ends early when the client closes the connection.
 */
async function sendHuge(res: http.ServerResponse, bytes: number, gzip: boolean): Promise<void> {
	res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
	const out: NodeJS.WritableStream = gzip ? zlib.createGzip({ level: 1 }) : res;
	if (gzip) (out as zlib.Gzip).pipe(res);
	const chunk = Buffer.alloc(1024 * 1024, 'a');
	const head = Buffer.from('{"statusCode":200,"data":"');
	out.write(head);
	for (let sent = head.length; sent < bytes && !res.destroyed; sent += chunk.length) {
		if (!out.write(chunk.subarray(0, Math.min(chunk.length, bytes - sent)))) {
			await new Promise<void>((resolve) => {
				if (res.destroyed) return resolve();
				// Whichever comes first removes the other: a listener left per wait would pile up.
				const done = () => {
					out.removeListener('drain', done);
					res.removeListener('close', done);
					resolve();
				};
				out.once('drain', done);
				res.once('close', done);
			});
		}
	}
	out.end();
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

function loadModules(): SimModule[] {
	const dir = path.join(__dirname, 'routes');
	const files = readdirSync(dir)
		.filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
		.sort();
	return files.map((f) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const mod = require(path.join(dir, f)) as { simModule?: SimModule };
		if (!mod.simModule) throw new Error(`test/support/simulator/routes/${f} exports no simModule`);
		return mod.simModule;
	});
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	return await new Simulator(options).start();
}
