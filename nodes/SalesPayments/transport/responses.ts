import type { ICredentialDataDecryptedObject, IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Explain, NodeContext, PlatformError } from './errors';
import { isPlainObject } from './records';
import type { FailureFacts } from './retry';
import { DEADLINE, neverSent } from './retry';

/** The platform's answers: the success envelope and its shape, refusals as NodeApiErrors, and the redaction of secrets from every error. */

/** What an error needs to know about the request it reports (never its headers). */
export interface RequestFacts {
	method: string;
	path: string;
	/** A write: the platform may change something (charges, redemptions, creations...). */
	write: boolean;
	itemIndex?: number;
	/** Which operation asked, e.g. "order.createCharge", when known (read only for an error). */
	operation?: () => string | undefined;
	explain?: Explain;
	/** What to check before repeating a write whose answer was lost or unreadable. */
	acceptedHint?: string;
	secrets?: readonly string[];
}

/** A body as JSON when it parses, otherwise unchanged; `undefined` marks text that is not JSON. */
export function parseBody(body: unknown): { value: unknown; json: boolean } {
	if (typeof body !== 'string') return { value: body, json: true };
	if (body.trim() === '') return { value: undefined, json: true };
	try {
		return { value: JSON.parse(body), json: true };
	} catch {
		return { value: body, json: false };
	}
}

/** Reads `{message, error, statusCode}` from an error body, tolerating other shapes. */
export function platformErrorOf(status: number | undefined, rawBody: unknown): PlatformError {
	const body = parseBody(rawBody).value;
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

function where(req: RequestFacts, attempts = 1, named = false): string {
	const tried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
	const name = named ? req.operation?.() : undefined;
	const op = name ? ` (${name})` : '';
	return `${req.method} ${req.path}${op}${tried}`;
}

/** Words for a write whose outcome is unknown: what to check before sending it again. */
function beforeRetrying(req: RequestFacts): string {
	return `Do not simply run it again: ${req.acceptedHint ?? 'check on the platform whether it took effect before retrying.'}`;
}

function networkMessage(code: string | undefined, timeout: number): string {
	if (code === DEADLINE || code === 'ECONNABORTED' || code === 'ETIMEDOUT') {
		return `The platform did not answer within ${timeout} ms`;
	}
	if (code === 'ECONNREFUSED') return 'Could not connect to the platform: connection refused (check the Base URL)';
	if (code === 'ECONNRESET' || code === 'EPIPE') return 'The connection to the platform was closed before it answered';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'The platform host name could not be resolved (check the Base URL)';
	if (code === 'ERR_CANCELED') return 'The request was cancelled';
	return `Could not reach the platform${code ? ` (${code})` : ''}`;
}

/** A failed request (network failure or refusal) as a NodeApiError with the platform's words. */
export function failureError(
	ctx: NodeContext,
	facts: FailureFacts,
	req: RequestFacts,
	timeout: number,
	credentials: ICredentialDataDecryptedObject | undefined,
	attempts: number,
): NodeApiError {
	if (facts.status === undefined) {
		const message = networkMessage(facts.code, timeout);
		const unsure = req.write && !neverSent(facts.code) && facts.code !== 'ERR_CANCELED';
		const description = `${unsure ? `The platform may have received and processed this request. ${beforeRetrying(req)} ` : ''}${where(req, attempts)}`;
		// The code is not passed as `code`: n8n would swap the message for its generic wording.
		return new NodeApiError(ctx.getNode(), { message, networkError: facts.code ?? '' } as JsonObject, {
			message,
			description,
			itemIndex: req.itemIndex,
		});
	}
	const platform = platformErrorOf(facts.status, facts.body);
	platform.message = redact(platform.message, credentials, req.secrets);
	platform.error = redact(platform.error, credentials, req.secrets);
	const explained = req.explain?.(platform);
	const label = platform.error ? `${platform.error} (HTTP ${facts.status})` : `HTTP ${facts.status}`;
	const unsure = req.write && facts.status >= 500 ? ` The platform may have processed this request. ${beforeRetrying(req)}` : '';
	return new NodeApiError(ctx.getNode(), { ...platform } as unknown as JsonObject, {
		message: platform.message,
		description: `${explained ? `${explained} ` : ''}${label}: ${where(req, attempts)}${unsure}`,
		httpCode: String(facts.status),
		itemIndex: req.itemIndex,
	});
}

/** A redirect the transport does not follow: never a success, never a request elsewhere. */
export function redirectError(ctx: NodeContext, status: number, target: string | undefined, allowedOrigin: string, req: RequestFacts, reason: string): NodeApiError {
	const to = target ?? 'an unreadable address';
	const message = `The platform answered with a redirect (HTTP ${status}) to ${to}, which was not followed`;
	const upgrade = target && target.replace(/^http:/, 'https:') === allowedOrigin.replace(/^http:/, 'https:') ? ' If the platform moved to https, change the Base URL in the credential.' : '';
	return new NodeApiError(ctx.getNode(), { message, statusCode: status } as JsonObject, {
		message,
		description: `${reason} Your keys and the request were sent only to ${allowedOrigin}.${upgrade} ${where(req)}`,
		httpCode: String(status),
		itemIndex: req.itemIndex,
	});
}

/** An answer over the transport's size limit: named with the limit and the request, never retried. */
export function tooLargeError(ctx: NodeContext, req: RequestFacts, limit: number): NodeApiError {
	const message = `The platform's answer to ${req.method} ${req.path} is larger than ${Math.round(limit / 1048576)} MB`;
	const written = req.write ? ` The platform may have processed this request. ${beforeRetrying(req)}` : '';
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, {
		message,
		description: `Answers are read up to ${limit} bytes (after decompression) so that one answer cannot exhaust n8n's memory; the connection was closed there. For a list, use a smaller Pagination › Page Size.${written}`,
		itemIndex: req.itemIndex,
	});
}

