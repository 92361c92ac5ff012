/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * A simulated platform on a virtual clock (issue 51), for the window's property tests: the real
 * transport (apiRequest), gate and its three parts (pause, rate, concurrency) and runItems, with
 * n8n's helper replaced by a platform whose time is jest's fake clock. A request over a new TLS
 * connection (n8n's helper never keeps one) reaches the platform 2.5 round trips after it is sent
 * (TCP, TLS, the request); the answer comes back half a round trip after the platform's own time,
 * plus its body's. The client's CPU (n8n's helper, a handshake, the answer read) is one core that
 * serves requests one at a time, half of each before sending, half after the answer.
 *
 * The platform may be far (rttMs), a token bucket (rate, burst, its Retry-After in seconds, as a
 * date on its own clock, or none), overloaded (slower per request above a number at once), able to
 * take only so many at once (the rest refused with 503 or a reset), faulty (a seeded share of 502s
 * and resets), on a clock skewed from n8n's (its Date header), or refusing everything from a
 * request on (e.g. 503 with Retry-After: 86400). Time is driven with `drive()`.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { GATES, Lane, setLane } from '../../../nodes/SalesPayments/transport/gate';
import { runItems } from '../../../nodes/SalesPayments/transport/items';
import { apiRequest } from '../../../nodes/SalesPayments/transport/transport';
import { rng } from '../simulator/state';

export interface PlatformSpec {
	/** Round trip (ms). */
	rttMs: number;
	/** The platform's own time per request (ms). */
	serviceMs?: number;
	/** A success's body, read after its first byte came (ms). */
	bodyMs?: number;
	/** The client's CPU per request (ms). */
	cpuMs?: number;
	/** A token bucket per key. Retry-After: seconds to the next token (rounded up), fixed seconds, a date on the platform's clock, or none. */
	bucket?: { rate: number; burst: number; retryAfter: 'next' | 'date' | 'none' | number };
	/** Each request `perMs` slower per request at the platform above `above`, when it arrives. */
	overload?: { above: number; perMs: number };
	/** At most `n` requests at once at the platform: the others are refused with 503 or a reset. */
	atOnce?: { n: number; refusal: 503 | 'reset' };
	/** The share of requests (seeded) answered 502 or with a reset, alternately. */
	faults?: number;
	seed?: number;
	/** Each leg of the network varies by up to this share of its time (seeded): 0.1 unless given. */
	jitter?: number;
	/** The platform's clock minus n8n's (ms): its Date header. */
	skewMs?: number;
	/** From this request on (1-based), every request of a path containing `path` is answered `status` with `retryAfter`. */
	refuse?: { from: number; path?: string; status: number; retryAfter?: string };
}

export interface Answered {
	path: string;
	/** The request's item (the `{id}` of its path). */
	item: string;
	sentAt: number;
	arrivedAt: number;
	answeredAt: number;
	/** 0: a reset. */
	status: number;
	/** The requests at the platform when it arrived, itself included. */
	atPlatform: number;
	/** Max Concurrent Requests of its lane; undefined: the automatic window. */
	fixed?: number;
	/** The automatic window when it was sent. */
	window?: number;
}

const now = () => performance.now();
const delay = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

export class VirtualPlatform {
	readonly log: Answered[] = [];
	/** When each run's item or page ended (virtual ms), by label. */
	private atPlatform = 0;
	private cpuFree = 0;
	private seen = 0;
	private faultNo = 0;
	private readonly random: () => number;
	/** The network's variation: its own sequence, so that faults fall on the same requests whatever it is. */
	private readonly noise: () => number;
	private bucket: { tokens: number; at: number } | undefined;

	constructor(public spec: PlatformSpec) {
		this.random = rng(spec.seed ?? 1);
		this.noise = rng((spec.seed ?? 1) + 7919);
	}

	/** Changes the platform from now on (a limit met, lifted, a platform healthy again). */
	set(spec: Partial<PlatformSpec>): void {
		this.spec = { ...this.spec, ...spec };
		if (spec.bucket) this.bucket = undefined;
	}

	private async cpu(ms: number): Promise<void> {
		if (ms <= 0) return;
		this.cpuFree = Math.max(now(), this.cpuFree) + ms;
		await delay(this.cpuFree - now());
	}

	/** n8n's helper, as the transport calls it. */
	async request(options: IHttpRequestOptions, fixed: number | undefined): Promise<{ statusCode: number; headers: Record<string, string>; body: unknown }> {
		const spec = this.spec;
		const half = (spec.cpuMs ?? 0) / 2;
		await this.cpu(half);
		const sentAt = now();
		const path = new URL(options.url).pathname;
		const jitter = () => 1 + (spec.jitter ?? 0.1) * (2 * this.noise() - 1);
		await delay(spec.rttMs * 2.5 * jitter());
		const arrivedAt = now();
		const number = ++this.seen;
		const at = ++this.atPlatform;
		const record: Answered = { path, item: path.split('/').pop() ?? '', sentAt, arrivedAt, answeredAt: 0, status: 0, atPlatform: at, window: GATES.entries()[0]?.[1].window, ...(fixed === undefined ? {} : { fixed }) };
		this.log.push(record);
		const headers: Record<string, string> = { date: new Date(Date.now() + (spec.skewMs ?? 0)).toUTCString() };
		let status = 200;
		let reset = false;
		let wait = spec.serviceMs ?? 0;
		const refuse = spec.refuse;
		const retryAfter = this.take();
		if (refuse && number >= refuse.from && path.includes(refuse.path ?? '')) {
			status = refuse.status;
			if (refuse.retryAfter !== undefined) headers['retry-after'] = refuse.retryAfter;
		} else if (retryAfter !== undefined) {
			status = 429;
			if (retryAfter !== '') headers['retry-after'] = retryAfter;
		} else if (spec.atOnce && at > spec.atOnce.n) {
			if (spec.atOnce.refusal === 'reset') reset = true;
			else status = 503;
		} else if (spec.faults !== undefined && this.random() < spec.faults) {
			if (this.faultNo++ % 2 === 0) status = 502;
			else reset = true;
		} else if (spec.overload) wait += spec.overload.perMs * Math.max(0, at - spec.overload.above);
		await delay(wait);
		this.atPlatform--;
		await delay((spec.rttMs / 2) * jitter() + (status === 200 && !reset ? (spec.bodyMs ?? 0) : 0));
		record.answeredAt = now();
		await this.cpu(half);
		if (reset) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		record.status = status;
		const body = status === 200 ? { statusCode: 200, data: { id: `r${number}` } } : { statusCode: status, message: status === 429 ? 'Too many requests' : 'Unavailable' };
		return { statusCode: status, headers, body };
	}

	/** The bucket's token for a request arriving now: undefined, or the Retry-After of its 429 ('' for none). */
	private take(): string | undefined {
		const bucket = this.spec.bucket;
		if (!bucket) return undefined;
		const t = now();
		this.bucket ??= { tokens: bucket.burst, at: t };
		this.bucket.tokens = Math.min(bucket.burst, this.bucket.tokens + ((t - this.bucket.at) / 1000) * bucket.rate);
		this.bucket.at = t;
		if (this.bucket.tokens >= 1) {
			this.bucket.tokens -= 1;
			return undefined;
		}
		const next = ((1 - this.bucket.tokens) / bucket.rate) * 1000;
		if (bucket.retryAfter === 'none') return '';
		// An HTTP date counts whole seconds: the next token's, rounded up.
		if (bucket.retryAfter === 'date') return new Date(Math.ceil((Date.now() + (this.spec.skewMs ?? 0) + next) / 1000) * 1000).toUTCString();
		if (bucket.retryAfter === 'next') return String(Math.max(1, Math.ceil(next / 1000)));
		return String(bucket.retryAfter);
	}
}

/** A run's context, as n8n hands one to the node (only what the transport reads), with its lane and Max Retries. */
export function runContext(platform: VirtualPlatform, options: { fixed?: number; maxRetries?: number; apiKey?: string } = {}): IExecuteFunctions {
	const ctx = {
		getCredentials: async () => ({ baseUrl: 'https://platform.test', apiKey: options.apiKey ?? 'key', apiSecret: 'secret', businessId: 'b1' }),
		getNode: () => ({ id: 'n', name: 'Sales & Payments', type: 'salesPayments', typeVersion: 1, position: [0, 0], parameters: {}, credentials: {} }),
		getInputData: () => [],
		continueOnFail: () => false,
		getNodeParameter: (name: string) => {
			if (name === 'requestOptions') return options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries };
			throw new Error(`no parameter ${name}`);
		},
		helpers: { httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) => await platform.request(request, options.fixed) },
	} as unknown as IExecuteFunctions;
	if (options.fixed !== undefined) setLane(ctx, new Lane(options.fixed));
	return ctx;
}

