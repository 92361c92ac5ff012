import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

/** Every n8n context this package makes requests from. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

export const DATA_CREDENTIAL = 'salesPaymentsApi';
export const IDENTITY_CREDENTIAL = 'salesPaymentsIdentityApi';

export interface RequestSettings {
	/** Milliseconds before a request is abandoned. */
	timeout: number;
	/** Further attempts after the first, for requests that may be repeated safely. */
	maxRetries: number;
}

export const DEFAULT_SETTINGS: RequestSettings = { timeout: 30_000, maxRetries: 3 };

/** Longest wait the transport accepts from a Retry-After header. */
export const MAX_RETRY_WAIT_MS = 30_000;
/** Backoff of the first retry (half of it at least), doubled per attempt up to MAX_BACKOFF_MS. */
export const BACKOFF_BASE_MS = 200;
export const MAX_BACKOFF_MS = 8_000;
/** Bounds of the Request Options. */
export const MAX_RETRIES = 10;
export const MAX_TIMEOUT_MS = 600_000;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the credential's base URL, e.g. `/business/balance`. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[] | FormData;
	/** The spec marks the endpoint KEYS+BIZ: send the credential's business id as `business-id`. */
	business?: boolean;
	/**
	 * May the request be repeated after the server might have processed it? Defaults to true for
	 * GET; the read-only filter POSTs set it. Writes that move money or state leave it false.
	 */
	idempotent?: boolean;
	headers?: IDataObject;
	/** Item whose Request Options (timeout, retries) apply. */
	itemIndex?: number;
	/** Credential type; the identity resource uses its own. */
	credentialType?: string;
	/** Base URL to use instead of the credential's `baseUrl` (identity API). */
	baseUrl?: string;
	/** Turns a refusal into plain words for the user (shown as the error description). */
	explain?: (error: PlatformError) => string | undefined;
	/** Return the body as sent by the server, without unwrapping the `{statusCode, data}` envelope. */
	raw?: boolean;
	/** Secret values that are not in the credential (tokens given as node parameters), scrubbed from errors. */
	secrets?: string[];
	/** Told about every attempt's outcome (pagination uses it to pace concurrent requests). */
	observe?: (event: AttemptEvent) => void;
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
}

/** What the platform says when it refuses a request (spec part 7). */
export interface PlatformError {
	statusCode: number;
	message: string;
	error: string;
}

/** Credential values are read once per execution context, not once per request. */
const credentialCache = new WeakMap<object, Map<string, Promise<ICredentialDataDecryptedObject>>>();

export async function getCachedCredentials(
	this: ApiContext,
	type: string = DATA_CREDENTIAL,
): Promise<ICredentialDataDecryptedObject> {
	let perContext = credentialCache.get(this);
	if (!perContext) {
		perContext = new Map();
		credentialCache.set(this, perContext);
	}
	let pending = perContext.get(type);
	if (!pending) {
		pending = this.getCredentials(type);
		perContext.set(type, pending);
		// A failed read must not be cached: the next call tries again.
		pending.catch(() => perContext?.delete(type));
	}
	return await pending;
}

