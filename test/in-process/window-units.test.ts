/**
 * The window's three parts on their own (issue 51; before, issues 40 and 45's pacer): the Pause a
 * platform asks for, the Rate it allows, the automatic Concurrency, each told of attempts as the
 * gate tells them, on instants of the test's own (monotonic milliseconds); and the Gate that lets
 * requests go through them. Seeded scenarios on a virtual clock are in window-properties.test.ts;
 * whole walks and runs against the simulator in pagination-concurrency.test.ts,
 * pagination-network.test.ts, items-side-by-side.test.ts and window-cases.test.ts.
 */
import { Concurrency, NETWORK_MAX_CONCURRENCY, START_MAX_CONCURRENCY } from '../../nodes/SalesPayments/transport/concurrency';
import { Gate, Lane, NotSent } from '../../nodes/SalesPayments/transport/gate';
import { Pause, retryAfterMs } from '../../nodes/SalesPayments/transport/pause';
import { Rate, WINDOW_MS } from '../../nodes/SalesPayments/transport/rate';

const PAGES = 'POST /movement/filter';

describe('Pause', () => {
	const wallClock = () => Date.parse('Sun, 01 Mar 2026 12:00:00 GMT');

	it('reads Retry-After in seconds: whole, decimal, zero; a negative one is no wait; garbage none', () => {
		expect(retryAfterMs('2', undefined, wallClock)).toBe(2000);
		expect(retryAfterMs(' 0 ', undefined, wallClock)).toBe(0);
		expect(retryAfterMs('1.5', undefined, wallClock)).toBe(1500);
		expect(retryAfterMs('-3', undefined, wallClock)).toBe(0);
		expect(retryAfterMs('86400', undefined, wallClock)).toBe(86_400_000);
		for (const garbage of ['soon', '', undefined]) expect(retryAfterMs(garbage, undefined, wallClock)).toBeUndefined();
	});

	it('reads a Retry-After date against the answer\'s own Date header, whatever n8n\'s clock says', () => {
		// The platform 10 s behind n8n: "retry at its 12:00:02" is 2 s, not "now".
		const date = 'Sun, 01 Mar 2026 11:59:50 GMT';
		expect(retryAfterMs('Sun, 01 Mar 2026 11:59:52 GMT', date, wallClock)).toBe(2000);
		// An hour ahead: the same.
		expect(retryAfterMs('Sun, 01 Mar 2026 13:00:05 GMT', 'Sun, 01 Mar 2026 13:00:00 GMT', wallClock)).toBe(5000);
		// A date before the answer's: now. Without a readable Date header, n8n's clock is all there is.
		expect(retryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', date, wallClock)).toBe(0);
		expect(retryAfterMs('Sun, 01 Mar 2026 12:00:05 GMT', undefined, wallClock)).toBe(5000);
		expect(retryAfterMs('Sun, 01 Mar 2026 12:00:05 GMT', 'not a date', wallClock)).toBe(5000);
	});

	it('holds every request until the longest wait asked ends, on the monotonic clock', () => {
		const pause = new Pause();
		expect(pause.left(1000)).toBe(0);
		pause.hold(2000, 1000);
		pause.hold(500, 1500);
		expect(pause.left(1500)).toBe(1500);
		expect(pause.left(3000)).toBe(0);
		pause.hold(0, 4000);
		expect(pause.left(4000)).toBe(0);
	});
});

describe('Rate', () => {
	/** `n` successes sent `gapMs` apart from `from`, each answered 1 ms later; returns the instant after the last. */
	function successes(rate: Rate, n: number, gapMs: number, from: number): number {
		let at = from;
		for (let k = 0; k < n; k++, at += gapMs) rate.succeeded(at, at + 1);
		return at;
	}

	it('a 429 measures what the platform allowed: the successes of the busiest span before it, over one second plus that span', () => {
		const rate = new Rate();
		const at = successes(rate, 12, 20, 0);
		expect(rate.refused(at, at + 1)).toBe(true);
		// 12 successes from 0 to 220 ms, refused at 240: 12 / 1.24 s.
		expect(rate.perSecond).toBeCloseTo(12 / 1.24, 5);
	});

	it('nothing older than its window weighs on a measure: successes an hour before are forgotten (a rate 300 times too low, before)', () => {
		const rate = new Rate();
		successes(rate, 40, 100, 0);
		const hour = 3_600_000;
		const at = successes(rate, 15, 50, hour);
		rate.refused(at, at + 1);
		// 15 successes in 0.75 s: 15 / 1.75 s, not 55 over an hour.
		expect(rate.perSecond).toBeCloseTo(15 / 1.75, 5);
		expect(WINDOW_MS).toBeLessThanOrEqual(10_000);
	});

	it('fewer than 3 successes measure nothing (another client of the key may have emptied the bucket)', () => {
		const rate = new Rate();
		const at = successes(rate, 2, 10, 0);
		expect(rate.refused(at, at + 1)).toBe(false);
		expect(rate.perSecond).toBe(0);
	});

	it('successes sent before the refused request and answered after its 429 count too, as do later refusals of the same burst', () => {
		const rate = new Rate();
		const at = successes(rate, 6, 10, 0);
		rate.refused(at, at + 30);
		const early = rate.perSecond;
		// Four more sent before the refused one come back after it: 10 over 1.06 s.
		for (let k = 0; k < 4; k++) rate.succeeded(at - 5 + k, at + 40);
		expect(rate.perSecond).toBeGreaterThan(early);
		expect(rate.perSecond).toBeCloseTo(10 / 1.06, 1);
		// A refusal of a request sent before the measure: the same burst, no cut.
		rate.refused(at + 2, at + 50);
		expect(rate.perSecond).toBeCloseTo(10 / 1.06, 1);
	});

	it('then new requests take tokens of a bucket of that rate: empty at the refusal, one short of a second of it a second later', () => {
		const rate = new Rate();
		const at = successes(rate, 10, 10, 0);
		rate.refused(at, at);
		const perSecond = rate.perSecond;
		expect(rate.waitMs(at)).toBeGreaterThan(0);
		expect(rate.waitMs(at)).toBeLessThanOrEqual(Math.ceil(1000 / perSecond));
		let started = 0;
		while (rate.waitMs(at + 1000) === 0 && started < 100) {
			rate.take(at + 1000);
			started++;
		}
		expect(started).toBe(Math.floor(perSecond * 1.01 - 1));
	});

	it('a 429 while paced by a rate measured in its window lowers it, to at most 90 % of it', () => {
		const rate = new Rate();
		let at = successes(rate, 10, 10, 0);
		rate.refused(at, at);
		const first = rate.perSecond;
		at = successes(rate, 3, 10, at + 1000);
		rate.refused(at, at);
		expect(rate.perSecond).toBeLessThanOrEqual(first * 1.01 ** 1.03 * 0.9 + 1e-9);
	});

	it('the rate grows by 1 % a second until a 429 measures it again (a limit may have been raised)', () => {
		const rate = new Rate();
		const at = successes(rate, 10, 10, 0);
		rate.refused(at, at);
		const later = at + 10_000;
		expect(rate.waitMs(later)).toBe(0);
		const started = Array.from({ length: 100 }).filter(() => (rate.waitMs(later) === 0 ? (rate.take(later), true) : false)).length;
		expect(started).toBe(Math.floor(rate.perSecond * 1.01 ** 10 - 1));
	});
});

describe('Concurrency (TCP Vegas, as Netflix concurrency-limits VegasLimit)', () => {
	/**
	 * One round: a window's worth of answers of `ms`, to requests sent after the last change with the
	 * window full and (`waited`) requests waiting for a slot; the clock moves on.
	 */
	let now = 0;
	function round(c: Concurrency, ms: number, waited = true, kind = PAGES): number {
		now += 1;
		const sent = now;
		now += ms;
		const n = Math.ceil(c.limit);
		for (let k = 0; k < n; k++) {
			c.waited = c.waited || waited;
			c.answered(ms, kind, sent, now, n);
		}
		return Math.floor(c.limit);
	}
	const rounds = (c: Concurrency, n: number, ms: number, waited = true) => Array.from({ length: n }, () => round(c, ms, waited));
	/** The first answer, of `ms`. */
	function first(c: Concurrency, ms: number, kind = PAGES): Concurrency {
		now += ms;
		c.answered(ms, kind, now - ms, now, 1);
		return c;
	}
	beforeEach(() => {
		now = 1000;
	});

	it.each([
		[10, 1],
		[60, 2],
		[100, 4],
		[300, 12],
		[650, 12],
	])('a first answer of %p ms starts the limit at %p (one request per 25 ms of it, at most 12)', (ms, start) => {
		const c = new Concurrency();
		expect(c.limit).toBe(1);
		first(c, ms);
		expect(Math.floor(c.limit)).toBe(start);
	});

	it('answers that keep their time while requests wait: grows by half again, at most 6, up to 24 (1, 2, 3, 4, 6, 9, 13, 19, 24)', () => {
		const c = new Concurrency();
		first(c, 10);
		expect(rounds(c, 9, 10)).toEqual([2, 3, 4, 6, 9, 13, 19, 24, NETWORK_MAX_CONCURRENCY]);
	});

	it('a far platform: 12 at the first answer, then 18 and 24', () => {
		const c = new Concurrency();
		first(c, 650);
		expect(Math.floor(c.limit)).toBe(START_MAX_CONCURRENCY);
		expect(rounds(c, 3, 650)).toEqual([18, 24, 24]);
	});

	it('no growth while nothing waits for a slot (the walk keeps up, or the items are fewer than the window)', () => {
		const c = new Concurrency();
		first(c, 650);
		expect(rounds(c, 4, 650, false)).toEqual([12, 12, 12, 12]);
		expect(round(c, 650)).toBe(18);
	});

	it('answers of requests sent before the last change do not judge the new limit', () => {
		const c = new Concurrency();
		first(c, 650);
		for (let k = 0; k < 20; k++) c.answered(650, PAGES, now - 10, now + 700, 12);
		expect(Math.floor(c.limit)).toBe(12);
	});

	it('queued requests (slower than 1.25 x the no-load time + 10 ms): more than 3 takes the queue above 1 off at half a round; 1 to 3 holds', () => {
		const c = first(new Concurrency(), 650);
		rounds(c, 2, 650);
		expect(Math.floor(c.limit)).toBe(24);
		// 24 in flight, answers twice as slow: 24 x (1 - 822.5 / 1300), 8.8 queued: 8 off.
		expect(round(c, 1300)).toBe(16);
		// 16 in flight at 950 ms: about 2 queued: holds, neither grows nor shrinks.
		expect(round(c, 950)).toBe(16);
		// Within the noise allowed (1.25 x + 10 ms): no queue. One more than the queue left is tried, then one a round.
		expect(rounds(c, 3, 800)).toEqual([17, 18, 19]);
	});

	it('each kind of request is judged against its own no-load time (a page of 1,000 against pages, an order against orders)', () => {
		const c = new Concurrency();
		first(c, 10);
		first(c, 5, 'GET /orders/{id}');
		round(c, 10);
		// A 300 ms page is slow against 5 ms orders: against pages (its own kind), it is its first.
		expect(round(c, 300, true, 'POST /other/filter')).toBe(3);
	});

	it('a refusal (503, or a 429 no rate explains) halves the limit at once; it grows back to just below it, tries it after 2, then 4 rounds', () => {
		const c = new Concurrency();
		first(c, 650);
		rounds(c, 1, 650);
		expect(Math.floor(c.limit)).toBe(18);
		now += 5;
		c.dropped(now - 5, now, true);
		expect(Math.floor(c.limit)).toBe(9);
		// Up to 17, then 18 tried again, refused again: the next try waits 2 rounds.
		expect(rounds(c, 3, 650)).toEqual([13, 17, 18]);
		now += 5;
		c.dropped(now - 5, now, true);
		expect(rounds(c, 5, 650)).toEqual([13, 17, 17, 17, 18]);
	});

	it('a fault (a 5xx, a dropped connection) takes a tenth off; each further drop of the same round one more, at most half', () => {
		const c = new Concurrency();
		first(c, 650);
		rounds(c, 2, 650);
		const sent = now;
		c.dropped(sent + 1, now + 10, false);
		expect(Math.floor(c.limit)).toBe(21);
		c.dropped(sent + 2, now + 11, false);
		c.dropped(sent + 3, now + 12, false);
		expect(Math.floor(c.limit)).toBe(19);
		for (let k = 0; k < 20; k++) c.dropped(sent + 4, now + 13, false);
		expect(Math.floor(c.limit)).toBe(12);
	});

	it('never stuck at 1: from 1, answers that keep their time grow it again in a few rounds', () => {
		const c = new Concurrency();
		first(c, 650);
		for (let k = 0; k < 6; k++) {
			c.dropped(now + 1, now + 2, true);
			now += 10;
		}
		expect(Math.floor(c.limit)).toBe(1);
		expect(rounds(c, 4, 650).at(-1)).toBeGreaterThanOrEqual(2);
	});
});

describe('the gate', () => {
	it('lets requests go in the order they came, as far as the window allows', async () => {
		const gate = new Gate();
		const lane = new Lane();
		const order: number[] = [];
		await gate.acquire(lane, 0);
		const waiting = [1, 2, 3].map(async (i) => await gate.acquire(lane, i).then(() => order.push(i)));
		expect(gate.concurrency.waited).toBe(true);
		gate.release(lane);
		gate.release(lane);
		gate.release(lane);
		await Promise.all(waiting);
		expect(order).toEqual([1, 2, 3]);
	});

	it('Max Concurrent Requests N is N for its lane, counted against its own bound only: the automatic window is not held back', async () => {
		const gate = new Gate();
		const fixed = new Lane(3);
		for (let i = 0; i < 3; i++) await gate.acquire(fixed, i);
		expect(gate.inFlight).toBe(0);
		let fourth = false;
		const late = gate.acquire(fixed, 3).then(() => (fourth = true));
		await Promise.resolve();
		expect(fourth).toBe(false);
		// The automatic window (1) is free: a dropdown's request goes at once.
		const auto = new Lane();
		await gate.acquire(auto);
		expect(gate.inFlight).toBe(1);
		gate.release(fixed);
		await late;
		expect(fixed.inFlight).toBe(3);
	});

	it("a fixed lane's answers and drops never move the automatic window; its 429s still tell the rate, its Retry-After the pause", () => {
		const gate = new Gate();
		const fixed = new Lane(8);
		gate.observe({ status: 200, ms: 650 }, PAGES, new Lane());
		const window = gate.window;
		for (let k = 0; k < 30; k++) gate.observe({ status: 200, ms: 5000 }, PAGES, fixed);
		for (const event of [{ status: 503, ms: 5 }, { code: 'ECONNRESET', ms: 5 }]) gate.observe(event, PAGES, fixed);
		expect(gate.window).toBe(window);
		gate.observe({ status: 429, ms: 5, retryInMs: 2000, retryAfter: true }, PAGES, fixed);
		expect(gate.waitMs()).toBeGreaterThan(1900);
	});

	it("again(until): false at once when the pause ends after `until` (Max Retries' time), else after it", async () => {
		const gate = new Gate();
		gate.pause.hold(60_000, performance.now());
		await expect(gate.again(new Lane(), -1, 0, performance.now() + 1000)).resolves.toBe(false);
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

	it("the wall clock stepped back an hour during a pause changes nothing: the pause is on the monotonic clock", () => {
		const gate = new Gate();
		gate.observe({ status: 429, ms: 5, retryInMs: 2000, retryAfter: true }, PAGES, new Lane());
		const spy = jest.spyOn(Date, 'now').mockImplementation(() => 1_000_000 - 3_600_000);
		try {
			expect(gate.waitMs()).toBeLessThanOrEqual(2000);
		} finally {
			spy.mockRestore();
		}
	});
});