/** An answer whose content-encoding header does not match its body: it could not be decompressed. */
export function encodingError(ctx: NodeContext, req: RequestFacts, detail: string): NodeApiError {
	const message = `The platform's answer to ${req.method} ${req.path} could not be read: its content-encoding header says it is compressed, but the body could not be decompressed`;
	const written = req.write ? ` The platform may have processed this request. ${beforeRetrying(req)}` : '';
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, {
		message,
		description: `The decompression failed (${detail.slice(0, 120)}): the platform or a proxy in front of it sends a wrong content-encoding header (for example gzip or br on plain JSON).${written} ${where(req, 1, true)}`,
		itemIndex: req.itemIndex,
	});
}

/**
 * A 2xx answer that cannot be used. For a write the message says that the platform accepted the
 * request, so nobody repeats a charge blindly; for a read it says what was wrong with the answer.
 */
function unusableSuccess(ctx: NodeContext, status: number, req: RequestFacts, what: string, snippet: string | undefined): NodeApiError {
	const answered = snippet === undefined ? '' : ` It answered: ${snippet}`;
	if (req.write) {
		const message = `The platform accepted the request (HTTP ${status}) but its answer could not be read`;
		return new NodeApiError(ctx.getNode(), { message, statusCode: status } as JsonObject, {
			message,
			description: `The answer ${what}. The request has probably taken effect. ${beforeRetrying(req)} ${where(req, 1, true)}.${answered}`,
			httpCode: String(status),
			itemIndex: req.itemIndex,
		});
	}
	const message =
		what === NOT_JSON ? 'The platform returned a response that is not valid JSON' : `The platform's answer has an unexpected shape: it ${what}`;
	return new NodeApiError(ctx.getNode(), { message, statusCode: status } as JsonObject, {
		message,
		description: `${where(req, 1, true)} answered${snippet === undefined ? ` HTTP ${status} with no body` : `: ${snippet}`}`,
		httpCode: String(status),
		itemIndex: req.itemIndex,
	});
}

const NOT_JSON = 'is not valid JSON';

function typeName(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The `data` of a success answer. Spec part 1: a success is an object `{statusCode, data}` with
 * `data` an object; a body without the envelope is taken as the data itself. With `open`
 * (operations whose answer the spec does not show), `data` may also be null or a plain value.
 * Anything else is an error that names the request and what was wrong.
 */
export function successData(
	ctx: NodeContext,
	status: number,
	rawBody: unknown,
	req: RequestFacts & { open?: boolean; raw?: boolean },
	credentials: ICredentialDataDecryptedObject,
): IDataObject {
	const { value: body, json } = parseBody(rawBody);
	const snippet = (v: unknown) => redact(String(typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 120), credentials, req.secrets);
	if (!json) return fail(unusableSuccess(ctx, status, req, NOT_JSON, snippet(body)));
	if (body === undefined) {
		if (req.open || status === 204) return {};
		return fail(unusableSuccess(ctx, status, req, 'is empty', undefined));
	}
	if (!isPlainObject(body)) return fail(unusableSuccess(ctx, status, req, `is ${typeName(body)}, not an object`, snippet(body)));
	if (req.raw) return body;
	// The envelope's data; a body without the envelope is the data itself.
	const enveloped = 'data' in body || ('statusCode' in body && Object.keys(body).every((k) => k === 'statusCode' || k === 'message'));
	const data = enveloped ? body.data : Object.keys(body).length > 0 ? body : undefined;
	// A read that answers no record (`{}`, `data: null`, no data) is never an empty success.
	if (!req.write && !req.open && (data === undefined || data === null || (isPlainObject(data) && Object.keys(data).length === 0))) {
		return fail(unusableSuccess(ctx, status, req, data === undefined ? 'has no `data`' : data === null ? 'has null as its data, not an object' : 'has an empty `data`', snippet(body)));
	}
	if (isPlainObject(data)) return data;
	if (req.open && (data === null || data === undefined)) return {};
	if (req.open && typeof data !== 'object') return { result: data as IDataObject[string] };
	return fail(unusableSuccess(ctx, status, req, `has ${typeName(data)} as its data, not an object`, snippet(data)));
}

function fail(error: NodeApiError): never {
	throw error;
}
