/**
 * Fault injection: latency, statuses (429 with Retry-After, 500, 503 ...), dropped connections
 * and malformed JSON, on chosen request numbers or with a seeded probability.
 */
import { rng } from './state';

export type FaultKind = 'latency' | 'status' | 'drop' | 'malformed';

export interface FaultRule {
	kind: FaultKind;
	/** For `status`: the HTTP status to answer. */
	status?: number;
	/** For `status` 429/503: the Retry-After header value (seconds or an HTTP date). */
	retryAfter?: string;
	/** For `latency`: milliseconds added before answering. */
	latencyMs?: number;
	/** Only requests whose method/path match count (path: substring or RegExp source). */
	method?: string;
	path?: string;
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
}

interface ActiveRule extends FaultRule {
	seen: number;
	applied: number;
}

export class Faults {
	private rules: ActiveRule[] = [];
	private random = rng(1);
	/** Faults applied so far, by kind. */
	readonly counts: Record<FaultKind, number> = { latency: 0, status: 0, drop: 0, malformed: 0 };

	seed(seed: number): void {
		this.random = rng(seed);
	}

	add(rule: FaultRule): void {
		this.rules.push({ ...rule, seen: 0, applied: 0 });
	}

	clear(): void {
		this.rules = [];
		for (const key of Object.keys(this.counts) as FaultKind[]) this.counts[key] = 0;
	}

	/** The rules that fire for this request (each matching rule counts the request once). */
	pick(method: string, path: string): FaultRule[] {
		const fired: FaultRule[] = [];
		for (const rule of this.rules) {
			if (rule.method && rule.method.toUpperCase() !== method) continue;
			if (rule.path && !path.includes(rule.path) && !new RegExp(rule.path).test(path)) continue;
			rule.seen++;
			if (rule.times !== undefined && rule.applied >= rule.times) continue;
			const hit =
				(rule.nth?.includes(rule.seen) ?? false) ||
				(rule.every !== undefined && rule.seen % rule.every === 0) ||
				(rule.probability !== undefined && this.random() < rule.probability) ||
				(rule.nth === undefined && rule.every === undefined && rule.probability === undefined);
			if (!hit) continue;
			rule.applied++;
			this.counts[rule.kind]++;
			fired.push(rule);
		}
		return fired;
	}
}
