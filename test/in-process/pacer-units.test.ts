/**
 * The Pacer's rules on their own (issue 40): the automatic window told about attempts as the
 * transport reports them, on a clock of the test's own. Whole walks against the simulator, near and
 * far, are in pagination-concurrency.test.ts and pagination-network.test.ts.
 */
import type { AttemptEvent } from '../../nodes/SalesPayments/transport/transport';
import { AUTO_MAX_CONCURRENCY, NETWORK_MAX_CONCURRENCY, Pacer } from '../../nodes/SalesPayments/transport/pacer';

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

/** `n` answers of `ms` each, the walk waiting for every one. */
function pages(pacer: Pacer, n: number, ms: number): number {
	for (let k = 0; k < n; k++) {
		pacer.waited(1);
		attempt(pacer, ms);
	}
	return pacer.window;
}

describe('the start', () => {
	it('on loopback (a first page of 10 ms) the window starts at 1 and grows by one per quick page, to 8 and no further', () => {
		const pacer = new Pacer(undefined);
		expect(pacer.window).toBe(1);
		expect(attempt(pacer, 10)).toBe(2);
		expect(pages(pacer, 5, 10)).toBe(7);
		expect(pages(pacer, 100, 10)).toBe(AUTO_MAX_CONCURRENCY);
	});

	it.each([
		[40, 1],
		[60, 2],
		[100, 4],
		[300, 8],
		[600, 8],
	])('a first page of %p ms starts the window at %p (one request per 25 ms of it, at most 8)', (ms, start) => {
		const pacer = new Pacer(undefined);
		const window = attempt(pacer, ms);
		// At most 1 (no wide start): the usual growth by one.
		expect(window).toBe(start === 1 ? 2 : start);
	});

	it('no wide start after a failure: the platform already asked for less', () => {
		const pacer = new Pacer(undefined);
		attempt(pacer, 600, { status: 503, retryInMs: 1000 });
		// The usual growth by one, from 1.
		expect(attempt(pacer, 600)).toBe(2);
	});

	it('a wide start is on trial: pages that are not quick halve it once per round trip, until one is quick', () => {
		const pacer = new Pacer(undefined);
		expect(attempt(pacer, 200)).toBe(8);
		// 450 ms > 2 x 200 + 5: the platform was slow, and slower under 8 requests.
		expect(attempt(pacer, 450)).toBe(4);
		// Sent before that change (the other pages of the window of 8): they say nothing about a window of 4.
		now -= 450;
		pacer.observe({ status: 200, ms: 460 });
		now += 450;
		expect(pacer.window).toBe(4);
		expect(attempt(pacer, 420)).toBe(2);
		// Quick at 2: the trial ends, and the window grows as it would have from 1, by one per quick page.
		expect(attempt(pacer, 300)).toBe(3);
		expect(attempt(pacer, 300)).toBe(4);
		// Neither quick nor climbed: held.
		expect(attempt(pacer, 500)).toBe(4);
	});
});

