import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

/** Every n8n context this package makes requests from. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export const DATA_CREDENTIAL = 'salesPaymentsApi';
export const IDENTITY_CREDENTIAL = 'salesPaymentsIdentityApi';

export interface RequestSettings {
	/** Milliseconds before a request is abandoned. */
	timeout: number;
	/** Further attempts after the first, for requests that may be repeated safely. */
	maxRetries: number;
}

export const DEFAULT_SETTINGS: RequestSettings = { timeout: 30_000, maxRetries: 3 };

/** Longest wait the transport accepts from a Retry-After header or its own backoff. */
export const MAX_RETRY_WAIT_MS = 30_000;

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

export function getRequestSettings(this: ApiContext, itemIndex: number): RequestSettings {
	if (!('getNodeParameter' in this) || !('getExecutionId' in this)) return DEFAULT_SETTINGS;
	const options = (this as IExecuteFunctions).getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	const timeout = Number(options.timeout ?? DEFAULT_SETTINGS.timeout);
	const maxRetries = Number(options.maxRetries ?? DEFAULT_SETTINGS.maxRetries);
	return {
		timeout: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_SETTINGS.timeout,
		maxRetries: Number.isInteger(maxRetries) && maxRetries >= 0 ? Math.min(maxRetries, 10) : DEFAULT_SETTINGS.maxRetries,
	};
}

function trimSlash(url: string): string {
	return url.replace(/\/+$/, '');
}

const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'ECONNREFUSED',
	'EAI_AGAIN',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

interface FailureFacts {
	status?: number;
	code?: string;
	body?: unknown;
	retryAfter?: string;
}

/**
 * n8n's helper wraps network failures in a NodeApiError that keeps only the message, so the
 * error code is read back from the text ("connect ECONNREFUSED ...", "timeout of 30000ms exceeded").
 */
function networkFacts(error: unknown): FailureFacts {
	const err = error as { message?: string; messages?: string[]; code?: string; cause?: { code?: string } };
	const direct = err?.code ?? err?.cause?.code;
	if (direct && /^[A-Z_]+$/.test(direct)) return { code: direct };
	const text = [err?.message ?? '', ...(err?.messages ?? [])].join(' ');
	const found = /\b(E[A-Z]{3,}|ERR_[A-Z_]+)\b/.exec(text)?.[1];
	if (found) return { code: found };
	if (/timeout of \d+ms exceeded|timed? ?out/i.test(text)) return { code: 'ETIMEDOUT' };
	if (/socket hang up/i.test(text)) return { code: 'ECONNRESET' };
	return {};
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds, capped. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
	if (header === undefined || header.trim() === '') return undefined;
	const seconds = Number(header);
	let ms: number;
	if (Number.isFinite(seconds)) ms = seconds * 1000;
	else {
		const at = Date.parse(header);
		if (Number.isNaN(at)) return undefined;
		ms = at - now;
	}
	return Math.min(Math.max(ms, 0), MAX_RETRY_WAIT_MS);
}

/** Exponential backoff with full jitter: attempt 0 waits up to 200 ms, then 400, 800 ... */
export function backoffMs(attempt: number): number {
	const ceiling = Math.min(200 * 2 ** attempt, 8_000);
	return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

function shouldRetry(facts: FailureFacts, idempotent: boolean): boolean {
	// 429 means the request was refused before processing, so even a write may be sent again.
	if (facts.status === 429) return true;
	if (!idempotent) return facts.code === 'ECONNREFUSED' && facts.status === undefined;
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
		return new NodeApiError(ctx.getNode(), { message, code: facts.code ?? '' } as JsonObject, {
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
	for (let attempt = 0; ; attempt++) {
		let facts: FailureFacts;
		try {
			// Statuses are read here rather than from a thrown error: n8n's wrapper keeps neither
			// the response headers (Retry-After) nor the body of a failed request.
			const response = (await this.helpers.httpRequestWithAuthentication.call(this, credentialType, {
				...options,
				headers: { ...headers },
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			})) as { body: unknown; headers: Record<string, unknown>; statusCode: number };
			const body = parseBody(response.body);
			if (response.statusCode >= 200 && response.statusCode < 300) {
				return successData(this, body, req, credentials);
			}
			const retryAfter = response.headers?.['retry-after'];
			facts = {
				status: response.statusCode,
				body,
				retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
			};
		} catch (error) {
			if (error instanceof NodeApiError && (error as { fromTransport?: boolean }).fromTransport) {
				throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
			}
			facts = networkFacts(error);
			if (facts.code === undefined) {
				// Not a network failure: report it without details that could hold request headers.
				throw new NodeOperationError(this.getNode(), redact((error as Error).message ?? 'Request failed', credentials, req.secrets), {
					itemIndex: req.itemIndex,
				});
			}
		}
		if (attempt < settings.maxRetries && shouldRetry(facts, idempotent)) {
			await sleep(retryAfterMs(facts.retryAfter) ?? backoffMs(attempt));
			continue;
		}
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
		const error = new NodeApiError(ctx.getNode(), { message: 'Response is not JSON' } as JsonObject, {
			message: 'The platform returned a response that is not valid JSON',
			description: `${req.method} ${req.path}: ${redact(String(body).slice(0, 120), credentials, req.secrets)}`,
			itemIndex: req.itemIndex,
		});
		throw Object.assign(error, { fromTransport: true });
	}
	if (req.raw) return (body ?? {}) as IDataObject;
	const data = unwrap(body);
	return (data && typeof data === 'object' ? data : { result: data ?? null }) as IDataObject;
}
