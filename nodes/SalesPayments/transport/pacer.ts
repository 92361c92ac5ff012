import { sleep } from 'n8n-workflow';

import type { AttemptEvent } from './transport';

/**
 * How many page requests a list keeps in flight, told by the transport about every attempt
 * (ApiRequest.observe). Used by the walk (paging/walk.ts) only.
 *
 * - Fixed (Max Concurrent Requests set to N): the window is N, never more.
 * - Auto: the window starts at 1, or wider when the first page took long: one request per START_MS
 *   of its time, at most `cap` (a platform 200 ms away answers a first page in about 600 ms: 8,
 *   where the window used to spend three round trips getting to). A wide start is on trial: the
 *   pages sent at it must come back quick, else it halves once per round trip until they do (the
 *   first page was slow because the platform was, and more requests slow it further). The window
 *   grows while pages come back without refusals and without their time climbing (QUICK), and
 *   while the walk still waits for the pages it needs (waited): by one per page up to
 *   `slowStartLimit` (the window doubles per round trip), then by one per window of pages; up to
 *   `limit`: `cap`, or with the default cap, when pages are slow because of the network, one
 *   request per START_MS of the fastest page, at most NETWORK_MAX_CONCURRENCY (see there). Past
 *   `cap`, a page that is not quick brings the window back to `cap` at once. A page whose time
 *   climbs well above the fastest seen (CLIMBED) shrinks it by one (the platform is queueing the
 *   requests, more would only wait); a 429, 5xx or network failure halves it.
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
/**
 * The automatic window's bound when pages are slow because of the network. n8n's helper opens a
 * new connection for every request, so over HTTPS each one costs three round trips (TCP and TLS
 * 1.3 handshakes, then the request) where a kept-alive connection costs one: 3 x 8 requests in
 * flight deliver what 8 kept-alive connections do, the most a client of a platform commonly
 * keeps open. Reached only when the fastest page takes 24 x START_MS (600 ms: a platform about
 * 200 ms away) and page times do not climb as the window grows; the walk's own work (about 20 ms
 * of CPU a page of 1,000 over HTTPS) would not keep up with many more.
 */
export const NETWORK_MAX_CONCURRENCY = 24;
/**
 * What one more request in flight is worth on a slow trip: the window starts at (first page's
 * time / START_MS) and may grow to (fastest page's time / START_MS), within the bounds above. On
 * loopback a page of 1,000 takes 5-20 ms, so the window starts at 1 and stays within 8, as before.
 */
const START_MS = 25;
/** Most concurrent page requests a list may be given (Max Concurrent Requests). */
export const MAX_CONCURRENCY = 16;

export class Pacer {
	/** Requests that may be in flight now. */
	window: number;
	private readonly adaptive: boolean;
	private readonly cap: number;
	/** Whether the window may pass `cap` on a long trip (the default cap; never for a walk's own `autoMax`). */
	private readonly network: boolean;
	/** Fastest successful attempt seen (ms), the time of a page when nothing queues. */
	private fastestMs = Infinity;
	private slowStartLimit: number;
	/** Growth earned in congestion avoidance (a window's worth of good pages adds one). */
	private credit = 0;
	/** Attempts sent before this moment say nothing about the current window. */
	private changedAt = 0;
	/** The window started wide on the first answer's time and no page has confirmed it yet. */
	private trial = false;
	/** A 429, 5xx or network failure was seen: the platform has a limit of its own, and the window stays within `cap` (a halving past it lands there). */
	private limited = false;
	private pausedUntil = 0;
	/** Whether the walk had to wait for the last page it needed: only then can a wider window help. */
	private starved = true;
	/** When the last 429 that was not answered to a request already in flight came, and the successes since. */
	private refusedAt: number | undefined;
	private okSinceRefusal = 0;
	/** Least time between two request starts (ms) once a rate limit is measured; 0 = none. */
	private gapMs = 0;
	private lastStartAt = 0;

