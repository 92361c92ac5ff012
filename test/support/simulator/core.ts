/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The simulator's HTTP core: routing, authentication (spec part 5), the success envelope and
 * error bodies (parts 1 and 7), pagination, request recording and fault injection.
 * Resource behaviour lives in routes/*.ts; state in state.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** KEYS: x-api-key + x-api-secret. KEYS+BIZ: plus business-id. */
export type AuthMode = 'none' | 'keys' | 'keys+biz';

export interface UploadedFile {
	field: string;
	filename: string;
	contentType: string;
	data: Buffer;
}

export interface RecordedRequest {
	seq: number;
	method: string;
	/** Path without the query string. */
	path: string;
	/** Query parameters exactly as sent (keys like `createdAt[startsAt]` are literal). */
	query: Record<string, string | string[]>;
	headers: Record<string, string>;
	/** Parsed JSON body, the multipart fields, or undefined. */
	body: unknown;
	files: UploadedFile[];
	/** Status the simulator answered with (0 when the connection was dropped). */
	status: number;
	/** When the request arrived and when its answer was sent (ms since the epoch). */
	receivedAt?: number;
	answeredAt?: number;
}

export class SimError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly errorName?: string,
	) {
		super(message);
	}
}

const ERROR_NAMES: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	409: 'Conflict',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

export const errorName = (status: number) => ERROR_NAMES[status] ?? 'Error';

/** `Invalid param: [a, b]`, the platform's 400. */
export function invalidParams(...names: string[]): SimError {
	return new SimError(400, `Invalid param: [${names.join(', ')}]`);
}

export interface RouteContext {
	req: IncomingMessage;
	method: string;
	path: string;
	params: Record<string, string>;
	query: Record<string, string | string[]>;
	headers: Record<string, string>;
	body: unknown;
	files: UploadedFile[];
	/** The API key's account (KEYS and KEYS+BIZ routes). */
	accountId?: string;
	/** The business of the business-id header (KEYS+BIZ routes). */
	businessId?: string;
}

/** What a handler returns: `data` goes into the envelope with `status` (default 200). */
export interface RouteResult {
	status?: number;
	data?: Json | object;
	/** Send this body as is instead of the envelope (identity extras, control routes). */
	raw?: unknown;
	headers?: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

interface Route {
	method: string;
	parts: string[];
	auth: AuthMode;
	handler: Handler;
}

export class Router {
	private readonly routes: Route[] = [];

	add(method: string, pattern: string, auth: AuthMode, handler: Handler): this {
		this.routes.push({ method: method.toUpperCase(), parts: pattern.split('/').filter(Boolean), auth, handler });
		return this;
	}

	/** Finds the route; literal segments win over parameters (`/customers/list` over `/customers/:id`). */
	match(method: string, path: string): { route: Route; params: Record<string, string> } | 'method' | undefined {
		const parts = path.split('/').filter(Boolean);
		let best: { route: Route; params: Record<string, string>; score: number } | undefined;
		let pathMatched = false;
		for (const route of this.routes) {
			if (route.parts.length !== parts.length) continue;
			const params: Record<string, string> = {};
			let score = 0;
			let ok = true;
			for (let i = 0; i < parts.length; i++) {
				const seg = route.parts[i];
				if (seg.startsWith(':')) params[seg.slice(1)] = decodeURIComponent(parts[i]);
				else if (seg === parts[i]) score++;
				else {
					ok = false;
					break;
				}
			}
			if (!ok) continue;
			pathMatched = true;
			if (route.method !== method) continue;
			if (!best || score > best.score) best = { route, params, score };
		}
		if (best) return { route: best.route, params: best.params };
		return pathMatched ? 'method' : undefined;
	}
}

/** The pagination query of spec part 1: `page` and `limit` required, positive whole numbers. */
export function readPaging(query: Record<string, string | string[]>, maxLimit: number): { page: number; limit: number } {
	const bad: string[] = [];
	const read = (name: string) => {
		const raw = query[name];
		const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
		if (!Number.isInteger(n) || n < 1) bad.push(name);
		return n;
	};
	const page = read('page');
	const limit = read('limit');
	if (!bad.includes('limit') && limit > maxLimit) bad.push('limit');
	if (bad.length) throw invalidParams(...bad);
	return { page, limit };
}

export interface PageOf<T> {
	docs: T[];
	limit: number;
	currentPage: number;
	nextPage: number | null;
	totalPages: number;
	totalDocs: number;
	hasNext: boolean;
}

/** Slices `all` into the page the query asks for, with the pagination fields of spec part 1. */
export function pageOf<T>(all: T[], query: Record<string, string | string[]>, maxLimit: number): PageOf<T> {
	const { page, limit } = readPaging(query, maxLimit);
	const totalDocs = all.length;
	const totalPages = Math.max(1, Math.ceil(totalDocs / limit));
	const docs = all.slice((page - 1) * limit, page * limit);
	const hasNext = page < totalPages;
	return { docs, limit, currentPage: page, nextPage: hasNext ? page + 1 : null, totalPages, totalDocs, hasNext };
}

export function str(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
	return undefined;
}

/** Reads a simple multipart/form-data body (enough for the image upload). */
export function parseMultipart(body: Buffer, contentType: string): { fields: Record<string, string>; files: UploadedFile[] } {
	const boundaryMatch = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
	const fields: Record<string, string> = {};
	const files: UploadedFile[] = [];
	if (!boundaryMatch) return { fields, files };
	const boundary = Buffer.from(`--${boundaryMatch[1] ?? boundaryMatch[2]}`);
	let pos = body.indexOf(boundary);
	while (pos !== -1) {
		const start = pos + boundary.length;
		if (body.slice(start, start + 2).toString() === '--') break;
		const next = body.indexOf(boundary, start);
		if (next === -1) break;
		const part = body.slice(start + 2, next - 2); // skip CRLF after boundary and before the next
		const headerEnd = part.indexOf('\r\n\r\n');
		const headerText = part.slice(0, headerEnd).toString('utf8');
		const data = part.slice(headerEnd + 4);
		const name = /name="([^"]*)"/i.exec(headerText)?.[1] ?? '';
		const filename = /filename="([^"]*)"/i.exec(headerText)?.[1];
		const type = /content-type:\s*([^\r\n]+)/i.exec(headerText)?.[1]?.trim() ?? 'application/octet-stream';
		if (filename !== undefined) files.push({ field: name, filename, contentType: type, data });
		else fields[name] = data.toString('utf8');
		pos = next;
	}
	return { fields, files };
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
	res.end(text);
}

export function errorBody(status: number, message: string, name?: string) {
	return { message, error: name ?? errorName(status), statusCode: status };
}
