/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * A round-robin HTTP balancer on 127.0.0.1 in front of the webhook processes, as a queue-mode
 * deployment has one (WEBHOOK_URL points at it). It forwards each request once (no retry, so
 * counts stay honest), answers 502 when the chosen process is down, and records, per request,
 * which process answered, the status and how long the process took (the latency at the
 * webhook process, loopback included).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { closeAtEnd } from '../teardown';

export interface Forwarded {
	backend: number;
	method: string;
	path: string;
	status: number;
	/** Milliseconds from forwarding the request to the end of the process's answer. */
	ms: number;
}

export class Balancer {
	url = '';
	readonly log: Forwarded[] = [];
	private server?: http.Server;
	private next = 0;
	private readonly sockets = new Set<Socket>();

	constructor(readonly backends: Array<() => number>) {}

	async start(): Promise<this> {
		this.server = http.createServer((req, res) => this.forward(req, res));
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.unregister = closeAtEnd('queue-mode load balancer', () => this.close());
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
		const backend = this.next;
		this.next = (this.next + 1) % this.backends.length;
		const port = this.backends[backend]();
		const started = process.hrtime.bigint();
		const record = (status: number) =>
			this.log.push({
				backend,
				method: req.method ?? 'GET',
				path: req.url ?? '/',
				status,
				ms: Number(process.hrtime.bigint() - started) / 1e6,
			});
		const upstream = http.request(
			{ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent: false, timeout: 30_000 },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
				answer.on('end', () => record(answer.statusCode ?? 0));
			},
		);
		upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
		upstream.on('error', () => {
			record(502);
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
			res.end('{"message":"webhook process unavailable"}');
		});
		req.pipe(upstream);
	}

	private unregister = (): void => undefined;

	async close(): Promise<void> {
		this.unregister();
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
	}
}
