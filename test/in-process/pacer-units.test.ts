/**
 * The Pacer's rules on their own (issues 40 and 45): the automatic window of a platform, told about
 * attempts as the transport reports them, on a clock of the test's own; and the Gate that lets
 * requests go through it. Whole walks and runs against the simulator, near and far, are in
 * pagination-concurrency.test.ts, pagination-network.test.ts and items-side-by-side.test.ts.
 */
import type { AttemptEvent } from '../../nodes/SalesPayments/transport/retry';
import { NETWORK_MAX_CONCURRENCY, Pacer, START_MAX_CONCURRENCY } from '../../nodes/SalesPayments/transport/pacer';
import { Gate, Lane, NotSent } from '../../nodes/SalesPayments/transport/gate';

let now = 1_000_000;
beforeEach(() => {
	now = 1_000_000;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

/** An attempt that took `ms` and ends now (the clock moves on by `ms`): sent when the previous one ended. */
function attempt(pacer: Pacer, ms: number, event: Omit<AttemptEvent, 'ms'> = { status: 200 }): number {
	now += ms;
	pacer.observe({ ...event, ms });
	return pacer.window;
}

/**
 * One round: a window's worth of answers, each `ms` long and sent after the last change; `used`:
 * requests waited for a slot meanwhile (a wider window could serve them).
 */
function round(pacer: Pacer, ms: number, used = true): number {
	// Sent once the round has started (after a cut, the requests sent before it had an answer's time).
	now = Math.max(now, (pacer as unknown as { changedAt: number }).changedAt) + 1;
	pacer.used = used;
	// The window full: as many in flight as it allows.
	pacer.inFlight = pacer.window;
	const sent = now;
	const n = pacer.window;
	now += ms;
	for (let k = 0; k < n; k++) pacer.observe({ status: 200, ms: now - sent });
	return pacer.window;
}

function rounds(pacer: Pacer, n: number, ms: number, used = true): number[] {
	return Array.from({ length: n }, () => round(pacer, ms, used));
}

describe('the start', () => {
	it('a quick first answer (loopback) starts at 1; then each round grows by a step twice the last: 1, 2, 4, 8, 16, 24', () => {
		const pacer = new Pacer();
		expect(pacer.window).toBe(1);
		expect(attempt(pacer, 10)).toBe(1);
		expect(rounds(pacer, 6, 10)).toEqual([2, 4, 8, 16, NETWORK_MAX_CONCURRENCY, NETWORK_MAX_CONCURRENCY]);
	});

	it.each([
		[40, 1],
		[60, 2],
		[100, 4],
		[300, 12],
		[650, 12],
	])('a first answer of %p ms starts the window at %p (one request per 25 ms of it, at most 12)', (ms, start) => {
		expect(attempt(new Pacer(), ms)).toBe(start);
	});

	it('a wide start grows by half of it, then by steps twice as large: 12, 18, 24 on a far platform', () => {
		const pacer = new Pacer();
		expect(attempt(pacer, 650)).toBe(START_MAX_CONCURRENCY);
		expect(rounds(pacer, 3, 660)).toEqual([18, 24, 24]);
	});

	it('no wide start after a failure: the platform already asked for less', () => {
		const pacer = new Pacer();
		attempt(pacer, 600, { status: 503, retryInMs: 1000 });
		expect(attempt(pacer, 600)).toBe(1);
	});
});

describe('grow while throughput grows', () => {
	it('no growth while nothing waits for a slot (the walk keeps up, or the items are fewer than the window)', () => {
		const pacer = new Pacer();
		attempt(pacer, 600);
		expect(rounds(pacer, 5, 600, false)).toEqual([12, 12, 12, 12, 12]);
		expect(round(pacer, 600)).toBe(18);
	});

	it('answers of requests sent before the last change do not judge the new window', () => {
		const pacer = new Pacer();
		attempt(pacer, 600);
		pacer.used = true;
		// Sent before the wide start: 20 quick answers, and the window stays at 12.
		for (let k = 0; k < 20; k++) pacer.observe({ status: 200, ms: 700 });
		expect(pacer.window).toBe(12);
	});

	it('each kind of request is judged against its own fastest answer (a page of 1,000 against pages, an order against orders)', () => {
		const pacer = new Pacer();
		attempt(pacer, 10);
		pacer.observe({ status: 200, ms: 5 }, 'GET /orders/{id}');
		now += 1;
		pacer.used = true;
		const sent = now;
		now += 300;
		// A 300 ms page would be a climb against 5 ms orders: against pages (its own kind) it is its first.
		pacer.observe({ status: 200, ms: now - sent }, 'POST /movement/filter');
		expect(pacer.window).toBe(2);
	});
});

describe('stop when page times climb with no gain', () => {
	it('a growth whose answers climbed is undone, and the size that climbed is neared one at a time; tries wait 2, then 4 rounds', () => {
		const pacer = new Pacer();
		attempt(pacer, 70);
		expect(rounds(pacer, 2, 70)).toEqual([3, 5]);
		// An overloaded platform: answers 50 ms slower per request above 4 in flight.
		expect(round(pacer, 120)).toBe(3);
		expect(rounds(pacer, 2, 70)).toEqual([3, 3]);
		// Steps of 1 below the ceiling (5): 4, then 5 is tried again, undone, and the next try waits 4 rounds.
		expect(round(pacer, 70)).toBe(4);
		expect(round(pacer, 70)).toBe(5);
		expect(round(pacer, 120)).toBe(4);
		expect(rounds(pacer, 2, 70)).toEqual([4, 4]);
		expect(round(pacer, 70)).toBe(5);
		expect(round(pacer, 120)).toBe(4);
		expect(rounds(pacer, 4, 70)).toEqual([4, 4, 4, 4]);
		expect(round(pacer, 70)).toBe(5);
		// A try past the ceiling that comes back as fast lifts it: steps double again.
		expect(round(pacer, 70)).toBe(7);
	});

	it('answers that climb without a growth take off half the requests that queue: three times as slow, a third of the window', () => {
		const pacer = new Pacer();
		attempt(pacer, 650);
		rounds(pacer, 3, 650);
		expect(pacer.window).toBe(NETWORK_MAX_CONCURRENCY);
		// Queued: 24 x (1 - 1/3) = 16; half of them off.
		expect(round(pacer, 1950)).toBe(16);
		// A little slower (within 1.25 x + 10 ms): not a climb.
		expect(round(pacer, 750, false)).toBe(16);
	});

	it('the median answer judges a round: one quick answer among slow ones, or one hiccup among quick ones, does not', () => {
		const pacer = new Pacer();
		attempt(pacer, 650);
		/** Six answers (half of 12) to requests sent now, in the order they come: `quick` of 650 ms, the others of `slowMs`. */
		const mixed = (quick: number, slowMs: number) => {
			now = Math.max(now, (pacer as unknown as { changedAt: number }).changedAt) + 1;
			pacer.inFlight = pacer.window;
			const sent = now;
			now += 650;
			for (let k = 0; k < quick; k++) pacer.observe({ status: 200, ms: now - sent });
			now = sent + slowMs;
			for (let k = quick; k < 6; k++) pacer.observe({ status: 200, ms: now - sent });
			return pacer.window;
		};
		round(pacer, 650, false);
		// One hiccup of 3 s among quick answers: no climb.
		expect(mixed(5, 3000)).toBe(12);
		round(pacer, 650, false);
		// One quick among five of 3 s (fewer answers a second): a climb, and a cut.
		expect(mixed(1, 3000)).toBeLessThan(12);
	});
});

describe('faults back off, then the window grows again', () => {
	it('a 5xx or a network failure takes a quarter off, once per round; it regrows by half of that, then by steps twice as large', () => {
		const pacer = new Pacer();
		attempt(pacer, 650);
		rounds(pacer, 3, 650);
		expect(attempt(pacer, 650, { status: 502 })).toBe(18);
		// The other failures of requests sent before the back-off, or within an answer's time after it, are the same round's.
		pacer.observe({ code: 'ECONNRESET', ms: 400 });
		now += 300;
		pacer.observe({ code: 'ECONNRESET', ms: 100 });
		expect(pacer.window).toBe(18);
		expect(rounds(pacer, 3, 650)).toEqual([21, 24, 24]);
		now += 1000;
		expect(attempt(pacer, 650, { code: 'ECONNRESET' })).toBe(18);
	});

	it('a 503, or a 429 before any rate is measured, halves it, and it grows again: not a cap for the rest of the list', () => {
		for (const status of [503, 429]) {
			const pacer = new Pacer();
			attempt(pacer, 650);
			rounds(pacer, 3, 650);
			expect(attempt(pacer, 5, { status, retryInMs: 1000 })).toBe(12);
			now += 1000;
			expect(rounds(pacer, 3, 650)).toEqual([18, 24, 24]);
		}
	});

	it('an answer too large or badly encoded, or a cancelled run, is no fault of the platform', () => {
		const pacer = new Pacer();
		attempt(pacer, 650);
		for (const code of ['BODY_TOO_LARGE', 'BAD_ENCODING', 'ERR_CANCELED']) attempt(pacer, 650, { code });
		expect(pacer.window).toBe(12);
	});
});

describe('a measured rate', () => {
	/** `n` successes sent `gapMs` apart while requests overlap, then a 429 for the next one. */
	function burstThenRefusal(pacer: Pacer, n: number, gapMs: number, retryInMs?: number): void {
		pacer.started(0);
		for (let k = 0; k < n; k++) {
			pacer.started(1);
			now += gapMs;
			pacer.observe({ status: 200, ms: 1 });
		}
		pacer.observe({ status: 429, ms: 1, ...(retryInMs === undefined ? {} : { retryInMs }) });
	}

	it('a 429 measures what the platform allowed: the successes sent while requests overlapped, over one second plus that time', () => {
		const pacer = new Pacer();
		burstThenRefusal(pacer, 12, 20);
		// 12 successes in 0.24 s: 12 / 1.24 s.
		expect(pacer.rate).toBeCloseTo(12 / 1.24, 1);
	});

	it('then requests take tokens of a bucket of that rate: empty at the refusal, full (less one) a second later', () => {
		const pacer = new Pacer();
		burstThenRefusal(pacer, 10, 10);
		const rate = pacer.rate;
		expect(pacer.waitMs()).toBeGreaterThan(0);
		expect(pacer.waitMs()).toBeLessThanOrEqual(Math.ceil(1000 / rate));
		now += 1000;
		let started = 0;
		while (pacer.waitMs() === 0 && started < 100) {
			pacer.started(1);
			started++;
		}
		// One token short of a second's worth: the platform's clock and ours differ a little.
		expect(started).toBe(Math.floor(rate * 1.01 - 1));
	});

	it('successes sent before the refused request and answered after its 429 count too; the window holds', () => {
		const pacer = new Pacer();
		attempt(pacer, 650);
		burstThenRefusal(pacer, 6, 10, 1000);
		const early = pacer.rate;
		// Four more successes sent before the refused one come back after it.
		for (let k = 0; k < 4; k++) pacer.observe({ status: 200, ms: 30 });
		expect(pacer.rate).toBeCloseTo((early * 10) / 6, 5);
		expect(pacer.window).toBe(12);
	});

	it('a Retry-After pauses every new request, and the time paused is not counted as time the platform allowed', () => {
		const pacer = new Pacer();
		burstThenRefusal(pacer, 30, 10, 2000);
		expect(pacer.rate).toBeCloseTo(30 / 1.3, 1);
		expect(pacer.waitMs()).toBe(2000);
		now += 2000;
		// After the pause: 20 successes in 1 s while overlapping, then a 429: 20 / 2 s (not 20 / 4 s).
		burstThenRefusal(pacer, 20, 50, 2000);
		expect(pacer.rate).toBeCloseTo(20 / 2, 1);
	});

	it('a Retry-After under a second (a momentary refusal) measures no rate: the window backs off instead', () => {
		const pacer = new Pacer();
		attempt(pacer, 650);
		pacer.started(0);
		pacer.started(1);
		now += 10;
		pacer.observe({ status: 200, ms: 5 });
		pacer.observe({ status: 429, ms: 5, retryInMs: 0, retryAfter: true });
		expect(pacer.rate).toBe(0);
		expect(pacer.window).toBe(6);
	});

	it('a 429 while paced lowers the rate: to at most 90 % of it when the measure says little (less than a second)', () => {
		const pacer = new Pacer();
		burstThenRefusal(pacer, 10, 10, 150);
		const rate = pacer.rate;
		now += 1000;
		burstThenRefusal(pacer, 3, 10, 150);
		expect(pacer.rate).toBeCloseTo(rate * 1.01 ** 1.03 * 0.9, 1);
	});

	it('the rate grows by 1 % a second until a refusal measures it again (a limit may have been raised)', () => {
		const pacer = new Pacer();
		burstThenRefusal(pacer, 10, 10);
		now += 10_000;
		// Ten seconds later the bucket refills at 1.01^10 x the measured rate.
		const waited = pacer.waitMs();
		expect(waited).toBe(0);
		const started = Array.from({ length: 100 }).filter(() => (pacer.waitMs() === 0 ? (pacer.started(1), true) : false)).length;
		expect(started).toBe(Math.floor(pacer.rate * 1.01 ** 10 - 1));
	});
});

describe('the gate', () => {
	it('lets requests go in the order they came, as far as the window allows', async () => {
		const gate = new Gate();
		const lane = new Lane();
		const order: number[] = [];
		await gate.acquire(lane, 0);
		const waiting = [1, 2, 3].map((i) => gate.acquire(lane, i).then(() => order.push(i)));
		expect(gate.pacer.used).toBe(true);
		gate.release(lane);
		gate.release(lane);
		gate.release(lane);
		await Promise.all(waiting);
		expect(order).toEqual([1, 2, 3]);
	});

	it('Max Concurrent Requests N is N for its lane, whatever the automatic window', async () => {
		const gate = new Gate();
		const fixed = new Lane(3);
		for (let i = 0; i < 3; i++) await gate.acquire(fixed, i);
		expect(gate.inFlight).toBe(3);
		let fourth = false;
		const late = gate.acquire(fixed, 3).then(() => (fourth = true));
		await Promise.resolve();
		expect(fourth).toBe(false);
		gate.release(fixed);
		await late;
		expect(fixed.inFlight).toBe(3);
	});

	it('when an item fails, requests of later items that still wait are not sent; earlier ones are', async () => {
		const gate = new Gate();
		const lane = new Lane(1);
		await gate.acquire(lane, 2);
		const earlier = gate.acquire(lane, 1);
		const later = gate.acquire(lane, 5);
		lane.stop(2);
		await expect(later).rejects.toBeInstanceOf(NotSent);
		await expect(gate.acquire(lane, 3)).rejects.toBeInstanceOf(NotSent);
		gate.release(lane);
		await expect(earlier).resolves.toBeUndefined();
	});
});
