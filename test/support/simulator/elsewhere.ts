/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Another origin on 127.0.0.1 that a hostile platform redirects to: it records every request
 * that reaches it (headers and body) and answers each with a success envelope, so that a client
 * that followed the redirect would believe it. Tests assert that nothing reaches it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { closeAtEnd } from '../teardown';

export interface ElsewhereRequest {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export interface Elsewhere {
	url: string;
	origin: string;
	requests: ElsewhereRequest[];
	close(): Promise<void>;
}

export async function startElsewhere(): Promise<Elsewhere> {
	const requests: ElsewhereRequest[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ statusCode: 200, data: { id: 'from-elsewhere', orderId: 'from-elsewhere', ok: true } }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const close = async () => {
		unregister();
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	};
	const unregister = closeAtEnd(`server elsewhere ${url}`, close);
	return {
		url,
		origin: url,
		requests,
		close,
	};
}