	/** `cap`: the automatic window's bound (a walk's `autoMax`); without one, AUTO_MAX_CONCURRENCY, passed on long trips. */
	constructor(fixed: number | undefined, cap?: number) {
		this.adaptive = fixed === undefined;
		this.network = this.adaptive && cap === undefined;
		this.cap = Math.max(1, this.adaptive ? (cap ?? AUTO_MAX_CONCURRENCY) : (fixed as number));
		this.window = this.adaptive ? 1 : this.cap;
		this.slowStartLimit = this.network ? NETWORK_MAX_CONCURRENCY : this.cap;
	}

	/** The most the window may be now: `cap`, or on a long trip one request per START_MS of the fastest page. */
	get limit(): number {
		if (!this.network || this.limited || this.fastestMs === Infinity) return this.cap;
		return Math.min(NETWORK_MAX_CONCURRENCY, Math.max(this.cap, Math.floor(this.fastestMs / START_MS)));
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
			this.limited = true;
			// One halving per round trip: failures of requests sent before the last change are that change's.
			if (sentAt < this.changedAt) return;
			this.window = Math.max(1, Math.min(this.cap, Math.floor(this.window / 2)));
			this.slowStartLimit = Math.max(1, this.window);
			this.credit = 0;
			this.changedAt = now;
			this.trial = false;
			return;
		}
		if (status < 200 || status >= 300) return;
		const ms = Math.max(1, event.ms);
		const first = this.fastestMs === Infinity;
		if (ms < this.fastestMs) this.fastestMs = ms;
		// The first answer, before any refusal: a long one starts the window wider (at most `cap`), on trial.
		const start = Math.min(this.cap, Math.floor(ms / START_MS));
		if (first && !this.limited && start > this.window) {
			this.window = start;
			this.trial = true;
			this.changedAt = now;
			return;
		}
		if (sentAt < this.changedAt) return;
		const quick = ms <= this.fastestMs * QUICK + QUICK_MS;
		if (this.trial) {
			// The first pages at the wide start were not quick: the trip was long because the platform
			// was slow, and it slows further under more requests. Halve (once per round trip) until they
			// are; from there the window grows as it would have from 1 (by one per quick page).
			if (!quick) {
				this.window = Math.max(1, Math.floor(this.window / 2));
				this.trial = this.window > 1;
				this.credit = 0;
				this.changedAt = now;
				return;
			}
			this.trial = false;
		}
		if (!quick && this.window > this.cap) {
			// Past `cap` the window stands for a trip that is long by itself: a page twice as slow as the
			// fastest says the platform is queueing (or this process cannot keep up). Back to `cap` at once;
			// past it again only one per window of quick pages.
			this.window = this.cap;
			this.slowStartLimit = this.cap;
			this.credit = 0;
			this.changedAt = now;
			return;
		}
		if (ms > this.fastestMs * CLIMBED + CLIMBED_MS) {
			if (this.window > 1) {
				this.window--;
				this.slowStartLimit = Math.min(this.slowStartLimit, this.window);
				this.credit = 0;
				this.changedAt = now;
			}
			return;
		}
		if (!quick || this.window >= this.limit || !this.starved) return;
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

	/**
	 * Waits while the walk is paused (a Retry-After being honoured) or until the measured rate allows
	 * a request. A window no page has shown the platform to take yet (a wide start on trial, or past
	 * `cap`) fills at one request start per START_MS: over part of a trip (the window is at most the
	 * page's time / START_MS), not in one burst that would empty a platform's allowance at once.
	 */
	async ready(): Promise<void> {
		for (;;) {
			const now = Date.now();
			const gap = Math.max(this.gapMs, this.trial || this.window > this.cap ? START_MS : 0);
			const wait = Math.max(this.pausedUntil - now, gap > 0 ? this.lastStartAt + gap - now : 0);
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
