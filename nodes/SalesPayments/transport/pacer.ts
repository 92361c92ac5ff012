import type { AttemptEvent } from './retry';

/**
 * How many requests to one platform may be in flight, and how fast they may start: one Pacer per
 * platform and credential in the process (gate.ts), told by the transport of every attempt. The
 * rules (docs/pagination.md, "The window"): start from the first answer's time; grow while answers
 * stay as fast and requests wait (more answers a second); when answers climb, compare answers a
 * second (Little's law: in flight over the median time) and undo a growth that gained nothing; faults
 * back off, then regrow like a congestion window; a 429 measures the platform's rate, paced to as a
 * token bucket; a Retry-After pause holds every request and never counts as allowed time.
 */

/** Requests in flight per START_MS of the first answer's time, at the start. */
const START_MS = 25;
/** The widest start: at most this many requests at once to a platform nothing is known of yet. */
export const START_MAX_CONCURRENCY = 12;
/**
 * The automatic window's ceiling. n8n's helper opens a new connection per request, so over HTTPS
 * each costs three round trips where a kept-alive one costs one: 3 x 8 in flight deliver what 8
 * kept-alive connections do, the most a client of a platform commonly keeps open.
 */
export const NETWORK_MAX_CONCURRENCY = 24;
/** Max Concurrent Requests 0: the window adapts. */
export const AUTO_CONCURRENCY = 0;
/** Most requests a user may fix (Max Concurrent Requests). */
export const MAX_CONCURRENCY = 16;
/** An answer climbed when it took more than CLIMB_RATIO x the fastest of its kind + CLIMB_MS. */
const CLIMB_RATIO = 1.25;
const CLIMB_MS = 10;
/** The fastest answer of a kind is the least of the last 30-60 s (a platform's speed may change). */
const FASTEST_MS = 30_000;
/** Answers a second of a round against the last round's: below FELL they fell (requests queue), above GAIN a growth paid. */
const FELL = 0.9;
const GAIN = 1.1;
/** Rounds to wait before the next growth after a growth that brought nothing: doubles up to this. */
const MAX_HOLD = 32;
/** Seconds of requests a token bucket lets through at once (its size over its rate). */
const BURST_S = 1;
/** The measured rate grows by this share each second (a limit may be raised; a 429 measures it again). */
const RATE_PROBE = 0.01;
/** A 429 while paced: the rate becomes at most this share of what it was. */
const RATE_CUT = 0.9;

interface Fastest {
	now: number;
	before: number;
	since: number;
}

export class Pacer {
	/** Requests that may be in flight now (auto). */
	window = 1;
	/** No answer yet: the first one sets the start. */
	private fresh = true;
	private step = 1;
	/** The window before the last growth, and whether the last change was a growth. */
	private lastGood = 1;
	private grew = false;
	private changedAt = 0;
	/** The round: answers to requests sent since the last change, and whether a request waited for a slot. */
	private answers = 0;
	/** The round's answers: how far each is above the climb threshold (ms), and its time over the fastest. */
	private readonly climbs: number[] = [];
	private readonly ratios: number[] = [];
	used = false;
	private hold = 0;
	private holdLeft = 0;
	/** The least window whose answers climbed: growth nears it one request at a time. */
	private ceiling = Infinity;
	/** The time of the last answer: how long requests sent before a cut still load the platform. */
	private answerMs = 0;
	/** The round's requests in flight at each answer and the answers' times; the last judged round's answers a second (0 after a cut: no comparison). */
	private readonly loads: number[] = [];
	private readonly times: number[] = [];
	private lastRate = 0;
	/** Requests in flight now (the gate counts them). */
	inFlight = 0;
	private readonly fastest = new Map<string, Fastest>();
	/** New requests wait until then (a Retry-After being honoured). */
	pausedUntil = 0;
	/** The rate the platform allows (requests/s), 0 while none is known; when it was measured. */
	rate = 0;
	private rateAt = 0;
	private tokens = 0;
	private tokensAt = 0;
	/** Since when requests overlap (or the pause ended); the send times of the successes since. */
	private busySince = 0;
	/** What the platform's bucket held then, in seconds of its rate: full at first, else what the pause refilled. */
	private credit = BURST_S;
	private readonly sentOk: number[] = [];
	/** The last measure: successes sent from `since` to `until` (the refused request), counted as their answers come. */
	private measure = { since: 0, until: 0, ok: 0, credit: BURST_S };

