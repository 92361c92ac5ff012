/**
 * Concurrency: how many requests of the automatic window may be in flight to one platform and
 * credential (gate.ts; docs/pagination.md, "The window: pause, rate, concurrency").
 *
 * The algorithm is TCP Vegas (Brakmo and Peterson, "TCP Vegas: End to End Congestion Avoidance on a
 * Global Internet", IEEE JSAC 13(8), 1995) as Netflix's concurrency-limits applies it to requests,
 * https://github.com/Netflix/concurrency-limits/blob/master/concurrency-limits-core/src/main/java/com/netflix/concurrency/limits/limit/VegasLimit.java:
 * the requests queued at the platform are those in flight times (1 - no-load time / answer time);
 * up to THRESHOLD queued, the limit grows fast; fewer than ALPHA, by one; more than BETA, it shrinks;
 * between, it holds. VegasLimit's parameters for limits under 100: alpha 3, beta 6, threshold 1,
 * increase +1, probeMultiplier 30 (the no-load time is measured again every 30 x limit answers);
 * maxConcurrency NETWORK_MAX_CONCURRENCY. Where this differs, and why:
 * - as TCP Vegas, it is judged once a round (a window of answers; a queue above beta at half of
 *   one), not at each answer as VegasLimit: a platform answers tens of requests a second, not
 *   thousands, and one slow answer is not a queue;
 * - the fast growth is at most beta and half the limit a round (TCP Vegas' slow start), not beta;
 * - shrinking takes off the queue above alpha at once (VegasLimit takes one per answer);
 * - the initial limit is one request per START_MS of the first answer, at most START_MAX_CONCURRENCY;
 * - the no-load time is kept per kind of request (a page of 1,000 records and an order differ);
 * - a drop takes the limit down at once: a refusal (a 503, a 429 no rate explains: the platform says
 *   it cannot take more) to half (TCP's multiplicative decrease), a fault (another 5xx, a dropped
 *   connection: maybe one among many) to 0.9 of it (AIMDLimit's backoffRatio); each further drop of
 *   the same round takes one more off, at most half (a platform that took fewer than were sent).
 *   The limit that drew a refusal, or two drops in a round, becomes a ceiling: growth goes up to
 *   just below it, then tries it again after `hold` rounds, twice as many each time the same size
 *   draws drops again; past it, growth is one a round up to half again the ceiling.
 *
 * Why Vegas: it sees a platform's queue from the answers' times before any refusal, so an
 * overloaded platform is not pushed further (AIMD would grow into it until something fails); it
 * grows fast while answers keep their time, so a far platform fills the window in a few rounds; and
 * its drop input lowers the limit at once on a refusal. Gradient2 and Envoy's gradient controller
 * also read times, but follow a long-run average that a platform's queue drags up with it, and
 * Envoy pins the limit low at intervals to measure the no-load time again.
 */

/** Max Concurrent Requests 0: the window adapts. */
export const AUTO_CONCURRENCY = 0;
/** Most requests a user may fix (Max Concurrent Requests). */
export const MAX_CONCURRENCY = 16;
/**
 * The automatic window's ceiling. n8n's helper opens a new connection per request, so over HTTPS
 * each costs three round trips where a kept-alive one costs one: 3 x 8 in flight deliver what 8
 * kept-alive connections do, the most a client of a platform commonly keeps open.
 */
export const NETWORK_MAX_CONCURRENCY = 24;
/** The widest start: at most this many requests at once to a platform nothing is known of yet. */
export const START_MAX_CONCURRENCY = 12;
/** Requests in flight per START_MS of the first answer's time, at the start. */
const START_MS = 25;
const ALPHA = 3;
const BETA = 6;
const THRESHOLD = 1;
const PROBE_MULTIPLIER = 30;
/** Of the limit kept after a refusal (TCP's multiplicative decrease), and after a fault (AIMDLimit's backoffRatio). */
const REFUSED = 0.5;
const FAILED = 0.9;

export class Concurrency {
	/** Requests that may be in flight. Set by the first answer, each round's verdict and each drop; never reset. */
	limit = 1;
	/** No answer nor drop yet: the first answer sets the start. Cleared by either. */
	private fresh = true;
	/** The least answer time of each kind (Vegas's no-load time). Lowered by answers; replaced by the answer of a probe every PROBE_MULTIPLIER x limit answers. */
	private readonly noLoad = new Map<string, number>();
	private sinceProbe = 0;
	/** The round: requests sent before `roundFrom` do not judge it. Moved by each verdict and drop. */
	private roundFrom = 0;
	/** The round that drew the last cut, the limit then, and the least its further drops take the limit to. Set by a cut. */
	private cutRound = -1;
	private cutAt = 0;
	private cutFloor = 1;
	/** The cut's size became the ceiling (once a cut). */
	private cutCeiled = false;
	/** The queue each answer of the round tells. Emptied by each verdict and drop. */
	private readonly queues: number[] = [];
	/** A request waited for a slot in this round (a wider window could serve it). Cleared by each verdict and drop. */
	waited = false;
	/** The most requests in flight at an answer of this round. Cleared by each verdict and drop. */
	private peak = 0;
	/** The limit that last drew a drop. Set by a drop; cleared when a round at it ends without one. */
	private ceiling = Infinity;
	/** Rounds to wait at just below the ceiling before trying it: 0, then doubled (2 ... 32) by each drop at it; `holdLeft` counts them down. */
	private hold = 0;
	private holdLeft = 0;
	/** Past a ceiling, growth is one a round up to here (half again the ceiling). Set when a ceiling is passed. */
	private slowUntil = 0;

