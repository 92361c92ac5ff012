import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { beforeDeadline, BodyTooLarge, DeadlinePassed, isDecompressionFailure, isStream, MAX_BODY_BYTES, readBody, redirectTarget } from './body';
import { runCache } from './cache';
import type { ApiContext } from './credentials';
import { DATA_CREDENTIAL, getCachedCredentials, businessIdOf, serviceUrl } from './credentials';
import type { Explain } from './errors';
import type { PathValue } from './paths';
import { buildPath } from './paths';
import type { Gate, Lane } from './gate';
import { gateOf, laneOf } from './gate';
import { monotonic, retryAfterMs } from './pause';
import type { RequestSettings } from './requestOptions';
import { getRequestSettings } from './requestOptions';
import type { RequestFacts } from './responses';
import { encodingError, failureError, parseBody, redact, redirectError, successData, tooLargeError } from './responses';
import type { AttemptEvent, FailureFacts } from './retry';
import { backoffMs, DEADLINE, MAX_RETRY_WAIT_MS, networkFacts, noted, shouldRetry, Waits } from './retry';
import { itemEffectsOf } from './stoppedRun';

export type { ApiContext } from './credentials';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/**
	 * Path template below the credential's base URL: literal segments and `{name}` placeholders,
	 * e.g. `/payment-links/publish/{id}`. Values go in `pathParams`; they are checked and encoded
	 * by the one path builder (transport/paths.ts), never pasted into the template.
	 */
	path: string;
	pathParams?: Record<string, PathValue>;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[] | FormData;
	/** The spec marks the endpoint KEYS+BIZ: send the credential's business id as `business-id`. */
	business?: boolean;
	/**
	 * Reads change nothing (GET, and the read-only filter POSTs that pagination sends); everything
	 * else is a write. Default: GET is a read.
	 */
	kind?: 'read' | 'write';
	/**
	 * May the request be repeated after the server might have processed it? Defaults to true for
	 * reads. Writes that set a state (publish, activate...) may set it; charges never do.
	 */
	idempotent?: boolean;
	headers?: IDataObject;
	/** Item whose Request Options (timeout, retries) apply. */
	itemIndex?: number;
	/** Credential type; the identity resource uses its own. */
	credentialType?: string;
	/** Credential field holding the service address (default `baseUrl`; the identity API: `identityUrl`). */
	urlField?: string;
	/** Turns a refusal into plain words for the user (shown as the error description). */
	explain?: Explain;
	/** What to check before repeating this write when its answer was lost or unreadable. */
	acceptedHint?: string;
	/** The spec does not show the answer: `data` may be null or a plain value. */
	open?: boolean;
	/** Return the body as sent by the server, without unwrapping the `{statusCode, data}` envelope. */
	raw?: boolean;
	/** Secret values that are not in the credential (tokens given as node parameters), scrubbed from errors. */
	secrets?: string[];
	/** Told about every attempt's outcome (pagination uses it to pace concurrent requests). */
	observe?: (event: AttemptEvent) => void;
}

/** Redirects followed within the credential's origin before giving up. */
export const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** "customer.getMany" in an action node's execution, for error messages. */
function operationOf(ctx: ApiContext, itemIndex: number | undefined): string | undefined {
	if (!('getInputData' in ctx)) return undefined;
	try {
		const exec = ctx as IExecuteFunctions;
		return `${String(exec.getNodeParameter('resource', itemIndex ?? 0))}.${String(exec.getNodeParameter('operation', itemIndex ?? 0))}`;
	} catch {
		return undefined;
	}
}

export { MAX_BODY_BYTES } from './body';

/** The credential's service address, checked once per run (new URL and its checks cost as much as the rest of a request). */
function serviceOf(ctx: ApiContext, credentials: ICredentialDataDecryptedObject, credentialType: string, urlField = 'baseUrl', itemIndex?: number) {
	return runCache(ctx, `service:${credentialType}:${urlField}`, () =>
		serviceUrl(ctx, credentials[urlField], urlField === 'baseUrl' ? 'Base URL' : 'Identity URL', itemIndex),
	);
}

/** The gate a request of this credential waits at (the walk reads its window to size how far it reads ahead). */
export async function gateFor(this: ApiContext, req: Pick<ApiRequest, 'credentialType' | 'urlField' | 'itemIndex'>): Promise<Gate> {
	const credentialType = req.credentialType ?? DATA_CREDENTIAL;
	const credentials = await getCachedCredentials.call(this, credentialType);
	return gateOf(this, credentialType, credentials, serviceOf(this, credentials, credentialType, req.urlField, req.itemIndex).origin);
}

/**
 * The one function that talks HTTP to the platform. It authenticates through n8n's helper,
 * builds the path from its template, adds `business-id` where the endpoint needs it, bounds
 * every attempt by a deadline, keeps credentials and bodies on the credential's own origin
 * (redirects elsewhere are refused), retries what may safely be retried, checks the answer's
 * shape and turns refusals into NodeApiErrors that carry the platform's message, never a secret.
 */