describe('past 8, on a long trip', () => {
	it('600 ms pages that stay flat grow the window to 24 (one request per 25 ms of the fastest page), never further', () => {
		const pacer = new Pacer(undefined);
		attempt(pacer, 600);
		expect(pages(pacer, 8, 620)).toBe(16);
		expect(pages(pacer, 8, 610)).toBe(NETWORK_MAX_CONCURRENCY);
		expect(pages(pacer, 200, 600)).toBe(NETWORK_MAX_CONCURRENCY);
	});

	it('300 ms pages: up to 12', () => {
		const pacer = new Pacer(undefined);
		attempt(pacer, 300);
		expect(pages(pacer, 100, 310)).toBe(12);
	});

	it('80 ms pages (a platform about 20 ms away over HTTPS): within 8', () => {
		const pacer = new Pacer(undefined);
		attempt(pacer, 80);
		expect(pages(pacer, 100, 85)).toBe(AUTO_MAX_CONCURRENCY);
	});

	it('not past 8 while the walk keeps up without waiting (the pages are already there)', () => {
		const pacer = new Pacer(undefined);
		attempt(pacer, 600);
		for (let k = 0; k < 50; k++) {
			pacer.waited(0);
			attempt(pacer, 600);
		}
		expect(pacer.window).toBe(AUTO_MAX_CONCURRENCY);
	});

	it('a page twice as slow as the fastest brings it back to 8 at once; past 8 again only one per window of quick pages', () => {
		const pacer = new Pacer(undefined);
		attempt(pacer, 600);
		expect(pages(pacer, 30, 600)).toBe(24);
		expect(attempt(pacer, 1300)).toBe(AUTO_MAX_CONCURRENCY);
		expect(pages(pacer, 7, 600)).toBe(8);
		expect(pages(pacer, 1, 600)).toBe(9);
		expect(pages(pacer, 9, 600)).toBe(10);
	});

	it('a 429 halves it, into 8, and keeps it within 8 for the rest of the walk', () => {
		const pacer = new Pacer(undefined);
		attempt(pacer, 600);
		expect(pages(pacer, 30, 600)).toBe(24);
		expect(attempt(pacer, 5, { status: 429, retryInMs: 1000 })).toBe(AUTO_MAX_CONCURRENCY);
		expect(pages(pacer, 200, 600)).toBe(AUTO_MAX_CONCURRENCY);
		// Below 8 the usual halving.
		expect(attempt(pacer, 5, { status: 500, retryInMs: 500 })).toBe(4);
	});

	it.each([undefined, 'ECONNRESET'])('a network failure (%p) or a 5xx keeps it within 8 too', (code) => {
		const pacer = new Pacer(undefined);
		attempt(pacer, 600);
		pages(pacer, 30, 600);
		attempt(pacer, 600, code ? { code } : { status: 502 });
		expect(pages(pacer, 200, 600)).toBe(AUTO_MAX_CONCURRENCY);
	});

	it('below 8 nothing changed: a page beyond 4 x the fastest + 10 ms shrinks it by one', () => {
		const pacer = new Pacer(undefined);
		attempt(pacer, 10);
		pages(pacer, 10, 10);
		expect(pacer.window).toBe(8);
		expect(attempt(pacer, 60)).toBe(7);
		// Between quick and climbed: held.
		expect(attempt(pacer, 30)).toBe(7);
	});
});

describe('bounds that do not move', () => {
	it('a walk with its own cap (the file outputs: 4) starts at 4 on a long trip and never passes it', () => {
		const pacer = new Pacer(undefined, 4);
		expect(attempt(pacer, 600)).toBe(4);
		expect(pages(pacer, 200, 600)).toBe(4);
	});

	it('Max Concurrent Requests N is N whatever the trip', () => {
		const pacer = new Pacer(16);
		expect(attempt(pacer, 600)).toBe(16);
		expect(pages(pacer, 50, 600)).toBe(16);
		expect(attempt(pacer, 5, { status: 429, retryInMs: 1000 })).toBe(16);
		const one = new Pacer(1);
		expect(attempt(one, 600)).toBe(1);
		expect(pages(one, 50, 600)).toBe(1);
	});

	it('the rate learned from two 429s a second or more apart is kept, and spaces requests at any window', () => {
		const pacer = new Pacer(undefined);
		attempt(pacer, 600);
		pages(pacer, 30, 600);
		attempt(pacer, 5, { status: 429, retryInMs: 1000 });
		// 10 successes over the next 2 s, then a second refusal: 10 in 2 s, spaced 0.9 x 200 ms.
		pages(pacer, 10, 200);
		attempt(pacer, 5, { status: 429, retryInMs: 1000 });
		expect((pacer as unknown as { gapMs: number }).gapMs).toBeCloseTo((0.9 * 2005) / 10, 0);
		pages(pacer, 100, 600);
		expect((pacer as unknown as { gapMs: number }).gapMs).toBeCloseTo((0.9 * 2005) / 10, 0);
	});
});

describe('pacing of a window no page has shown the platform to take', () => {
	it('past 8 (and on trial) requests start at most one per 25 ms; within 8 at once', async () => {
		const far = new Pacer(undefined);
		attempt(far, 600);
		pages(far, 30, 600);
		expect(far.window).toBe(24);
		const near = new Pacer(undefined);
		attempt(near, 10);
		pages(near, 10, 10);
		expect(near.window).toBe(8);
		jest.restoreAllMocks();
		const starts = async (pacer: Pacer, n: number) => {
			const from = Date.now();
			for (let k = 0; k < n; k++) {
				await pacer.ready();
				pacer.started();
			}
			return Date.now() - from;
		};
		expect(await starts(near, 8)).toBeLessThan(25);
		expect(await starts(far, 5)).toBeGreaterThanOrEqual(4 * 25 - 2);
	});
});