	/** An answer of `ms` to a request of kind `kind` sent at `sentAt`, with `inFlight` requests in flight. */
	answered(ms: number, kind: string, sentAt: number, now: number, inFlight: number): void {
		const least = this.noLoadOf(kind, ms);
		if (this.fresh) {
			this.fresh = false;
			this.limit = Math.max(this.limit, Math.min(START_MAX_CONCURRENCY, Math.floor(ms / START_MS)));
			return this.round(now);
		}
		if (sentAt < this.roundFrom) return;
		this.peak = Math.max(this.peak, inFlight);
		this.queues.push(Math.min(this.limit, inFlight) * (1 - least / ms));
		// A round is a window of answers (TCP Vegas: once a round trip); a queue above beta is acted on at half of it.
		if (this.queues.length < Math.ceil(this.limit / 2)) return;
		const queue = Math.ceil(median(this.queues));
		if (queue <= BETA && this.queues.length < Math.ceil(this.limit)) return;
		if (queue > BETA) this.limit = Math.max(1, this.limit - (queue - ALPHA));
		else if (this.waited && queue < ALPHA) {
			// A round with the ceiling in flight and no drop: it is passed, and growth past it is careful.
			if (this.peak >= this.ceiling) [this.slowUntil, this.ceiling, this.hold] = [this.ceiling * 1.5, Infinity, 0];
			// No queue: up to beta more, at most half again (TCP Vegas' slow start). Below the ceiling: up to
			// just below it, then it is tried after `hold` rounds.
			const step = queue <= THRESHOLD && this.limit >= this.slowUntil ? Math.max(1, Math.min(BETA, Math.floor(this.limit / 2))) : 1;
			if (this.limit + step < this.ceiling) this.limit += step;
			else if (this.limit < this.ceiling - 1) this.limit = this.ceiling - 1;
			else if (this.holdLeft-- <= 0) this.limit += 1;
			this.limit = Math.min(NETWORK_MAX_CONCURRENCY, this.limit);
		}
		this.round(now);
	}

	/**
	 * A drop: a request sent at `sentAt` was refused (`refusal`: a 503 or a 429, the platform says it
	 * cannot take more) or failed (a 5xx, a dropped connection: maybe one fault among many).
	 */
	dropped(sentAt: number, now: number, refusal: boolean): void {
		this.fresh = false;
		if (sentAt < this.roundFrom) {
			// Another of the round that drew the cut: the platform took fewer than were sent. One fewer for each, at most half off.
			if (sentAt < this.cutRound) return;
			this.limit = Math.max(this.cutFloor, this.limit - 1);
			if (this.cutCeiled) return;
			this.cutCeiled = true;
			this.ceil(this.cutAt);
			return;
		}
		const at = Math.max(1, Math.floor(this.limit));
		[this.cutRound, this.cutAt, this.cutFloor, this.cutCeiled] = [this.roundFrom, at, Math.max(1, Math.floor(at / 2)), refusal];
		this.limit = Math.max(1, Math.floor(this.limit * (refusal ? REFUSED : FAILED)));
		if (refusal) this.ceil(at);
		this.round(now);
	}

	/** `at` drew drops: growth goes up to just below it; the same size again waits twice as many rounds. */
	private ceil(at: number): void {
		this.hold = at >= this.ceiling ? Math.min(32, Math.max(2, this.hold * 2)) : 0;
		[this.ceiling, this.holdLeft] = [at, this.hold];
	}

	private round(from: number): void {
		this.roundFrom = from;
		this.queues.length = 0;
		this.waited = false;
		this.peak = 0;
	}

	private noLoadOf(kind: string, ms: number): number {
		const least = this.noLoad.get(kind);
		const probe = ++this.sinceProbe >= PROBE_MULTIPLIER * this.limit;
		if (probe) this.sinceProbe = 0;
		if (!probe && least !== undefined && ms >= least) return least;
		if (least === undefined && this.noLoad.size >= 64) this.noLoad.clear();
		this.noLoad.set(kind, ms);
		return ms;
	}
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}
