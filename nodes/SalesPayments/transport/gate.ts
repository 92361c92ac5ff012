import { createHash } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { sleep, sleepWithAbort } from 'n8n-workflow';

import { BoundedStore } from './boundedStore';
import type { ApiContext } from './credentials';
import { runCache, runCacheSet } from './cache';
import { Pacer } from './pacer';

/**
 * Where every request waits for its turn (transport.ts): one Gate per platform and credential in
 * the n8n process, shared by every list and per-item run of that credential, so that two runs at
 * once see the platform's limit together. A Gate holds the Pacer (the automatic window, pauses,
 * the measured rate) and counts the requests in flight. A Lane is one run's view of it: a fixed
 * Max Concurrent Requests of its own, and where a failed run stops sending.
 */

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
		const end = performance.now() + ms;
		for (let left = ms; left > 0; left = end - performance.now()) {
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
	readonly pacer = new Pacer();
	inFlight = 0;
	private readonly waiters: Waiter[] = [];
	private waking = false;

	/** Waits until a request of `lane` (for item `item`) may be sent; NotSent when its run stopped before it. */
	async acquire(lane: Lane, item = -1): Promise<void> {
		if (lane !== FREE) lane.gates.add(this);
		if (item > lane.stopAfter) throw new NotSent();
		if (this.waiters.length === 0 && this.pacer.waitMs() <= 0 && this.fits(lane)) {
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
	 * backoff) and the pause, with a token of the rate like any start; NotSent when its run stopped before it.
	 */
	async again(lane: Lane, item = -1, waitMs = 0): Promise<void> {
		await lane.pause(item, waitMs);
		for (let wait = this.pacer.waitMs(); wait > 0; wait = this.pacer.waitMs()) await lane.pause(item, wait);
		this.pacer.started(this.inFlight - 1);
	}

	/** A request of `lane` ended (its answer read, or its last attempt failed). */
	release(lane: Lane): void {
		this.pacer.inFlight = --this.inFlight;
		lane.inFlight--;
		this.pump();
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
			const wait = this.pacer.waitMs();
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
		if (this.inFlight < this.pacer.window) return true;
		// A request waited for a slot: a wider window could serve it.
		this.pacer.used = true;
		return false;
	}

	private admit(lane: Lane): void {
		this.pacer.started(this.inFlight);
		this.pacer.inFlight = ++this.inFlight;
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
