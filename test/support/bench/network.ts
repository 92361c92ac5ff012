/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The network scenario of `npm run bench` (issue 40): Return All of 100,000 movements over HTTPS
 * through a latency proxy, as n8n reads a platform that is 20 or 200 ms away.
 *
 * - **TLS**: a throwaway CA and a server certificate for 127.0.0.1 are made at run time with the
 *   openssl CLI in a temp folder (ECDSA P-256, one day), and the child processes trust the CA
 *   through `NODE_EXTRA_CA_CERTS`: nothing in the package changes. A `tls.Server` terminates TLS
 *   (TLS 1.3, Node's defaults) and hands each connection to the pre-rendered page server (pages.ts).
 *   It counts TCP connections and TLS handshakes (resumed or not) per run.
 * - **Latency**: a TCP proxy on 127.0.0.1 delays every chunk by RTT/2 each way, in order, and holds
 *   a new connection's first bytes one more RTT (its TCP handshake), so a new connection pays
 *   TCP + TLS 1.3 handshakes + the request: 3 round trips; a kept-alive one, 1. It models latency
 *   only: no bandwidth limit, no loss, no TCP slow start (a real link makes big answers on fresh
 *   connections slower still). The most connections open at once through it is the largest window
 *   a client reached: one request per connection for n8n's helper, which never keeps one alive.
 * - **Contenders** (cases.ts, anchors.ts, executed by n8n-core in a fresh child each, alternating
 *   rounds of rounds.ts): the package (Movement > Get Many, Return All, defaults), and with
 *   `--against` the package of that commit; the sequential helper loop (a trivial node looping over
 *   `httpRequestWithAuthentication`; at 200 ms only its first SEQUENTIAL_PAGES_AT_200 pages, its
 *   time scaled to the whole list in the ratios); the same loop 8 pages at a time; 8 kept-alive
 *   `https` connections in a trivial node (the floor n8n's helper forbids).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';

import type { Client, ListSpec, Target } from './cases';
import { round } from './measure';
import type { PageServer } from './pages';
import type { CaseDef, Measured, Platform } from './rounds';
import { runGroup } from './rounds';
import type { PerItemRow } from './perItem';
import { measurePerItem, measureShortRuns, perItemMarkdown } from './perItem';
import type { NetContext, PlatformPart, PlatformRow } from './platforms';
import { FAULT_PAGE_SIZE, measurePlatforms, platformMarkdown } from './platforms';
import { MOVEMENTS } from './settings';

/** Round trips of the scenario (ms): loopback through the proxy, a platform in the same country, another continent. */
export const NETWORK_RTTS = [0, 20, 200];
/** The sequential helper loop at 200 ms reads this many pages (about 12 s), not the whole list (about 60 s). */
export const SEQUENTIAL_PAGES_AT_200 = 20;
/** Pages the helper loop and the kept-alive connections read at a time. */
const CONTENDER_CONCURRENCY = 8;
const PAGE_SIZE = 1000;

export interface NetworkRow {
	id: string;
	rttMs: number;
	client: Client;
	label: string;
	runs: number;
	wallMs: number;
	runsMs: number[];
	cpuMs: number;
	rssDeltaMb: number;
	/** Pages this contender read (the bounded sequential loop: fewer than the list's). */
	pages: number;
	/** Time for the whole list: wallMs, or wallMs scaled from the pages read (bounded rows). */
	wholeMs: number;
	requests: number;
	tcp: number;
	tls: number;
	resumed: number;
	/** Most connections open at once through the proxy: the largest window reached. */
	window: number;
	errors: number;
	sameRecords: boolean;
	vsKeepAlive8?: number;
	vsSequential?: number;
	/** 1-minute load average when the row's group ended. */
	load: number;
}

export interface NetworkResults {
	rows: NetworkRow[];
	/** The difficult platforms (platforms.ts): rate limit, overload, faults. */
	platforms?: PlatformRow[];
	/** One request per input item (perItem.ts). */
	items?: PerItemRow[];
	movements: number;
	pageSize: number;
	repeats: number;
	tls: string;
	loadAverage: { start: number[]; end: number[] };
}

/** A throwaway CA and a certificate for 127.0.0.1 signed by it, in `dir` (openssl CLI). */
export function throwawayCa(dir: string): { caFile: string; key: Buffer; cert: Buffer } {
	const file = (name: string) => path.join(dir, name);
	const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=sales-payments bench throwaway CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
	openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
	writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n');
	openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'server.ext');
	return { caFile: file('ca.pem'), key: readFileSync(file('server.key')), cert: readFileSync(file('server.pem')) };
}

export interface LatencyProxy {
	url: string;
	/** Round trip of the connections accepted from now on (ms). */
	rttMs: number;
	/** Most client connections open at once since reset(). */
	maxOpen: number;
	/** The server answered the last request of the connection from its port `port`: it is no longer open once the answer reached the client. */
	answered(port: number): void;
	reset(): void;
	close(): Promise<void>;
}

/**
 * Relays `from` to `to`, each chunk `delayMs` after it came and never before `notBefore`
 * (performance.now() time), in order; the end of `from` ends `to` the same way (then `onEnd`).
 */
function relay(from: Socket, to: Socket, delayMs: number, notBefore: number, onEnd?: () => void): void {
	const queue: Array<{ at: number; chunk: Buffer | null }> = [];
	let timer: NodeJS.Timeout | undefined;
	const deliver = (chunk: Buffer | null) => {
		if (chunk !== null) {
			to.write(chunk);
			return;
		}
		to.end();
		onEnd?.();
	};
	const drain = () => {
		timer = undefined;
		while (queue.length > 0 && queue[0].at <= performance.now() + 0.5) deliver(queue.shift()!.chunk);
		if (queue.length > 0) timer = setTimeout(drain, queue[0].at - performance.now());
	};
	const push = (chunk: Buffer | null) => {
		const now = performance.now();
		const at = Math.max(now + delayMs, notBefore);
		if (queue.length === 0 && at <= now) {
			deliver(chunk);
			return;
		}
		queue.push({ at: Math.max(at, queue.at(-1)?.at ?? 0), chunk });
		timer ??= setTimeout(drain, queue[0].at - now);
	};
	from.on('data', push);
	from.on('end', () => push(null));
	to.on('close', () => clearTimeout(timer));
}

/**
 * A TCP proxy on 127.0.0.1 to `port`: every chunk RTT/2 late each way, a new connection's first
 * bytes one RTT later still. A connection counts as open from its accept until the answer to its
 * last request reaches the client (`answered`, RTT/2 after the server sent it), or until it
 * closes: with one request per connection, that is the request's time in flight as the client
 * sees it, without the client's own delay in closing.
 */
export async function startLatencyProxy(port: number): Promise<LatencyProxy> {
	const sockets = new Set<Socket>();
	const byPort = new Map<number, { rtt: number; done: () => void }>();
	let open = 0;
	const server = net.createServer({ allowHalfOpen: true }, (client) => {
		const rtt = proxy.rttMs;
		const upstream = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
		for (const socket of [client, upstream]) {
			socket.setNoDelay(true);
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
		}
		open++;
		proxy.maxOpen = Math.max(proxy.maxOpen, open);
		let counted = true;
		const done = () => {
			if (counted) open--;
			counted = false;
		};
		upstream.on('connect', () => byPort.set(upstream.localPort as number, { rtt, done }));
		client.on('close', () => {
			done();
			byPort.delete(upstream.localPort as number);
			upstream.destroy();
		});
		client.on('error', () => upstream.destroy());
		upstream.on('error', () => client.destroy());
		// SYN, SYN-ACK: the client's first bytes leave one round trip after it connected.
		relay(client, upstream, rtt / 2, performance.now() + rtt + rtt / 2);
		relay(upstream, client, rtt / 2, 0);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const proxy: LatencyProxy = {
		url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
		rttMs: 0,
		maxOpen: 0,
		answered: (from) => {
			const connection = byPort.get(from);
			if (connection && connection.rtt > 0) setTimeout(connection.done, connection.rtt / 2);
			else connection?.done();
		},
		reset: () => {
			proxy.maxOpen = open;
		},
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
	return proxy;
}

/**
 * TLS in front of the page server: counts TCP connections and handshakes (resumed ones apart), and
 * tells `onLastAnswer` the port a connection came from when the server sent the last answer it will
 * send on it (a request that asked to close the connection, as n8n's helper always does).
 */
export async function startTlsFront(pages: PageServer, key: Buffer, cert: Buffer, onLastAnswer: (port: number) => void) {
	const counts = { tcp: 0, tls: 0, resumed: 0, protocols: new Set<string>() };
	const sockets = new Set<Socket>();
	const server = tls.createServer({ key, cert }, (socket) => {
		counts.tls++;
		if (socket.isSessionReused()) counts.resumed++;
		counts.protocols.add(String(socket.getProtocol()));
		pages.server.emit('connection', socket);
	});
	server.on('connection', (socket: Socket) => {
		counts.tcp++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	const answered = (req: IncomingMessage, res: ServerResponse) => {
		const from = req.socket.remotePort;
		if (req.socket instanceof tls.TLSSocket && from !== undefined) res.on('finish', () => !res.shouldKeepAlive && onLastAnswer(from));
	};
	pages.server.on('request', answered);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		counts,
		close: async () => {
			pages.server.off('request', answered);
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * Runs the network scenario: for each RTT, the contenders in alternating rounds (rounds.ts), over
 * HTTPS through the latency proxy, against the bench's pre-rendered pages of 1,000.
 */
export async function measureNetwork(options: Omit<NetContext, 'setRtt' | 'clearCounters' | 'window'> & {
	rtts?: number[];
	/** Which parts: the lists at each RTT, the difficult platforms (or one of them: rate, overload, faults), the per-item cases and the short runs, or the short runs alone (default: all). */
	parts?: Array<'lists' | 'platforms' | 'items' | 'short' | PlatformPart>;
	/** --profile: a CPU profile of each list case's measured work (the last round's) in this folder. */
	profileDir?: string;
}): Promise<NetworkResults> {
	const parts = options.parts ?? ['lists', 'platforms', 'items'];
	const platformParts = (['rate', 'overload', 'faults'] as const).filter((p) => parts.includes('platforms') || parts.includes(p));
	const { pages, log } = options;
	const dir = mkdtempSync(path.join(os.tmpdir(), 'sp-bench-tls-'));
	const loadStart = os.loadavg().map((n) => round(n));
	const { caFile, key, cert } = throwawayCa(dir);
	// The front tells the proxy, which it does not know yet, where an answer ended.
	const link: { proxy?: LatencyProxy } = {};
	const front = await startTlsFront(pages, key, cert, (port) => link.proxy?.answered(port));
	const proxy = (link.proxy = await startLatencyProxy(front.port));
	const env = { ...options.env, NODE_EXTRA_CA_CERTS: caFile };
	const target: Target = { ...options.target, baseUrl: proxy.url };
	const rows: NetworkRow[] = [];
	pages.latencyMs = 0;
	try {
		const platform: Platform = {
			clear: () => {
				pages.clear();
				Object.assign(front.counts, { tcp: 0, tls: 0, resumed: 0 });
				proxy.reset();
			},
			statuses: () => pages.statuses,
			// The warm-up (one request on its own connection) is left out.
			counters: () => ({ tcp: front.counts.tcp - 1, tls: front.counts.tls - 1, resumed: front.counts.resumed, window: proxy.maxOpen }),
		};
		for (const rtt of parts.includes('lists') ? (options.rtts ?? NETWORK_RTTS) : []) {
			proxy.rttMs = rtt;
			const scenario = `network ${rtt} ms`;
			const spec = (client: Client, extra: Partial<ListSpec> = {}): ListSpec => ({
				kind: 'list',
				client,
				target,
				pageSize: PAGE_SIZE,
				expected: MOVEMENTS,
				...options.request,
				...extra,
			});
			const bounded = rtt >= 200 ? SEQUENTIAL_PAGES_AT_200 : undefined;
			const cases: CaseDef[] = [
				{ id: `network-${rtt}/node-default`, scenario, settings: 'the package, defaults (auto)', spec: spec('node') },
				...(options.against
					? [{ id: `network-${rtt}/against-default`, scenario, settings: `the package at ${options.against.label}, defaults (auto)`, spec: spec('node', { packageDir: options.against.dir }) }]
					: []),
				{
					id: `network-${rtt}/helperLoop`,
					scenario,
					settings: bounded ? `sequential helper loop (first ${bounded} pages)` : 'sequential helper loop',
					spec: spec('helperLoop', bounded ? { pages: bounded, expected: bounded * PAGE_SIZE } : {}),
				},
				{ id: `network-${rtt}/helperLoop-8`, scenario, settings: `helper loop, ${CONTENDER_CONCURRENCY} at a time`, spec: spec('helperLoop', { concurrency: CONTENDER_CONCURRENCY }) },
				{ id: `network-${rtt}/keepAlive-8`, scenario, settings: `${CONTENDER_CONCURRENCY} kept-alive https connections`, spec: spec('keepAlive', { concurrency: CONTENDER_CONCURRENCY }) },
			];
			log(`network, RTT ${rtt} ms (${proxy.url}): ${cases.map((c) => c.id).join(', ')} x ${options.repeats} rounds`);
			const measured = await runGroup(cases, options.repeats, env, platform, { latencyMs: rtt, ...(options.profileDir ? { profileDir: options.profileDir } : {}) }, log);
			rows.push(...rowsOf(rtt, cases, measured));
		}
		const net: NetContext = {
			pages,
			target,
			request: options.request,
			env,
			repeats: options.repeats,
			log,
			...(options.against ? { against: options.against } : {}),
			setRtt: (ms) => (proxy.rttMs = ms),
			clearCounters: () => platform.clear(),
			window: () => proxy.maxOpen,
		};
		let platforms: PlatformRow[] | undefined;
		if (platformParts.length > 0) {
			if (platformParts.includes('faults')) await pages.render(FAULT_PAGE_SIZE, MOVEMENTS);
			platforms = await measurePlatforms(net, (options.rtts ?? [20, 200]).filter((rtt) => rtt > 0), platformParts);
		}
		const perItemRows = parts.includes('items') ? await measurePerItem(net, (options.rtts ?? [20, 200]).filter((rtt) => rtt > 0)) : [];
		const shortRows = parts.includes('items') || parts.includes('short') ? await measureShortRuns(net) : [];
		const items = parts.includes('items') || parts.includes('short') ? [...perItemRows, ...shortRows] : undefined;
		log(`network: TLS ${[...front.counts.protocols].join(', ')}`);
		return {
			rows,
			...(platforms ? { platforms } : {}),
			...(items ? { items } : {}),
			movements: MOVEMENTS,
			pageSize: PAGE_SIZE,
			repeats: options.repeats,
			tls: `${[...front.counts.protocols].join(', ')}, ECDSA P-256 certificate of a throwaway CA`,
			loadAverage: { start: loadStart, end: os.loadavg().map((n) => round(n)) },
		};
	} finally {
		await proxy.close();
		await front.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

function rowsOf(rtt: number, cases: CaseDef[], measured: Measured[]): NetworkRow[] {
	const wholePages = Math.ceil(MOVEMENTS / PAGE_SIZE);
	const reference = measured.find((m) => m.id.endsWith('/keepAlive-8'))?.digest;
	const load = round(os.loadavg()[0]);
	const rows = measured.map((m, n): NetworkRow => {
		const c = cases[n];
		const pages = c.spec.pages ?? wholePages;
		const counters = m.counters ?? {};
		return {
			id: m.id,
			rttMs: rtt,
			client: m.client,
			label: m.settings,
			runs: m.runs,
			wallMs: m.wallMs,
			runsMs: m.runsMs,
			cpuMs: m.cpuMs,
			rssDeltaMb: m.rssDeltaMb,
			pages,
			wholeMs: Math.round((m.wallMs * wholePages) / pages),
			requests: m.requests,
			tcp: counters.tcp ?? 0,
			tls: counters.tls ?? 0,
			resumed: counters.resumed ?? 0,
			window: counters.window ?? 0,
			errors: m.errors,
			sameRecords: m.errors === 0 && (pages < wholePages || m.digest === reference),
			load,
		};
	});
	const keepAlive = rows.find((r) => r.id.endsWith('/keepAlive-8'));
	const sequential = rows.find((r) => r.id.endsWith('/helperLoop'));
	for (const r of rows) {
		if (keepAlive) r.vsKeepAlive8 = round(r.wholeMs / keepAlive.wholeMs);
		if (sequential) r.vsSequential = round(r.wholeMs / sequential.wholeMs);
	}
	return rows;
}

/** The issue's targets at 200 and 20 ms. */
export function networkTargets(results: NetworkResults): Array<{ name: string; goal: string; measured: string; met: boolean }> {
	const node = (rtt: number) => results.rows.find((r) => r.id === `network-${rtt}/node-default`);
	const out: Array<{ name: string; goal: string; measured: string; met: boolean }> = [];
	const check = (name: string, measured: number | undefined, goal: number) => {
		if (measured !== undefined) out.push({ name, goal: `<= ${goal}`, measured: String(measured), met: measured <= goal });
	};
	check('Return All over HTTPS at 200 ms RTT / 8 kept-alive connections', node(200)?.vsKeepAlive8, 1.2);
	check('Return All over HTTPS at 200 ms RTT / the sequential helper loop (scaled to the whole list)', node(200)?.vsSequential, 0.15);
	check('Return All over HTTPS at 20 ms RTT / 8 kept-alive connections', node(20)?.vsKeepAlive8, 1.6);
	check('Return All over HTTPS through the proxy at 0 ms / the sequential helper loop', node(0)?.vsSequential, 1.0);
	return out;
}

/** The scenario's table for results.md. */
export function networkMarkdown(results: NetworkResults | undefined): string[] {
	if (!results) return [];
	if (results.rows.length === 0) return [...platformMarkdown(results.platforms), ...perItemMarkdown(results.items)];
	const lines = [
		`Network (issue 40): Return All of ${results.movements.toLocaleString('en-US')} movements at ${results.pageSize.toLocaleString('en-US')} a page over HTTPS ` +
			`(${results.tls}, trusted through NODE_EXTRA_CA_CERTS) through a proxy that delays every chunk by RTT/2 each way, a new connection ` +
			`paying its TCP and TLS handshakes; medians of ${results.repeats} alternating runs; load average ${results.loadAverage.start.join(' / ')} at the start, ` +
			`${results.loadAverage.end.join(' / ')} at the end. TCP connections and TLS handshakes are counted at the server; the window is the most ` +
			`connections open at once (one request each for n8n's helper). A bounded row's time for the whole list is scaled from the pages it read.`,
		'',
		'| RTT | Contender | Pages | Median (ms) | Fastest-slowest (ms) | Whole list (ms) | / 8 kept-alive | / sequential loop | Requests | TCP connections | TLS handshakes (resumed) | Largest window | CPU (ms) | RSS Δ (MB) | Load | Same records |',
		'|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|',
	];
	for (const r of results.rows) {
		lines.push(
			`| ${r.rttMs} ms | ${r.label} | ${r.pages} | ${r.wallMs} | ${Math.min(...r.runsMs)}-${Math.max(...r.runsMs)} | ${r.wholeMs}${r.wholeMs !== r.wallMs ? ' (scaled)' : ''} | ` +
				`${r.vsKeepAlive8 ?? ''} | ${r.vsSequential ?? ''} | ${r.requests} | ${r.tcp} | ${r.tls} (${r.resumed}) | ${r.window} | ${r.cpuMs} | ${r.rssDeltaMb} | ${r.load} | ${r.errors ? `${r.errors} failed` : r.sameRecords ? 'yes' : 'NO'} |`,
		);
	}
	const targets = networkTargets(results);
	if (targets.length) {
		lines.push('', '| Target | Goal | Measured | Met |', '|---|---|---|:---:|');
		for (const t of targets) lines.push(`| ${t.name} | ${t.goal} | ${t.measured} | ${t.met ? 'yes' : 'no'} |`);
	}
	return [...lines, '', ...platformMarkdown(results.platforms), ...perItemMarkdown(results.items)];
}
