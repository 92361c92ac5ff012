import { monotonic } from './pause';

/**
 * What may be repeated, and when: the transport's retry policy. Writes are never repeated once
 * the platform may have processed them; Max Retries bounds a request's attempts and their waits.
 */

/** The wait each of Max Retries allows: a request's retries wait at most Max Retries times this in all. */
export const MAX_RETRY_WAIT_MS = 30_000;
/** Backoff of the first retry (half of it at least), doubled per attempt up to MAX_BACKOFF_MS. */
export const BACKOFF_BASE_MS = 200;
export const MAX_BACKOFF_MS = 8_000;

/** The deadline of a request passed (Timeout (Ms) of the Request Options). */
export const DEADLINE = 'DEADLINE';

/** Failures where the request may or may not have reached the platform: only reads repeat them. */
const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'ECONNREFUSED',
	'EAI_AGAIN',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	DEADLINE,
]);

/** Failures where the request certainly never reached the platform: even writes repeat them. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN']);

/** Network error codes recognised in an error's text when no `code` property carries one. */
const NETWORK_CODE_IN_TEXT =
	/\b(ECONNRESET|ECONNABORTED|ECONNREFUSED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ERR_[A-Z_]+)\b/;

/** What is known about a failed attempt. */
export interface FailureFacts {
	status?: number;
	code?: string;
	body?: unknown;
	retryAfter?: string;
}

/**
 * One attempt of a request: `status` is the HTTP status (undefined for a network failure),
 * `ms` the time from sending to the end of the answer, `retryInMs` the wait before the next
 * attempt when the transport repeats it (429 with Retry-After, 5xx or network error of a read).
 */
export interface AttemptEvent {
	status?: number;
	code?: string;
	ms: number;
	retryInMs?: number;
	/** `retryInMs` is the platform's own Retry-After (not the transport's backoff). */
	retryAfter?: boolean;
	/** The answer's `Date` header (the platform's clock), on a 2xx answer that has one. */
	date?: string;
}

/** Whether the request certainly never left (so nothing can have been processed). */
export function neverSent(code: string | undefined): boolean {
	return code !== undefined && NEVER_SENT_CODES.has(code);
}

/**
 * n8n's helper wraps network failures in a NodeApiError whose `cause` is the client's error
 * (with its `code`); when no code is found there, it is read back from the text
 * ("connect ECONNREFUSED ...", "timeout of 30000ms exceeded", "socket hang up").
 */
export function networkFacts(error: unknown): FailureFacts {
	const err = error as { message?: string; messages?: string[]; code?: unknown; cause?: { code?: unknown } };
	for (const candidate of [err?.code, err?.cause?.code]) {
		if (typeof candidate === 'string' && /^E[A-Z_]+$/.test(candidate)) return { code: candidate };
	}
	const text = [err?.message ?? '', ...(Array.isArray(err?.messages) ? err.messages : [])].join(' ');
	const found = NETWORK_CODE_IN_TEXT.exec(text)?.[1];
	if (found) return { code: found };
	if (/timeout of \d+ms exceeded/i.test(text)) return { code: 'ECONNABORTED' };
	if (/socket hang up/i.test(text)) return { code: 'ECONNRESET' };
	if (/\bcancel(l)?ed\b|\baborted\b/i.test(text)) return { code: 'ERR_CANCELED' };
	return {};
}

/**
 * Exponential backoff with jitter: attempt 0 waits 100-200 ms, attempt 1 200-400 ms, then
 * 400-800 ms ..., never more than 8 s. The random half spreads out clients that failed together.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
	const ceiling = Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempt), MAX_BACKOFF_MS);
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Whether a failed attempt may be sent again. 429 means the platform refused the request
 * without processing it, so any request may repeat it; a write is otherwise repeated only when
 * it certainly never left (connection refused, name lookup failed), because after a timeout,
 * a reset or a 5xx the platform may already have processed it.
 */
export function shouldRetry(facts: { status?: number; code?: string }, idempotent: boolean): boolean {
	if (facts.status === 429) return true;
	if (facts.status === undefined && neverSent(facts.code)) return true;
	if (!idempotent) return false;
	if (facts.status !== undefined) return [500, 502, 503, 504].includes(facts.status);
	return facts.code !== undefined && RETRYABLE_NETWORK_CODES.has(facts.code);
}

/**
 * The waits of one request's retries: at most Max Retries x MAX_RETRY_WAIT_MS in all, the pause met
 * at the gate included. A wait that does not fit is not made: the request fails with its refusal.
 */
export class Waits {
	constructor(
		private readonly budget: number,
		private spent: number,
	) {}

	/** Whether a wait of `ms` fits in what is left. */
	fits(ms: number): boolean {
		return this.spent + ms <= this.budget;
	}

	/** Runs `again` (the backoff or Retry-After, then the gate's pause, until the budget's end) and counts its time: false when that pause ends later. */
	async wait(again: (until: number) => Promise<boolean>): Promise<boolean> {
		const start = monotonic();
		const resent = await again(start + this.budget - this.spent);
		this.spent += monotonic() - start;
		return resent;
	}

	/** Words for a refusal not tried again because its wait did not fit. */
	static note(maxRetries: number, asked: number | undefined): string {
		const what = asked === undefined ? 'The retries' : `The platform asked to wait ${Math.ceil(asked / 1000)} s before trying again (Retry-After), and the retries`;
		return ` ${what} may wait ${(maxRetries * MAX_RETRY_WAIT_MS) / 1000} s in all (Request Options › Max Retries ${maxRetries}, ${MAX_RETRY_WAIT_MS / 1000} s each): it was not tried again.`;
	}
}

/** The error with `note` added to its description. */
export function noted<E extends { description?: string | null }>(error: E, note: string): E {
	error.description = `${error.description ?? ''}${note}`;
	return error;
}
