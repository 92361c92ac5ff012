import { createHash } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { sleep, sleepWithAbort } from 'n8n-workflow';

import { BoundedStore } from './boundedStore';
import type { ApiContext } from './credentials';
import { runCache, runCacheSet } from './cache';
import { Concurrency } from './concurrency';
import { monotonic, Pause } from './pause';
import { Rate } from './rate';
import type { AttemptEvent } from './retry';

/**
 * Where every request waits for its turn (transport.ts): one Gate per platform and credential in
 * the n8n process, shared by every list and per-item run of that credential, so that two runs at
 * once see the platform's limit together. A Gate holds the window's three parts (docs/pagination.md,
 * "The window: pause, rate, concurrency"): the Pause a platform asked for, the Rate it allows and
 * the automatic Concurrency, and counts the automatic requests in flight. A Lane is one run's view
 * of it: a fixed Max Concurrent Requests of its own, counted against that bound only (it never holds
 * back nor shrinks the automatic window), and where a failed run stops sending.
 */

/** Failures that say nothing of the platform's load: the answer was too large or badly encoded, or the run was cancelled. */
const NOT_FAULTS = new Set(['BODY_TOO_LARGE', 'BAD_ENCODING', 'ERR_CANCELED']);

/** A request that was never sent: an earlier item of the run failed and the run stops. */
export class NotSent extends Error {
	constructor() {
		super('Not sent: an earlier item failed and the run stopped');
	}
}

export class Lane {
	/** Requests of this lane in flight. */
	inFlight = 0;
	/** Requests of items after this index are not sent any more. */
	stopAfter = Infinity;
	/** Gates where requests of this lane may wait (told when the lane stops). */
	readonly gates = new Set<Gate>();

	/** `fixed`: Max Concurrent Requests N (the lane's own bound); undefined: the Gate's automatic window. */
	constructor(readonly fixed?: number) {}

	/** Retries of this lane waiting out their wait: a stop wakes them. */
	private readonly pausing = new Set<AbortController>();

	/** Item `item` failed: requests of later items that still wait are not sent, nor retried. */
	stop(item: number): void {
		this.stopAfter = Math.min(this.stopAfter, item);
		for (const pausing of this.pausing) pausing.abort();
		for (const gate of this.gates) gate.pump();
	}

	/** Throws NotSent when a request of item `item` may no longer be sent: checked before every attempt. */
	check(item = -1): void {
		if (item > this.stopAfter) throw new NotSent();
	}

	/** Waits `ms` (monotonic) before a retry of item `item`; a stop that covers the item ends the wait with NotSent. */
	async pause(item: number, ms: number): Promise<void> {
		const end = monotonic() + ms;
		for (let left = ms; left > 0; left = end - monotonic()) {
			this.check(item);
			// One controller per wait: sleepWithAbort leaves its listener on the signal.
			const wake = new AbortController();
			this.pausing.add(wake);
			try {
				await sleepWithAbort(left, wake.signal);
			} catch {
				// A stop woke it (sleepWithAbort rejects on abort): the check above ends it, or the wait goes on for an earlier item.
			} finally {
				this.pausing.delete(wake);
			}
		}
		this.check(item);
	}
}

/** The lane of requests outside a run that set one (dropdowns, triggers, polls): the automatic window. */
const FREE = new Lane();

interface Waiter {
	lane: Lane;
	item: number;
	resolve(): void;
	reject(error: Error): void;
}

export class Gate {
	readonly pause = new Pause();
	readonly rate = new Rate();
	readonly concurrency = new Concurrency();
	/** Requests of the automatic window in flight (a fixed lane's are counted in its lane only). */
	inFlight = 0;
	private readonly waiters: Waiter[] = [];
	private waking = false;

	/** Requests the automatic window lets be in flight now. */
	get window(): number {
		return Math.floor(this.concurrency.limit);
	}

	/** Milliseconds a new request must wait: the pause, else the rate's next token; 0: none. */
	waitMs(now = monotonic()): number {
		return this.pause.left(now) || this.rate.waitMs(now);
	}

	/** Waits until a request of `lane` (for item `item`) may be sent; NotSent when its run stopped before it. */
	async acquire(lane: Lane, item = -1): Promise<void> {
		if (lane !== FREE) lane.gates.add(this);
		if (item > lane.stopAfter) throw new NotSent();
		if (this.waiters.length === 0 && this.waitMs() <= 0 && this.fits(lane)) {
			this.admit(lane);
			return;
		}
		await new Promise<void>((resolve, reject) => {
			this.waiters.push({ lane, item, resolve, reject });
			this.pump();
		});
	}