/** Request Options of an item (execute contexts only; dropdowns, hooks and webhooks use the defaults). */
export function getRequestSettings(this: ApiContext, itemIndex: number): RequestSettings {
	if (!('getInputData' in this) || !('continueOnFail' in this)) return DEFAULT_SETTINGS;
	const ctx = this as IExecuteFunctions;
	const options = ctx.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	const read = (key: keyof RequestSettings, label: string, min: number, max: number): number => {
		const raw = options[key];
		if (raw === undefined || raw === null || raw === '') return DEFAULT_SETTINGS[key];
		const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
		if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${label} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`,
				{ itemIndex },
			);
		}
		return n;
	};
	return {
		timeout: read('timeout', 'Timeout (Ms)', 1, MAX_TIMEOUT_MS),
		maxRetries: read('maxRetries', 'Max Retries', 0, MAX_RETRIES),
	};
}

function trimSlash(url: string): string {
	return url.replace(/\/+$/, '');
}

/** Failures where the request may or may not have reached the platform: only reads repeat them. */
const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'ECONNREFUSED',
	'EAI_AGAIN',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** Failures where the request certainly never reached the platform: even writes repeat them. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN']);

/** Network error codes recognised in an error's text when no `code` property carries one. */
const NETWORK_CODE_IN_TEXT =
	/\b(ECONNRESET|ECONNABORTED|ECONNREFUSED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ERR_[A-Z_]+)\b/;

interface FailureFacts {
	status?: number;
	code?: string;
	body?: unknown;
	retryAfter?: string;
}

/**
 * n8n's helper wraps network failures in a NodeApiError whose `cause` is the client's error
 * (with its `code`); when no code is found there, it is read back from the text
 * ("connect ECONNREFUSED ...", "timeout of 30000ms exceeded", "socket hang up").
 */
function networkFacts(error: unknown): FailureFacts {
	const err = error as { message?: string; messages?: string[]; code?: unknown; cause?: { code?: unknown } };
	for (const candidate of [err?.code, err?.cause?.code]) {
		if (typeof candidate === 'string' && /^E[A-Z_]+$/.test(candidate)) return { code: candidate };
	}
	const text = [err?.message ?? '', ...(Array.isArray(err?.messages) ? err.messages : [])].join(' ');
	const found = NETWORK_CODE_IN_TEXT.exec(text)?.[1];
	if (found) return { code: found };
	if (/timeout of \d+ms exceeded/i.test(text)) return { code: 'ECONNABORTED' };
	if (/socket hang up/i.test(text)) return { code: 'ECONNRESET' };
	return {};
}

/** Parses Retry-After (delay in seconds, or an HTTP date) into milliseconds from `now`, capped. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
	if (header === undefined || header.trim() === '') return undefined;
	const text = header.trim();
	let ms: number;
	if (/^-?\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
	else {
		const at = Date.parse(text);
		if (Number.isNaN(at)) return undefined;
		ms = at - now;
	}
	return Math.round(Math.min(Math.max(ms, 0), MAX_RETRY_WAIT_MS));
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
	if (facts.status === undefined && facts.code !== undefined && NEVER_SENT_CODES.has(facts.code)) return true;
	if (!idempotent) return false;
	if (facts.status !== undefined) return [502, 503, 504].includes(facts.status);
	return facts.code !== undefined && RETRYABLE_NETWORK_CODES.has(facts.code);
}

function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

/** Reads `{message, error, statusCode}` from an error body, tolerating other shapes. */
export function platformErrorOf(status: number | undefined, rawBody: unknown): PlatformError {
	const body = parseBody(rawBody);
	const obj = body && typeof body === 'object' ? (body as IDataObject) : {};
	const message = Array.isArray(obj.message) ? obj.message.join('; ') : obj.message;
	return {
		statusCode: Number(obj.statusCode ?? status ?? 0),
		message: typeof message === 'string' && message ? message : typeof body === 'string' && body ? body.slice(0, 300) : 'Request failed',
		error: typeof obj.error === 'string' ? obj.error : '',
	};
}

/** Replaces every secret value of the credential (and every `extra` secret) found in a text. */
export function redact(
	text: string,
	credentials: ICredentialDataDecryptedObject | undefined,
	extra: readonly string[] = [],
): string {
	const values = ['apiKey', 'apiSecret', 'password', 'accessToken', 'refreshToken'].map((key) => credentials?.[key]);
	const secrets = [...values, ...extra].filter((v): v is string => typeof v === 'string' && v.length >= 4);
	// Longest first, so a secret that contains another is replaced whole.
	secrets.sort((x, y) => y.length - x.length);
	let out = text;
	for (const value of secrets) out = out.split(value).join('[redacted]');
	return out;
}

function networkMessage(code: string | undefined, timeout: number): string {
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') return `The platform did not answer within ${timeout} ms`;
	if (code === 'ECONNREFUSED') return 'Could not connect to the platform: connection refused (check the Base URL)';
	if (code === 'ECONNRESET' || code === 'EPIPE') return 'The connection to the platform was closed before it answered';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'The platform host name could not be resolved (check the Base URL)';
	if (code === 'ERR_CANCELED') return 'The request was cancelled';
	return `Could not reach the platform${code ? ` (${code})` : ''}`;
}

function toNodeApiError(
	ctx: ApiContext,
	facts: FailureFacts,
	req: ApiRequest,
	settings: RequestSettings,
	credentials: ICredentialDataDecryptedObject | undefined,
	attempts: number,
): NodeApiError {
	const tried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
	if (facts.status === undefined) {
		const message = networkMessage(facts.code, settings.timeout);
		// The code is not passed as `code`: n8n would swap the message for its generic wording.
		return new NodeApiError(ctx.getNode(), { message, networkError: facts.code ?? '' } as JsonObject, {
			message,
			description: `${req.method} ${req.path}${tried}`,
			itemIndex: req.itemIndex,
		});
	}
	const platform = platformErrorOf(facts.status, facts.body);
	platform.message = redact(platform.message, credentials, req.secrets);
	platform.error = redact(platform.error, credentials, req.secrets);
	const explained = req.explain?.(platform);
	const label = platform.error ? `${platform.error} (HTTP ${facts.status})` : `HTTP ${facts.status}`;
	return new NodeApiError(ctx.getNode(), { ...platform } as unknown as JsonObject, {
		message: platform.message,
		description: `${explained ? `${explained} ` : ''}${label}: ${req.method} ${req.path}${tried}`,
		httpCode: String(facts.status),
		itemIndex: req.itemIndex,
	});
}

function unwrap(body: unknown): unknown {
	if (body && typeof body === 'object' && !Array.isArray(body) && 'data' in body && 'statusCode' in body) {
		return (body as IDataObject).data;
	}
	return body;
}

/**
 * The one function that talks HTTP to the platform. It authenticates through n8n's helper,
 * adds `business-id` where the endpoint needs it, retries what may safely be retried,
 * unwraps the `{statusCode, data}` envelope and turns refusals into NodeApiErrors that carry
 * the platform's message and status, never a credential.
 */
export async function apiRequest(this: ApiContext, req: ApiRequest): Promise<IDataObject> {
	const credentialType = req.credentialType ?? DATA_CREDENTIAL;
	const credentials = await getCachedCredentials.call(this, credentialType);
	const settings = getRequestSettings.call(this, req.itemIndex ?? 0);
	const baseUrl = trimSlash(String(req.baseUrl ?? credentials.baseUrl ?? ''));
	if (!/^https?:\/\/\S+$/i.test(baseUrl)) {
		throw new NodeOperationError(this.getNode(), 'The credential\'s Base URL must start with http:// or https://', {
			itemIndex: req.itemIndex,
		});
	}
	const headers: IDataObject = { ...(req.headers ?? {}) };
	if (req.business) {
		const businessId = String(credentials.businessId ?? '').trim();
		if (!businessId) {
			throw new NodeOperationError(this.getNode(), 'The credential has no Business ID, which this operation needs', {
				itemIndex: req.itemIndex,
			});
		}
		headers['business-id'] = businessId;
	}
	const options: IHttpRequestOptions = {
		method: req.method,
		url: `${baseUrl}${req.path}`,
		qs: req.qs,
		body: req.body,
		headers,
		json: !(req.body instanceof FormData),
		timeout: settings.timeout,
	};
	const idempotent = req.idempotent ?? req.method === 'GET';
	// Without this the helper reads the credential again on every request (in n8n: a database
	// read and a decryption); it gets the values already read for this execution instead.
	const saved = this.getNode().credentials?.[credentialType];
	const reuse = {
		credentialsDecrypted: { id: saved?.id ?? '', name: saved?.name ?? '', type: credentialType, data: credentials },
	};
	for (let attempt = 0; ; attempt++) {
		let response: { body: unknown; headers?: Record<string, unknown>; statusCode: number };
		const sentAt = Date.now();
		try {
			// Statuses are read from the response rather than from a thrown error: n8n's wrapper
			// keeps neither the response headers (Retry-After) nor the body of a failed request.
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				credentialType,
				{ ...options, headers: { ...headers }, returnFullResponse: true, ignoreHttpStatusErrors: true },
				reuse,
			)) as typeof response;
		} catch (error) {
			const facts = networkFacts(error);
			if (facts.code === undefined) {
				// Not a network failure: report it without details that could hold request headers.
				throw new NodeOperationError(
					this.getNode(),
					redact((error as Error).message ?? 'Request failed', credentials, req.secrets),
					{ itemIndex: req.itemIndex },
				);
			}
			if (attempt < settings.maxRetries && shouldRetry(facts, idempotent)) {
				const wait = backoffMs(attempt);
				req.observe?.({ code: facts.code, ms: Date.now() - sentAt, retryInMs: wait });
				await sleep(wait);
				continue;
			}
			req.observe?.({ code: facts.code, ms: Date.now() - sentAt });
			throw toNodeApiError(this, facts, req, settings, credentials, attempt + 1);
		}
		const body = parseBody(response.body);
		if (response.statusCode >= 200 && response.statusCode < 300) {
			req.observe?.({ status: response.statusCode, ms: Date.now() - sentAt });
			return successData(this, body, req, credentials);
		}
		const retryAfter = response.headers?.['retry-after'];
		const facts: FailureFacts = {
			status: response.statusCode,
			body,
			retryAfter: retryAfter === undefined || retryAfter === null ? undefined : String(retryAfter),
		};
		if (attempt < settings.maxRetries && shouldRetry(facts, idempotent)) {
			const wait = retryAfterMs(facts.retryAfter) ?? backoffMs(attempt);
			req.observe?.({ status: facts.status, ms: Date.now() - sentAt, retryInMs: wait });
			await sleep(wait);
			continue;
		}
		req.observe?.({ status: facts.status, ms: Date.now() - sentAt });
		throw toNodeApiError(this, facts, req, settings, credentials, attempt + 1);
	}
}

function successData(
	ctx: ApiContext,
	body: unknown,
	req: ApiRequest,
	credentials: ICredentialDataDecryptedObject,
): IDataObject {
	if (body !== undefined && body !== '' && (typeof body !== 'object' || body === null)) {
		throw new NodeApiError(ctx.getNode(), { message: 'Response is not JSON' } as JsonObject, {
			message: 'The platform returned a response that is not valid JSON',
			description: `${req.method} ${req.path} answered: ${redact(String(body).slice(0, 120), credentials, req.secrets)}`,
			itemIndex: req.itemIndex,
		});
	}
	if (req.raw) return (body ?? {}) as IDataObject;
	const data = unwrap(body);
	return (data && typeof data === 'object' ? data : { result: data ?? null }) as IDataObject;
}
