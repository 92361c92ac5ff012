/**
 * Fault injection: latency, statuses (429 with Retry-After, 500, 503 ...), dropped connections,
 * malformed or unexpected bodies, redirects and answers trickled byte by byte, on chosen request
 * numbers, on requests whose path or body matches (one item among many), or with a seeded probability. Redirects and trickles are the hostile platform's tools:
 * a redirect to another origin must never carry the keys along, a trickled answer must not
 * outlive the request's deadline.
 */
import { rng } from './state';

export type FaultKind = 'latency' | 'status' | 'drop' | 'malformed' | 'redirect' | 'trickle' | 'huge';

export interface FaultRule {
	kind: FaultKind;
	/** For `status`: the HTTP status to answer. */
	status?: number;
	/** For `status` 429/503: the Retry-After header value (seconds or an HTTP date). */
	retryAfter?: string;
	/**
	 * For `status` 429/503: refuse for this many ms of the platform's clock (`state.clock`, its Date
	 * header) from the first refusal, every matching request until then, each with Retry-After as an
	 * HTTP date at that instant (whole seconds, rounded up). The rule ends once the instant passed.
	 */
	refuseForMs?: number;
	/** For `latency`: milliseconds added before answering. */
	latencyMs?: number;
	/** For `latency`: milliseconds more for each other API request in flight when this one arrives (a platform that slows under load). */
	perInFlightMs?: number;
	/** With `perInFlightMs`: only the requests in flight beyond this many, this one included, slow it (an overloaded platform that takes this many at full speed). */
	aboveInFlight?: number;
	/** Only requests whose method/path match count (path: substring or RegExp source). */
	method?: string;
	path?: string;
	/** Only requests whose body, as JSON text, matches count (substring or RegExp source): one item among many to the same path. */
	bodyMatches?: string;
	/** Apply on these request numbers among matching requests (1-based). */
	nth?: number[];
	/** Apply on every Nth matching request. */
	every?: number;
	/** Apply with this probability (seeded generator). */
	probability?: number;
	/** Stop after this many applications. */
	times?: number;
	/** Let the request be processed first, then fail the answer (the client cannot tell). */
	afterProcessing?: boolean;
	/**
	 * The body sent as is: for `malformed`, with status 200 or `status` (default: a JSON document
	 * cut short); for `status`, instead of the platform's error body.
	 */
	body?: string;
	/** For `malformed`: a content-encoding header sent with the body as is (a gzip or br label on plain JSON). */
	contentEncoding?: string;
	/** For `redirect`: where to (an absolute URL or a path); `status` is 301, 302, 303, 307 or 308 (default 302). */
	location?: string;
	/** For `trickle`: bytes per chunk (default 1) and milliseconds between chunks (default 50). */
	chunkBytes?: number;
	intervalMs?: number;
	/**
	 * For `huge`: an answer of `bytes` bytes (a JSON string that never ends), streamed in chunks;
	 * with `gzip`, sent gzip-compressed (`content-encoding: gzip`): a decompression bomb, a few
	 * hundred KB on the wire for a GiB once inflated.
	 */
	bytes?: number;
	gzip?: boolean;
}

/** The body a `malformed` fault sends when the rule names none: JSON cut off mid-record. */
export const MALFORMED_BODY = '{"statusCode":200,"data":{"docs":[{"id":';

/** A rule with its counters: requests it matched (`seen`) and times it fired (`applied`). */
export interface FaultState extends FaultRule {
	seen: number;
	applied: number;
	/** With `refuseForMs`: the platform's instant the refusals end (set by the first). */
	refuseUntil?: number;
}

/** Whether a rule's `path` (or `bodyMatches`) matches: a substring, or a regular expression source. */
export function pathMatches(pattern: string, path: string): boolean {
	if (path.includes(pattern)) return true;
	try {
		return new RegExp(pattern).test(path);
	} catch {
		return false;
	}
}

export class Faults {
	private rules: FaultState[] = [];
	private random = rng(1);
	/** Faults applied so far, by kind. */
	readonly counts: Record<FaultKind, number> = { latency: 0, status: 0, drop: 0, malformed: 0, redirect: 0, trickle: 0, huge: 0 };

	seed(seed: number): void {
		this.random = rng(seed);
	}

	add(rule: FaultRule): void {
		const kinds: FaultKind[] = ['latency', 'status', 'drop', 'malformed', 'redirect', 'trickle', 'huge'];
		if (!kinds.includes(rule.kind)) throw new Error(`Unknown fault kind ${JSON.stringify(rule.kind)}`);
		if (rule.probability !== undefined && !(rule.probability >= 0 && rule.probability <= 1)) {
			throw new Error(`Fault probability must be from 0 to 1 (got ${rule.probability})`);
		}
		this.rules.push({ ...rule, seen: 0, applied: 0 });
	}

	/** The rules with their counters (a copy). */
	list(): FaultState[] {
		return this.rules.map((r) => ({ ...r }));
	}

	/** Faults applied so far, over every kind. */
	get total(): number {
		return Object.values(this.counts).reduce((sum, n) => sum + n, 0);
	}

	clear(): void {
		this.rules = [];
		for (const key of Object.keys(this.counts) as FaultKind[]) this.counts[key] = 0;
	}

	/**
	 * The rules that fire for this request: every latency rule that hits, and at most one other
	 * rule (the first that hits), since a request can be answered only once. Every matching rule
	 * counts the request in `seen`; only rules that fire count in `applied` and `counts`.
	 */
	pick(method: string, path: string, body?: unknown, platformNow: () => number = () => Date.now()): FaultRule[] {
		const fired: FaultRule[] = [];
		let answered = false;
		const bodyText = body === undefined ? '' : JSON.stringify(body);
		for (const rule of this.rules) {
			if (rule.method && rule.method.toUpperCase() !== method) continue;
			if (rule.path && !pathMatches(rule.path, path)) continue;
			if (rule.bodyMatches !== undefined && !pathMatches(rule.bodyMatches, bodyText)) continue;
			rule.seen++;
			if (rule.times !== undefined && rule.applied >= rule.times) continue;
			if (rule.kind !== 'latency' && answered) continue;
			if (rule.refuseForMs !== undefined) {
				const now = platformNow();
				rule.refuseUntil ??= Math.ceil((now + rule.refuseForMs) / 1000) * 1000;
				if (now >= rule.refuseUntil) continue;
				answered = true;
				rule.applied++;
				this.counts[rule.kind]++;
				fired.push({ ...rule, retryAfter: new Date(rule.refuseUntil).toUTCString() });
				continue;
			}
			const hit =
				(rule.nth?.includes(rule.seen) ?? false) ||
				(rule.every !== undefined && rule.seen % rule.every === 0) ||
				(rule.probability !== undefined && this.random() < rule.probability) ||
				(rule.nth === undefined && rule.every === undefined && rule.probability === undefined);
			if (!hit) continue;
			if (rule.kind !== 'latency') answered = true;
			rule.applied++;
			this.counts[rule.kind]++;
			fired.push(rule);
		}
		return fired;
	}
}