	/** Milliseconds a new request must wait (pause, rate); 0: it may start now. */
	waitMs(now = Date.now()): number {
		const paused = this.pausedUntil - now;
		if (paused > 0) return paused;
		if (this.rate <= 0) return 0;
		this.refill(now);
		return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.currentRate(now));
	}

	/** A request starts now, with `inFlight` others already in flight. */
	started(inFlight: number, now = Date.now()): void {
		if (this.busySince === 0 && inFlight > 0) this.busySince = now;
		if (this.rate > 0) {
			this.refill(now);
			this.tokens -= 1;
		}
	}

	/** The transport's report of one attempt of a request of kind `kind` (method and path template). */
	observe(event: AttemptEvent, kind = ''): void {
		const now = Date.now();
		const status = event.status;
		const sentAt = now - event.ms;
		// A Retry-After under a second is a momentary refusal; a longer one, or none at all, speaks of a rate.
		if (status === 429 && !(event.retryAfter && (event.retryInMs ?? 0) < 1000)) this.measureRate(sentAt, event.retryInMs ?? 0, now);
		if ((status === 429 || status === 503) && event.retryInMs !== undefined && event.retryInMs > 0) {
			this.pausedUntil = Math.max(this.pausedUntil, now + event.retryInMs);
			// The platform's allowance refills during the pause: what comes after is a new measure.
			this.busySince = 0;
		}
		if (status !== undefined && status >= 200 && status < 300) {
			if (this.busySince > 0 && sentAt >= this.busySince && this.sentOk.push(sentAt) > 4096) this.sentOk.splice(0, 2048);
			// A success sent before the refused request, answered after its 429: the allowance was that much larger.
			const m = this.measure;
			if (sentAt >= m.since && sentAt <= m.until) this.rate = ++m.ok / (m.credit + (m.until - m.since) / 1000);
			this.answered(Math.max(1, event.ms), kind, sentAt, now);
			return;
		}
		// A 429 with a measured rate is paced by it (the window holds); without one it backs off like a 503.
		const fault = status === undefined ? event.code !== undefined && !NOT_FAULTS.has(event.code) : (status === 429 && this.rate <= 0) || status >= 500;
		// One back-off per round: the failures of requests sent before the last change are that change's.
		if (!fault || sentAt < this.changedAt) return;
		this.answerMs = event.ms;
		const share = status === 429 || status === 503 ? 0.5 : 0.75;
		const before = this.window;
		this.window = Math.max(1, Math.floor(before * share));
		this.fresh = false;
		// Regrow by half what was taken off, then by steps twice as large (a fault is not a new limit).
		this.step = Math.max(1, Math.ceil((before - this.window) / 2));
		this.lastRate = 0;
		this.change(false, now);
	}

	private answered(ms: number, kind: string, sentAt: number, now: number): void {
		const fastest = this.fastestOf(kind, ms, now);
		this.answerMs = ms;
		if (this.fresh) {
			// The first answer tells how far the platform is: one request per START_MS of it.
			this.fresh = false;
			const start = Math.max(1, Math.min(START_MAX_CONCURRENCY, Math.floor(ms / START_MS)));
			if (start > this.window) {
				this.lastGood = this.window;
				this.window = start;
				this.step = Math.ceil(start / 2);
				// One request in flight: what a wide start that only queues would not beat.
				this.lastRate = 1000 / ms;
				this.change(true, now);
				return;
			}
		}
		if (sentAt < this.changedAt) return;
		this.answers++;
		this.loads.push(this.inFlight);
		this.times.push(ms);
		this.climbs.push(ms - (fastest * CLIMB_RATIO + CLIMB_MS));
		this.ratios.push(ms / fastest);
		if (this.answers < Math.ceil(this.window / 2)) return;
		// Answers a second of this round, against the last round's: requests in flight over an answer's time.
		const rate = (mean(this.loads) * 1000) / median(this.times);
		const [fell, gained] = [rate < this.lastRate * FELL, rate > this.lastRate * GAIN];
		this.lastRate = rate;
		// The median answer judges the round: not one that met few others in flight, nor one hiccup.
		const climbed = median(this.climbs) > 0;
		if (climbed && (fell || (this.grew && !gained))) {
			// Slower answers and no more of them a second: the size that climbed is a ceiling, neared
			// one at a time from now on, and the next growth waits.
			this.ceiling = Math.min(this.ceiling, this.window);
			if (this.grew) {
				this.hold = Math.min(MAX_HOLD, Math.max(2, this.hold * 2));
				this.holdLeft = this.hold;
			}
			this.step = 1;
			// After a growth that brought nothing, back to the window before it (as many answers a second
			// for fewer requests on the platform). Without one, fewer: the requests queue at the
			// platform, half of those queued off (answers twice as slow: a quarter of the window).
			const queued = this.window * (1 - 1 / median(this.ratios));
			this.window = Math.max(1, this.grew ? this.lastGood : this.window - Math.max(1, Math.floor(queued / 2)));
			this.lastRate = 0;
			return this.change(false, now);
		}
		// Slower answers, as many a second: the price of a full pipe (or of this process' own work).
		if (climbed && !this.grew) return this.change(false, now, false);
		if (this.grew) {
			this.hold = 0;
			// Past the ceiling and no slower: the platform takes more now.
			if (this.window >= this.ceiling) this.ceiling = Infinity;
		}
		if (!this.used || this.window >= NETWORK_MAX_CONCURRENCY || this.holdLeft-- > 0) {
			this.change(false, now, false);
			return;
		}
		const step = this.window + this.step >= this.ceiling ? 1 : this.step;
		this.lastGood = this.window;
		this.window = Math.min(NETWORK_MAX_CONCURRENCY, this.window + step);
		this.step = step * 2;
		this.change(true, now);
	}

	/**
	 * A new round starts now; `moved`: the window changed (answers to earlier requests no longer judge
	 * it). After a cut, the requests sent before it still load the platform for an answer's time:
	 * the round starts with the requests sent after that.
	 */
	private change(grew: boolean, now: number, moved = true): void {
		const cut = moved && !grew;
		this.grew = grew;
		if (moved) this.changedAt = now + (cut ? this.answerMs : 0);
		this.answers = 0;
		this.loads.length = 0;
		this.times.length = 0;
		this.climbs.length = 0;
		this.ratios.length = 0;
		this.used = false;
	}

	/** The fastest answer of this kind in the last 30-60 s, this one included. */
	private fastestOf(kind: string, ms: number, now: number): number {
		let f = this.fastest.get(kind);
		if (!f) {
			if (this.fastest.size >= 64) this.fastest.clear();
			this.fastest.set(kind, (f = { now: ms, before: ms, since: now }));
		}
		if (now - f.since > FASTEST_MS) [f.before, f.now, f.since] = [f.now, ms, now];
		f.now = Math.min(f.now, ms);
		return Math.min(f.now, f.before);
	}

	/**
	 * A 429 for a request sent at `sentAt`, paused `pauseMs`: the successes sent in the busy time
	 * before it, over that time plus what the bucket held when it began (`credit`). Once a rate
	 * paces the requests, a 429 says it was too high: the new one is at most RATE_CUT of it (a
	 * measure over less than a second after a short pause says little).
	 */
	private measureRate(sentAt: number, pauseMs: number, now: number): void {
		const [since, credit] = [this.busySince, this.credit];
		const ok = this.sentOk.filter((at) => at <= sentAt).length;
		this.sentOk.length = 0;
		this.busySince = 0;
		// The bucket is empty now; the pause refills it, up to BURST_S of its rate.
		this.credit = Math.min(BURST_S, pauseMs / 1000);
		// Refusals of requests sent before the last measure are the same burst's.
		if (since === 0 || sentAt < since) return;
		const span = (sentAt - since) / 1000;
		const measured = ok / (credit + span);
		if (this.rate > 0) {
			this.measure.until = 0;
			this.rate = Math.min(this.currentRate(now) * RATE_CUT, credit + span >= BURST_S ? measured : Infinity);
		} else {
			// The successes answered later (sent before this request) count as they come.
			this.measure = { since, until: sentAt, ok, credit };
			this.rate = measured;
		}
		this.rateAt = now;
		// The platform's bucket is empty now; ours refills from here, during the pause too.
		this.tokens = 0;
		this.tokensAt = now;
	}

	private currentRate(now: number): number {
		return this.rate * (1 + RATE_PROBE) ** (Math.max(0, now - this.rateAt) / 1000);
	}

	private refill(now: number): void {
		const rate = this.currentRate(now);
		// One token short of the bucket the platform is taken to have: its clock and ours differ a little.
		this.tokens = Math.min(Math.max(1, rate * BURST_S - 1), this.tokens + ((now - this.tokensAt) * rate) / 1000);
		this.tokensAt = now;
	}
}

function mean(values: number[]): number {
	return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** Failures that say nothing of the platform's load: the answer was too large or badly encoded, or the run was cancelled. */
const NOT_FAULTS = new Set(['BODY_TOO_LARGE', 'BAD_ENCODING', 'ERR_CANCELED']);
