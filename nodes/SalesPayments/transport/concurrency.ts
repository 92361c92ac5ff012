/**
 * Concurrency: how many requests of the automatic window may be in flight (gate.ts; docs/pagination.md,
 * "The window: pause, rate, concurrency"). TCP Vegas (Brakmo and Peterson, IEEE JSAC 13(8), 1995) as
 * Netflix's concurrency-limits applies it to requests (https://github.com/Netflix/concurrency-limits,
 * limit/VegasLimit.java): the requests queued at the platform are those in flight x (1 - no-load time /
 * answer time). Parameters: TCP Vegas' alpha 1, beta 3, gamma 1 (not VegasLimit's 3 and 6: a page
 * queued here costs every other request its time); VegasLimit's probeMultiplier 30 (a kind's no-load
 * time measured afresh every 30 x limit answers); at most NETWORK_MAX_CONCURRENCY. Judged once a round
 * (a window of answers, TCP Vegas' round trip) on its mean queue: at most gamma grows it by half, at
 * most STEP (slow start); above beta takes the queue above alpha off, at half a round. The no-load
 * time is the fastest answer of its kind, with TOLERANCE for noise; the start, one request per
 * START_MS of the first answer. A drop takes it down at once: a refusal (503, a 429 no
 * rate explains) to REFUSED (TCP's multiplicative decrease), a fault (another 5xx, a reset) to FAILED
 * (AIMDLimit's backoffRatio), each further drop of that round one more, at most half. A size that
 * was refused or drew two drops in a round (or one more than a queue left) is a ceiling: growth stops
 * below it and tries it after `hold` rounds (doubled at each new failure); past it, one a round up to
 * half again its size.
 * Why Vegas: it sees a platform's queue in the answers' times before anything fails (AIMD grows until
 * something does), grows fast while answers keep their time, and lowers the limit at once on a drop;
 * Gradient2 and Envoy's gradient controller follow a long-run average a platform's queue drags up.
 */

/** Max Concurrent Requests 0: the window adapts. */
export const AUTO_CONCURRENCY = 0;
/** Most requests a user may fix (Max Concurrent Requests). */
export const MAX_CONCURRENCY = 16;
/** The automatic window's ceiling: n8n's helper pays three round trips a request, so 3 x 8 in flight do what 8 kept-alive connections do. */
export const NETWORK_MAX_CONCURRENCY = 24;
/** The widest start: at most this many requests at once to a platform nothing is known of yet. */
export const START_MAX_CONCURRENCY = 12;
const START_MS = 25;
const [ALPHA, BETA, GAMMA, STEP, PROBE_MULTIPLIER] = [1, 3, 1, 6, 30];
const [REFUSED, FAILED] = [0.5, 0.9];
/** An answer within 1.25 x + 10 ms of its kind's fastest is taken at no load (noise of a network or a busy n8n, not a queue). */
const [TOLERANCE, TOLERANCE_MS] = [1.25, 10];

export class Concurrency {
	/** Requests that may be in flight. Set by the first answer, each round's verdict and each drop; never reset. */
	limit = 1;
	/** No answer nor drop yet. Cleared by the first of either. */
	private fresh = true;
	/** The least answer of each kind (the no-load time): lowered by answers, replaced by every PROBE_MULTIPLIER x limit-th. */
	private readonly noLoad = new Map<string, number>();
	/** Answers since the last probe: counted by answers, reset by a probe. */
	private sinceProbe = 0;
	/** The round: requests sent from `roundFrom` on judge it; their queues, the most in flight, whether one waited for a slot (set by the gate). Reset by each verdict and drop. */
	private roundFrom = 0;
	private readonly queues: number[] = [];
	private peak = 0;
	waited = false;
	/** The last cut: its round, the limit then, the least its further drops go to, whether it became the ceiling. Set by a cut. */
	private cut = { round: -1, at: 0, floor: 1, ceiled: false };
	/** The size that queued or drew drops, and the rounds to wait before trying it (`holdLeft` counts them). Set by `ceil()`; cleared once passed. */
	private ceiling = Infinity;
	private hold = 0;
	private holdLeft = 0;
	/** Past a ceiling, growth is one a round up to this. Set when a ceiling is passed. */
	private slowUntil = 0;

	/** An answer of `ms` to a request of kind `kind` sent at `sentAt`, `inFlight` requests in flight. */
	answered(ms: number, kind: string, sentAt: number, now: number, inFlight: number): void {
		const least = this.noLoadOf(kind, ms);
		if (this.fresh) {
			this.fresh = false;
			this.limit = Math.max(this.limit, Math.min(START_MAX_CONCURRENCY, Math.floor(ms / START_MS)));
			return this.round(now);
		}
		if (sentAt < this.roundFrom) return;
		this.peak = Math.max(this.peak, inFlight);
		this.queues.push(Math.min(this.limit, inFlight) * Math.max(0, 1 - (least * TOLERANCE + TOLERANCE_MS) / ms));
		if (this.queues.length < Math.ceil(this.limit / 2)) return;
		const queued = this.queues.reduce((sum, q) => sum + q, 0) / this.queues.length;
		if (queued > BETA) {
			// Where the queue would be alpha; one more than that is tried after `hold` rounds.
			this.limit = Math.max(1, this.limit - Math.ceil(queued - ALPHA));
			this.ceil(Math.floor(this.limit) + 1);
		} else if (this.queues.length < Math.ceil(this.limit)) return;
		else if (this.waited && queued <= GAMMA) this.grow();
		this.round(now);
	}

	/** A drop: a request sent at `sentAt` was refused (`refusal`: the platform cannot take more) or failed. */
	dropped(sentAt: number, now: number, refusal: boolean): void {
		this.fresh = false;
		const cut = this.cut;
		if (sentAt < this.roundFrom) {
			// Another of the round that drew the cut: the platform took fewer than were sent.
			if (sentAt < cut.round) return;
			this.limit = Math.max(cut.floor, this.limit - 1);
			if (!cut.ceiled) this.ceil(cut.at);
			return;
		}
		const at = Math.max(1, Math.floor(this.limit));
		this.cut = { round: this.roundFrom, at, floor: Math.max(1, Math.floor(at / 2)), ceiled: refusal };
		this.limit = Math.max(1, Math.floor(this.limit * (refusal ? REFUSED : FAILED)));
		if (refusal) this.ceil(at);
		this.round(now);
	}

	private grow(): void {
		// A round with the ceiling in flight and no drop: passed, and careful past it.
		if (this.peak >= this.ceiling) [this.slowUntil, this.ceiling, this.hold] = [this.ceiling * 1.5, Infinity, 0];
		const step = this.limit >= this.slowUntil ? Math.max(1, Math.min(STEP, Math.floor(this.limit / 2))) : 1;
		if (this.limit + step < this.ceiling) this.limit += step;
		else if (this.limit < this.ceiling - 1) this.limit = this.ceiling - 1;
		else if (this.holdLeft-- <= 0) this.limit += 1;
		this.limit = Math.min(NETWORK_MAX_CONCURRENCY, this.limit);
	}

	private ceil(at: number): void {
		this.cut.ceiled = true;
		this.hold = at >= this.ceiling ? Math.min(32, Math.max(2, this.hold * 2)) : 0;
		[this.ceiling, this.holdLeft] = [at, this.hold];
	}

	private round(from: number): void {
		[this.roundFrom, this.queues.length, this.peak, this.waited] = [from, 0, 0, false];
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