export interface RunOutcome {
	ok: number;
	failed: number;
	error?: Error;
	startedAt: number;
	endedAt: number;
	/** When each item started and ended. */
	starts: number[];
	ends: number[];
}

/**
 * `count` requests of one run, side by side as the action node runs its items (runItems): at most
 * twice the automatic window at once (or its fixed Max Concurrent Requests), each sent once with
 * its retries, stopping at the first failure.
 */
export async function run(platform: VirtualPlatform, count: number, options: { fixed?: number; maxRetries?: number; path?: string; apiKey?: string; first?: number } = {}): Promise<RunOutcome> {
	const ctx = runContext(platform, options);
	const startedAt = now();
	const [starts, ends]: number[][] = [[], []];
	const outcomes = await runItems<IDataObject>({
		count,
		keyOf: () => undefined,
		limit: () => options.fixed ?? 2 * Math.max(1, ...[...GATES.entries()].map(([, gate]) => gate.window)),
		run: async (i) => {
			starts[i] = now();
			try {
				return await apiRequest.call(ctx, { method: 'GET', path: options.path ?? '/orders/{id}', pathParams: { id: { value: `o${(options.first ?? 0) + i}`, label: 'Order' } }, itemIndex: 0 });
			} finally {
				ends[i] = now();
			}
		},
		stopOnFailure: true,
	});
	const failures = outcomes.filter((o) => o && !o.ok);
	const first = failures[0];
	return {
		ok: outcomes.filter((o) => o?.ok).length,
		failed: failures.length,
		...(first && !first.ok ? { error: first.error as Error } : {}),
		startedAt,
		endedAt: now(),
		starts,
		ends,
	};
}

/** Advances the fake clock until `work` settles (or `maxMs` of virtual time passed: then it throws). */
export async function drive<T>(work: Promise<T>, maxMs = 600_000): Promise<T> {
	let settled = false;
	void work.then(
		() => (settled = true),
		() => (settled = true),
	);
	const end = now() + maxMs;
	// From timer to timer: everything here waits on the fake clock.
	while (!settled && now() < end) await jest.advanceTimersToNextTimerAsync();
	if (!settled) throw new Error(`not settled after ${maxMs} ms of virtual time`);
	return await work;
}

/** Forgets every gate: a fresh n8n process. */
export function freshProcess(): void {
	GATES.clear();
}
