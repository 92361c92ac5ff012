import { sleep } from 'n8n-workflow';

import type { AttemptEvent } from './transport';

/**
 * How many page requests a list keeps in flight, told by the transport about every attempt
 * (ApiRequest.observe). Used by pagination.ts only.
 *
 * - Fixed (Max Concurrent Requests set to N): the window is N, never more.
 * - Auto: the window starts at 1 and grows while pages come back without refusals and without
 *   their time climbing (QUICK), and while the walk still waits for the pages it needs (waited): by one per page up to `slowStartLimit` (the window doubles per
 *   round trip), then by one per window of pages; up to `cap`. A page whose time climbs well
 *   above the fastest seen (CLIMBED) shrinks it by one (the platform is queueing the requests,
 *   more would only wait); a 429, 5xx or network failure halves it.
 * - Both: a 429 or 503 whose retry waits (Retry-After, or the transport's backoff) pauses every
 *   new request of the walk, not only the one that is retried. From the second 429 with a
 *   Retry-After of a second or more on, the successful requests between two such 429s over the
 *   time between them measure the rate the platform allows, and new requests are spaced to it,
 *   so that a rate-limited walk stops draining the platform's allowance into bursts of refusals.
 */
/**
 * A page is quick when it took at most QUICK x the fastest page + QUICK_MS: the time includes
 * the wait for this process to read the answer while it handles other pages, so a little climb
 * is the client's own. Beyond CLIMBED x + CLIMBED_MS the platform is queueing the requests.
 */
const QUICK = 2;
const QUICK_MS = 5;
const CLIMBED = 4;
const CLIMBED_MS = 10;
/** Longest spacing a measured rate may impose (the transport's longest Retry-After). */
const MAX_GAP_MS = 30_000;
/**
 * The cycle between two 429s includes the end of the pause, when the platform's allowance is
 * already full: measured on the simulator's token bucket, successes / cycle came out about 10%
 * below the limit, so requests are spaced 10% closer. Too close shows as a later 429, which
 * measures again over a long, paced cycle.
 */
const RATE_SLACK = 0.9;
const MIN_RATE_WINDOW_MS = 1000;

/** Max Concurrent Requests 0: the window adapts, up to AUTO_MAX_CONCURRENCY (or a walk's `autoMax`). */
export const AUTO_CONCURRENCY = 0;
export const AUTO_MAX_CONCURRENCY = 8;
/** Most concurrent page requests a list may be given. */
export const MAX_CONCURRENCY = 16;

export class Pacer {
	/** Requests that may be in flight now. */
	window: number;
	private readonly adaptive: boolean;
	private readonly cap: number;
	/** Fastest successful attempt seen (ms), the time of a page when nothing queues. */
	private fastestMs = Infinity;
	private slowStartLimit: number;
	/** Growth earned in congestion avoidance (a window's worth of good pages adds one). */
	private credit = 0;
	/** Attempts sent before this moment say nothing about the current window. */
	private changedAt = 0;
	private pausedUntil = 0;
	/** Whether the walk had to wait for the last page it needed: only then can a wider window help. */
	private starved = true;
	/** When the last 429 that was not answered to a request already in flight came, and the successes since. */
	private refusedAt: number | undefined;
	private okSinceRefusal = 0;
	/** Least time between two request starts (ms) once a rate limit is measured; 0 = none. */
	private gapMs = 0;
	private lastStartAt = 0;

	constructor(fixed: number | undefined, cap: number) {
		this.adaptive = fixed === undefined;
		this.cap = Math.max(1, this.adaptive ? cap : (fixed as number));
		this.window = this.adaptive ? 1 : this.cap;
		this.slowStartLimit = this.cap;
	}

	/** The transport's report of one attempt. */
	observe(event: AttemptEvent): void {
		const now = Date.now();
		const status = event.status;
		const refused = status === 429 || status === 503;
		if (refused && event.retryInMs !== undefined) this.pausedUntil = Math.max(this.pausedUntil, now + event.retryInMs);
		const sentAt = now - event.ms;
		if (status !== undefined && status >= 200 && status < 300) this.okSinceRefusal++;
		// A Retry-After of a second or more speaks of a rate; shorter waits are momentary refusals.
		const rateRefusal = status === 429 && (event.retryInMs ?? 0) >= MIN_RATE_WINDOW_MS;
		if (rateRefusal && (this.refusedAt === undefined || sentAt >= this.refusedAt)) {
			if (this.refusedAt !== undefined && this.okSinceRefusal >= 2) {
				this.gapMs = Math.min(MAX_GAP_MS, (RATE_SLACK * (now - this.refusedAt)) / this.okSinceRefusal);
			}
			this.refusedAt = now;
			this.okSinceRefusal = 0;
		}
		if (!this.adaptive) return;
		if (status === undefined || status === 429 || status >= 500) {
			// One halving per round trip: failures of requests sent before the last change are that change's.
			if (sentAt < this.changedAt) return;
			this.window = Math.max(1, Math.floor(this.window / 2));
			this.slowStartLimit = Math.max(1, this.window);
			this.credit = 0;
			this.changedAt = now;
			return;
		}
		if (status < 200 || status >= 300) return;
		const ms = Math.max(1, event.ms);
		if (ms < this.fastestMs) this.fastestMs = ms;
		if (sentAt < this.changedAt) return;
		if (ms > this.fastestMs * CLIMBED + CLIMBED_MS) {
			if (this.window > 1) {
				this.window--;
				this.slowStartLimit = Math.min(this.slowStartLimit, this.window);
				this.credit = 0;
				this.changedAt = now;
			}
			return;
		}
		if (ms > this.fastestMs * QUICK + QUICK_MS || this.window >= this.cap || !this.starved) return;
		if (this.window < this.slowStartLimit) {
			this.window++;
			return;
		}
		this.credit += 1 / this.window;
		if (this.credit >= 1) {
			this.credit = 0;
			this.window++;
		}
	}

	/** Waits while the walk is paused (a Retry-After being honoured) or until the measured rate allows a request. */
	async ready(): Promise<void> {
		for (;;) {
			const now = Date.now();
			const wait = Math.max(this.pausedUntil - now, this.gapMs > 0 ? this.lastStartAt + this.gapMs - now : 0);
			if (wait <= 0) return;
			await sleep(wait);
		}
	}

	/**
	 * How long the walk waited for the page it needed next. 0: the page was already there, so the
	 * pages in flight keep up and more would only hold more answers in memory (answers that come
	 * back in a millisecond while the walk spends longer on each page: the window stays small).
	 */
	waited(ms: number): void {
		this.starved = ms > 0;
	}

	/** A page request starts now. */
	started(): void {
		this.lastStartAt = Date.now();
	}
}