export async function apiRequest(this: ApiContext, req: ApiRequest): Promise<IDataObject> {
	const credentialType = req.credentialType ?? DATA_CREDENTIAL;
	// The path first: a crafted ID is refused before anything else happens.
	const path = buildPath(this, req.path, req.pathParams, req.itemIndex);
	const credentials = await getCachedCredentials.call(this, credentialType);
	const settings = getRequestSettings.call(this, req.itemIndex ?? 0);
	const service = serviceOf(this, credentials, credentialType, req.urlField, req.itemIndex);
	const headers: IDataObject = { ...(req.headers ?? {}) };
	if (req.business) headers['business-id'] = await businessIdOf(this, undefined, req.itemIndex);
	const write = (req.kind ?? (req.method === 'GET' ? 'read' : 'write')) === 'write';
	const idempotent = req.idempotent ?? !write;
	const facts: RequestFacts = {
		method: req.method,
		path,
		write,
		itemIndex: req.itemIndex,
		operation: () => operationOf(this, req.itemIndex),
		explain: req.explain,
		acceptedHint: req.acceptedHint,
		secrets: req.secrets,
	};
	// Without this the helper reads the credential again on every request (in n8n: a database
	// read and a decryption); it gets the values already read for this execution instead. Made
	// once per run: getNode() is a deep copy of the node.
	const reuse = runCache(this, `reuse:${credentialType}`, () => {
		const saved = this.getNode().credentials?.[credentialType];
		return { credentialsDecrypted: { id: saved?.id ?? '', name: saved?.name ?? '', type: credentialType, data: credentials } };
	});
	// Every request of this credential's platform in this process waits for its turn at one gate (gate.ts).
	const gate = gateOf(this, credentialType, credentials, service.origin);
	const lane = laneOf(this);
	const kind = `${req.method} ${req.path}`;
	// What the platform did with this item, for the error of a run that stops (stoppedRun.ts).
	const effects = itemEffectsOf(this);
	const observe = (event: AttemptEvent) => {
		gate.observe(event, kind, lane);
		effects?.note(req.itemIndex, event, write);
		req.observe?.(event);
	};
	// Max Retries bounds the time a request waits too: the pause it meets at the gate counts.
	const paused = gate.pause.left(monotonic());
	await gate.acquire(lane, req.itemIndex);
	try {
		return await attempts.call(this, req, { path, credentials, credentialType, settings, service, headers, idempotent, facts, reuse, observe, gate, lane, paused });
	} finally {
		gate.release(lane);
	}
}

interface Prepared {
	path: string;
	credentials: ICredentialDataDecryptedObject;
	credentialType: string;
	settings: RequestSettings;
	service: { base: string; origin: string };
	headers: IDataObject;
	idempotent: boolean;
	facts: RequestFacts;
	reuse: object;
	observe: (event: AttemptEvent) => void;
	gate: Gate;
	lane: Lane;
	/** Milliseconds of pause the request met before its first attempt. */
	paused: number;
}

