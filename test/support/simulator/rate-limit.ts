/**
 * A per-key rate limiter: one token bucket per API key (`x-api-key`; requests without one share
 * a bucket), refilled at `ratePerSecond` up to `burst` tokens (default: one second's worth).
 * A request that finds no token is answered 429 with `Retry-After` in whole seconds (the time
 * until the next token, rounded up), without being processed. Off unless set: in-process with
 * `sim.rateLimit.set({...})` or the simulator option `rateLimit`, from other processes with
 * `POST /__sim/rate-limit`. Control routes (`/__sim`) are never limited.
 */
import { pathMatches } from './faults';

export interface RateLimitRule {
	/** Tokens added per second. */
	ratePerSecond: number;
	/** Bucket size: requests that may arrive at once (default: ratePerSecond, at least 1). */
	burst?: number;
	/** Only requests whose path contains this text (or matches this RegExp source) count. */
	path?: string;
}

interface Bucket {
	tokens: number;
	at: number;
}

export interface RateLimitStats {
	rule: RateLimitRule | null;
	/** Requests let through since the rule was set. */
	allowed: number;
	/** Requests answered 429 since the rule was set. */
	limited: number;
}

export class RateLimiter {
	private rule: RateLimitRule | undefined;
	private buckets = new Map<string, Bucket>();
	allowed = 0;
	limited = 0;

	constructor(private readonly now: () => number = () => Date.now()) {}

	set(rule: RateLimitRule | undefined | null): void {
		if (rule) {
			if (!(typeof rule.ratePerSecond === 'number' && rule.ratePerSecond > 0 && Number.isFinite(rule.ratePerSecond))) {
				throw new Error(`ratePerSecond must be a positive number (got ${JSON.stringify(rule.ratePerSecond)})`);
			}
			if (rule.burst !== undefined && !(Number.isFinite(rule.burst) && rule.burst >= 1)) {
				throw new Error(`burst must be at least 1 (got ${JSON.stringify(rule.burst)})`);
			}
		}
		this.rule = rule ?? undefined;
		this.buckets = new Map();
		this.allowed = 0;
		this.limited = 0;
	}

	clear(): void {
		this.set(undefined);
	}

	stats(): RateLimitStats {
		return { rule: this.rule ? { ...this.rule } : null, allowed: this.allowed, limited: this.limited };
	}

	/**
	 * Takes a token for this request: undefined when it may go on, else the Retry-After value
	 * (whole seconds) of its 429.
	 */
	take(key: string | undefined, path: string): string | undefined {
		const rule = this.rule;
		if (!rule || (rule.path && !pathMatches(rule.path, path))) return undefined;
		const capacity = rule.burst ?? Math.max(1, rule.ratePerSecond);
		const now = this.now();
		const id = key ?? '';
		let bucket = this.buckets.get(id);
		if (!bucket) {
			bucket = { tokens: capacity, at: now };
			this.buckets.set(id, bucket);
		}
		bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * rule.ratePerSecond);
		bucket.at = now;
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			this.allowed++;
			return undefined;
		}
		this.limited++;
		const seconds = (1 - bucket.tokens) / rule.ratePerSecond;
		return String(Math.max(1, Math.ceil(seconds)));
	}
}