	/**
	 * A request of `lane` that holds its slot sends again (a retry) after `waitMs` (its Retry-After or
	 * backoff) and the pause, with a token of the rate like any start. False, at once, when the pause
	 * ends after `until` (the time its Max Retries allow); NotSent when its run stopped before it.
	 */
	async again(lane: Lane, item = -1, waitMs = 0, until = Infinity): Promise<boolean> {
		await lane.pause(item, waitMs);
		for (let now = monotonic(), wait = this.waitMs(now); wait > 0; now = monotonic(), wait = this.waitMs(now)) {
			if (now + this.pause.left(now) > until) return false;
			await lane.pause(item, wait);
		}
		this.rate.take(monotonic());
		return true;
	}

	/** A request of `lane` ended (its answer read, or its last attempt failed). */
	release(lane: Lane): void {
		if (lane.fixed === undefined) this.inFlight--;
		lane.inFlight--;
		this.pump();
	}

	/**
	 * The transport's report of one attempt of a request of `lane`, of kind `kind` (method and path
	 * template): each part learns what it is told. A fixed lane's answers and drops never move the
	 * automatic window; its refusals still tell the platform's pause and rate.
	 */
	observe(event: AttemptEvent, kind: string, lane: Lane): void {
		const now = monotonic();
		const sentAt = now - event.ms;
		const status = event.status;
		if ((status === 429 || status === 503) && event.retryInMs !== undefined) this.pause.hold(event.retryInMs, now);
		const auto = lane.fixed === undefined;
		if (status !== undefined && status >= 200 && status < 300) {
			this.rate.succeeded(sentAt, now);
			if (auto) this.concurrency.answered(Math.max(1, event.ms), kind, sentAt, now, this.inFlight);
			return;
		}
		// A Retry-After under a second is a momentary refusal; a longer one, or none, speaks of a rate.
		const momentary = event.retryAfter === true && (event.retryInMs ?? 0) < 1000;
		if (status === 429 && !momentary && this.rate.refused(sentAt, now)) return;
		const drop = status === undefined ? event.code !== undefined && !NOT_FAULTS.has(event.code) : status === 429 || status >= 500;
		// A 503 or 429 says the platform cannot take this many; a 5xx or a reset may be one fault of many.
		if (drop && auto) this.concurrency.dropped(sentAt, now, status === 503 || status === 429);
	}

	/** Lets waiting requests go, in the order they came, as far as the window, the pause and the rate allow. */
	pump(): void {
		for (let k = 0; k < this.waiters.length; ) {
			const waiter = this.waiters[k];
			if (waiter.item > waiter.lane.stopAfter) {
				this.waiters.splice(k, 1);
				waiter.reject(new NotSent());
				continue;
			}
			const wait = this.waitMs();
			if (wait > 0) return this.wakeIn(wait);
			if (!this.fits(waiter.lane)) {
				k++;
				continue;
			}
			this.waiters.splice(k, 1);
			this.admit(waiter.lane);
			waiter.resolve();
		}
	}

	private fits(lane: Lane): boolean {
		if (lane.fixed !== undefined) return lane.inFlight < lane.fixed;
		if (this.inFlight < this.window) return true;
		// A request waited for a slot: a wider window could serve it.
		this.concurrency.waited = true;
		return false;
	}

	private admit(lane: Lane): void {
		this.rate.take(monotonic());
		if (lane.fixed === undefined) this.inFlight++;
		lane.inFlight++;
	}

	private wakeIn(ms: number): void {
		if (this.waking) return;
		this.waking = true;
		void sleep(ms).then(() => {
			this.waking = false;
			this.pump();
		});
	}
}

/**
 * The gates of this process, one per platform (the credential's origin) and credential (its API
 * key or user name, hashed: never kept in clear). Bounded; a gate idle for 10 minutes is dropped,
 * and what it learned with it.
 */
export const GATES = new BoundedStore<string, Gate>('request windows', { maxEntries: 256, idleMs: 10 * 60_000, touchOnRead: true });

/** The gate of a credential's platform. */
export function gateOf(ctx: ApiContext, credentialType: string, credentials: ICredentialDataDecryptedObject, origin: string): Gate {
	const key = runCache(ctx, `gate:${credentialType}:${origin}`, () => {
		const who = String(credentials.apiKey ?? credentials.username ?? '');
		return createHash('sha256').update(`${credentialType}\n${origin}\n${who}`).digest('hex');
	});
	return GATES.getOrCreate(key, () => new Gate());
}

/** The lane of this run (set by the action node for its items), or the automatic window's. */
export function laneOf(ctx: ApiContext): Lane {
	return runCache<Lane>(ctx, 'lane', () => FREE);
}

export function setLane(ctx: ApiContext, lane: Lane): void {
	runCacheSet(ctx, 'lane', lane);
}