/** The attempts of one request (at most Max Retries + 1), its redirects within the origin, and its answer read. */
async function attempts(this: ApiContext, req: ApiRequest, p: Prepared): Promise<IDataObject> {
	const { path, credentials, credentialType, settings, service, headers, idempotent, facts, reuse, observe, gate, lane } = p;
	const waits = new Waits(settings.maxRetries * MAX_RETRY_WAIT_MS, p.paused);
	let url = `${service.base}${path}`;
	let qs = req.qs;
	let redirects = 0;
	for (let attempt = 0; ; ) {
		// A stop is a stop: no attempt of a later item once its run failed (a retry, a redirect followed).
		lane.check(req.itemIndex);
		let response: { body: unknown; headers?: Record<string, unknown>; statusCode: number };
		const deadline = AbortSignal.timeout(settings.timeout);
		const sentAt = monotonic();
		try {
			// Statuses are read from the response rather than from a thrown error: n8n's wrapper
			// keeps neither the response headers (Retry-After, Location) nor the body of a failed request.
			const options: IHttpRequestOptions = {
				method: req.method,
				url,
				qs,
				// A list in the query goes out as repeated keys (`events=a&events=b`).
				arrayFormat: 'repeat',
				body: req.body,
				headers: { ...headers },
				json: !(req.body instanceof FormData),
				timeout: settings.timeout,
				// Where n8n does not put the execution's own cancel signal here, the deadline aborts too.
				abortSignal: deadline,
				// The body is read by readBody(), within the deadline.
				encoding: 'stream',
				// Redirects are decided here, never by the HTTP client (it would carry the keys along).
				disableFollowRedirect: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
			};
			const sent = this.helpers.httpRequestWithAuthentication.call(this, credentialType, options, reuse) as Promise<typeof response>;
			// An answer that starts after the deadline is closed unread.
			response = await beforeDeadline(sent, deadline, (late) => isStream(late?.body) && late.body.destroy());
			response.body = await readBody(response.body, deadline);
		} catch (error) {
			if (error instanceof BodyTooLarge) {
				observe({ code: 'BODY_TOO_LARGE', ms: monotonic() - sentAt });
				throw tooLargeError(this, facts, MAX_BODY_BYTES);
			}
			// n8n's client fails before it hands over the answer (a bare zlib error, no headers).
			if (isDecompressionFailure(error)) {
				observe({ code: 'BAD_ENCODING', ms: monotonic() - sentAt });
				throw encodingError(this, facts, redact((error as Error).message ?? '', credentials, req.secrets));
			}
			// A timeout only when the deadline cut the request: an answer that failed otherwise says so.
			const network = networkFacts(error);
			const cut = error instanceof DeadlinePassed || (deadline.aborted && (network.code === undefined || network.code === 'ERR_CANCELED'));
			const failure: FailureFacts = cut ? { code: DEADLINE } : network;
			if (failure.code === undefined) {
				// Not a network failure: report it without details that could hold request headers.
				throw new NodeOperationError(this.getNode(), redact((error as Error).message ?? 'Request failed', credentials, req.secrets), {
					itemIndex: req.itemIndex,
				});
			}
			const ms = monotonic() - sentAt;
			if (attempt < settings.maxRetries && failure.code !== 'ERR_CANCELED' && shouldRetry(failure, idempotent)) {
				const wait = backoffMs(attempt);
				if (!waits.fits(wait)) {
					observe({ code: failure.code, ms });
					throw noted(failureError(this, failure, facts, settings.timeout, credentials, attempt + 1), Waits.note(settings.maxRetries, undefined));
				}
				observe({ code: failure.code, ms, retryInMs: wait });
				attempt++;
				if (await waits.wait(async (until) => await gate.again(lane, req.itemIndex, wait, until))) continue;
				throw noted(failureError(this, failure, facts, settings.timeout, credentials, attempt), Waits.note(settings.maxRetries, undefined));
			}
			observe({ code: failure.code, ms });
			throw failureError(this, failure, facts, settings.timeout, credentials, attempt + 1);
		}
		const status = response.statusCode;
		if (REDIRECTS.has(status)) {
			const target = redirectTarget(response.headers?.location, url);
			const targetOrigin = target?.origin;
			let refusal: string | undefined;
			if (!target) refusal = 'The redirect names no readable address.';
			else if (targetOrigin !== service.origin) refusal = `Requests only go to the credential's address, and ${targetOrigin} is another origin.`;
			else if (status !== 307 && status !== 308 && req.method !== 'GET') {
				refusal = `An HTTP ${status} would turn this ${req.method} into a GET, so it was not repeated.`;
			} else if (redirects >= MAX_REDIRECTS) refusal = `More than ${MAX_REDIRECTS} redirects in a row.`;
			if (refusal !== undefined) {
				observe({ status, ms: monotonic() - sentAt });
				throw redirectError(this, status, targetOrigin ?? (target ? target.href : undefined), service.origin, facts, refusal);
			}
			// Same origin: follow it (its query replaces ours; the body goes along on 307/308).
			redirects++;
			url = (target as URL).href;
			qs = undefined;
			continue;
		}
		if (status >= 200 && status < 300) {
			const date = response.headers?.date;
			observe({ status, ms: monotonic() - sentAt, ...(typeof date === 'string' ? { date } : {}) });
			return successData(this, status, response.body, { ...facts, open: req.open, raw: req.raw }, credentials);
		}
		const retryAfter = response.headers?.['retry-after'];
		const failure: FailureFacts = {
			status,
			body: parseBody(response.body).value,
			retryAfter: retryAfter === undefined || retryAfter === null ? undefined : String(retryAfter),
		};
		const ms = monotonic() - sentAt;
		if (attempt < settings.maxRetries && shouldRetry(failure, idempotent)) {
			const date = response.headers?.date;
			const asked = retryAfterMs(failure.retryAfter, typeof date === 'string' ? date : undefined, Date.now);
			const wait = asked ?? backoffMs(attempt);
			if (waits.fits(wait)) {
				observe({ status, ms, retryInMs: wait, retryAfter: asked !== undefined });
				attempt++;
				if (await waits.wait(async (until) => await gate.again(lane, req.itemIndex, wait, until))) continue;
				throw noted(failureError(this, failure, facts, settings.timeout, credentials, attempt), Waits.note(settings.maxRetries, undefined));
			}
			observe({ status, ms });
			throw noted(failureError(this, failure, facts, settings.timeout, credentials, attempt + 1), Waits.note(settings.maxRetries, asked));
		}
		observe({ status, ms });
		throw failureError(this, failure, facts, settings.timeout, credentials, attempt + 1);
	}
}
