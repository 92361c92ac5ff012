/**
 * Rate: the requests a second a platform allows a credential, learned from its 429s, and the
 * token bucket new requests then take from (gate.ts; docs/pagination.md, "The window: pause, rate,
 * concurrency"). A platform's limit is commonly a token bucket that lets about a second of its rate
 * through at once, then its rate: so at a 429, the successes sent in any span before it number at
 * most one second of the rate plus the span's. The most that any span of the last WINDOW_MS asks
 * for is the rate measured. Nothing older than WINDOW_MS is kept: what happened an hour before
 * never weighs on a measure. Instants are monotonic milliseconds (the gate's `performance.now()`).
 */

/** Successes are kept this long: the spans a 429 is measured over. */
export const WINDOW_MS = 10_000;
/** At most this many successes are kept (50 a second over WINDOW_MS, twice over). */
const MAX_KEPT = 1024;
/** Seconds of requests a platform's bucket lets through at once (its size over its rate). */
const BURST_S = 1;
/** The rate grows by this share a second (a limit may be raised; the next 429 measures it again). */
const PROBE = 0.01;
/** A 429 while paced by a rate: at most this share of it. */
const CUT = 0.9;
/** Fewer successes than this before a 429 measure nothing (another client of the key may have emptied the bucket). */
const MIN_COUNT = 3;

export class Rate {
	/** Send times of successes, oldest first: pushed by each 2xx, dropped once older than WINDOW_MS. */
	private readonly sent: number[] = [];
	/** Requests a second the platform allows; 0 until a 429 measures it. Set by each measure. */
	perSecond = 0;
	/** When `perSecond` was measured (it grows by PROBE a second from then). Set with it. */
	private measuredAt = 0;
	/** Tokens in our bucket, as of `tokensAt`: emptied by a measure, taken by each start, refilled with time. */
	private tokens = 0;
	private tokensAt = 0;
	/**
	 * The refused request's send time while its measure may still grow: set by a first measure, when
	 * successes sent before it are still to answer; cleared by the next 429.
	 */
	private refusedAt: number | undefined;

	/** Milliseconds until a new request may start: 0 without a measured rate or with a token. */
	waitMs(now: number): number {
		if (this.perSecond <= 0) return 0;
		this.refill(now);
		return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.current(now));
	}

	/** A request starts now: it takes a token. */
	take(now: number): void {
		if (this.perSecond <= 0) return;
		this.refill(now);
		this.tokens -= 1;
	}

	/** A success, sent at `sentAt`. One sent before the refused request counts in its measure too. */
	succeeded(sentAt: number, now: number): void {
		this.forget(now);
		if (this.sent.push(sentAt) > MAX_KEPT) this.sent.shift();
		// Answers do not come in the order sent: keep the send times sorted.
		for (let k = this.sent.length - 1; k > 0 && this.sent[k - 1] > this.sent[k]; k--) [this.sent[k - 1], this.sent[k]] = [this.sent[k], this.sent[k - 1]];
		if (this.refusedAt !== undefined && sentAt <= this.refusedAt) this.perSecond = Math.max(this.perSecond, this.measure(this.refusedAt));
	}

	/**
	 * A 429 that speaks of a rate, for a request sent at `sentAt`: the rate is measured (at most CUT
	 * of the rate already paced by). False when nothing measured it: no success in the window.
	 */
	refused(sentAt: number, now: number): boolean {
		this.forget(now);
		const measured = this.measure(sentAt);
		if (this.perSecond > 0 && sentAt < this.measuredAt) {
			// Sent before the last measure: the same burst's refusal, which may only tell it more exactly.
			if (this.refusedAt !== undefined && measured > this.perSecond) [this.perSecond, this.refusedAt] = [measured, Math.max(this.refusedAt, sentAt)];
			return true;
		}
		this.refusedAt = undefined;
		if (measured <= 0) return this.perSecond > 0;
		// Paced by a rate measured within the window: it was too high. Else a first measure, which the
		// answers still to come of requests sent before this one may raise.
		if (this.perSecond > 0 && now - this.measuredAt < WINDOW_MS) this.perSecond = Math.min(this.current(now) * CUT, measured);
		else [this.perSecond, this.refusedAt] = [measured, sentAt];
		this.measuredAt = now;
		// The platform's bucket is empty now; ours refills from here.
		[this.tokens, this.tokensAt] = [0, now];
		return true;
	}

	/** The most any span of the kept successes up to `until` asks for: count over one second plus its length. */
	private measure(until: number): number {
		let best = 0;
		let count = 0;
		for (let k = this.sent.length - 1; k >= 0; k--) {
			if (this.sent[k] > until) continue;
			if (++count >= MIN_COUNT) best = Math.max(best, count / (BURST_S + (until - this.sent[k]) / 1000));
		}
		return best;
	}

	private forget(now: number): void {
		let old = 0;
		while (old < this.sent.length && this.sent[old] < now - WINDOW_MS) old++;
		if (old > 0) this.sent.splice(0, old);
	}

	private current(now: number): number {
		return this.perSecond * (1 + PROBE) ** (Math.max(0, now - this.measuredAt) / 1000);
	}

	private refill(now: number): void {
		const rate = this.current(now);
		// One token short of the platform's bucket: its clock and ours differ a little.
		this.tokens = Math.min(Math.max(1, rate * BURST_S - 1), this.tokens + (Math.max(0, now - this.tokensAt) * rate) / 1000);
		this.tokensAt = now;
	}
}
