/**
 * Pause: the wait a platform asked for, held for every request of its credential (gate.ts; the
 * rules in docs/pagination.md, "The window: pause, rate, concurrency"). Only a request that will be
 * sent again sets it, for as long as it waits itself (its Retry-After, else its backoff): a
 * request's last attempt sets none. Instants are on the monotonic clock the gate reads
 * (`performance.now()`), so a wall clock stepped back or forward neither lengthens nor ends a pause.
 */

/** The window's clock: monotonic milliseconds, which no change of the wall clock moves. */
export const monotonic = (): number => performance.now();

/** Milliseconds a Retry-After asks for: seconds (`2`, `1.5`), or an HTTP date read against `date`. */
export function retryAfterMs(header: string | undefined, date: string | undefined, now: () => number): number | undefined {
	if (header === undefined || header.trim() === '') return undefined;
	const text = header.trim();
	if (/^-?\d+(\.\d+)?$/.test(text)) return Math.round(Math.max(0, Number(text) * 1000));
	const at = Date.parse(text);
	if (Number.isNaN(at)) return undefined;
	// The answer's own Date header is the platform's clock, which its date is on; n8n's clock may
	// differ by seconds or hours. Without a readable Date header, n8n's clock is all there is.
	const sent = date === undefined ? Number.NaN : Date.parse(date);
	return Math.round(Math.max(0, at - (Number.isNaN(sent) ? now() : sent)));
}

export class Pause {
	/**
	 * Until when (monotonic ms) no request of the credential starts. Set by `hold()` when a refused
	 * request (429 or 503) waits before its next attempt; moved only later, never earlier; never
	 * reset: it passes.
	 */
	private until = 0;

	/** A request refused with 429 or 503 waits `ms` before its next attempt: every request waits as long. */
	hold(ms: number, now: number): void {
		if (ms > 0) this.until = Math.max(this.until, now + ms);
	}

	/** Milliseconds until the pause ends; 0: none. */
	left(now: number): number {
		return Math.max(0, this.until - now);
	}
}
