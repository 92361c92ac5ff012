import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import { runCache } from '../../transport/cache';
import { getCachedCredentials, IDENTITY_CREDENTIAL, serviceUrl } from '../../transport/credentials';
import type { PlatformError } from '../../transport/errors';
import { fieldError } from '../../transport/errors';
import { apiRequest } from '../../transport/transport';
import { optionalText, requireString } from '../../fields/validation';
import { ACCESS_TOKEN_HINT } from './descriptions';
import { ENDPOINTS } from '../../transport/endpoints';

/**
 * What the Identity operations share: the credential checks, the one request helper (headers
 * exactly as spec 4.12 lists them per endpoint) and the sign-in with the credential that an
 * operation makes when no Access Token is given.
 */

export interface IdentityCredentials {
	identityUrl: string;
	username: string;
	password: string;
	fingerprint: string;
}

/** Reads and checks the identity credential (before any request). */
export async function identityCredentials(this: IExecuteFunctions, i: number): Promise<IdentityCredentials> {
	const values = await getCachedCredentials.call(this, IDENTITY_CREDENTIAL);
	const text = (key: string) => optionalText(values[key]) ?? '';
	const identityUrl = serviceUrl(this, values.identityUrl, 'Identity URL', i).base;
	const fingerprint = text('fingerprint');
	if (!fingerprint) fieldError(this, "The credential's Device Fingerprint is required (it is sent as x-fingerprint-id)", i);
	return { identityUrl, username: text('username'), password: String(values.password ?? ''), fingerprint };
}

/** A token field's value without a leading "Bearer " that users sometimes paste along. */
export function readToken(this: IExecuteFunctions, name: string, i: number): string {
	const raw = this.getNodeParameter(name, i, '') as unknown;
	const text = typeof raw === 'string' ? raw.trim() : '';
	return text.replace(/^Bearer\s+/i, '').trim();
}

export function requireToken(this: IExecuteFunctions, name: string, i: number, label: string): string {
	const token = readToken.call(this, name, i);
	if (!token) fieldError(this, `${label} is required (${ACCESS_TOKEN_HINT})`, i);
	return token;
}

export function requireCode(this: IExecuteFunctions, i: number): string {
	return requireString.call(this, 'code', i, 'Code');
}

export interface IdentityCall {
	method: IHttpRequestMethods;
	/** Path below the Identity URL, e.g. `/identity/devices`. */
	path: string;
	/** Sent as `Authorization: Bearer <token>`. */
	accessToken?: string;
	/** Sent as the `refresh-token` header. */
	refreshToken?: string;
	/** Send the credential's fingerprint as `x-fingerprint-id` (every endpoint but verify-2fa). */
	fingerprint: boolean;
	body?: IDataObject;
}

/** Plain words for the identity API's refusals (shown as the error description). */
function explain(call: IdentityCall) {
	return (error: PlatformError): string | undefined => {
		if (error.statusCode === 400 && /x-fingerprint-id/i.test(error.message)) {
			return "Check the credential's Device Fingerprint.";
		}
		if (error.statusCode !== 401) return undefined;
		if (call.path === ENDPOINTS.identity.signIn.path) return "Check the Username and Password of the credential.";
		if (/two-factor|2fa/i.test(error.message)) {
			return 'The token still waits for its two-factor code: run Verify 2FA first and use the token it returns.';
		}
		if (call.body?.code !== undefined && /code/i.test(error.message)) {
			return 'The code is wrong, expired or already used: request a new one.';
		}
		if (call.refreshToken !== undefined) {
			return 'The token pair was refused: the refresh token may be expired or already used. Sign in again.';
		}
		return 'The access token was refused: it may be expired (use Refresh Token or sign in again), revoked, or waiting for Verify 2FA.';
	};
}

/** One identity API call; tokens and the password never reach an error message. */
export async function identityRequest(this: IExecuteFunctions, i: number, call: IdentityCall): Promise<IDataObject> {
	const credentials = await identityCredentials.call(this, i);
	const headers: IDataObject = {};
	if (call.body) headers['Content-Type'] = 'application/json';
	if (call.fingerprint) headers['x-fingerprint-id'] = credentials.fingerprint;
	if (call.accessToken) headers.Authorization = `Bearer ${call.accessToken}`;
	if (call.refreshToken) headers['refresh-token'] = call.refreshToken;
	return await apiRequest.call(this, {
		method: call.method,
		path: call.path,
		// Sign-in, device and OTP calls change state on the platform: none is repeated blindly.
		body: call.body,
		headers,
		credentialType: IDENTITY_CREDENTIAL,
		urlField: 'identityUrl',
		itemIndex: i,
		secrets: [call.accessToken, call.refreshToken].filter((s): s is string => !!s),
		explain: explain(call),
	});
}

/** POST /identity/sign-in with the credential's username, password and fingerprint. */
export async function signInWithCredential(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	const { username, password } = await identityCredentials.call(this, i);
	if (!username) fieldError(this, "The credential's Username is required to sign in", i);
	if (!password) fieldError(this, "The credential's Password is required to sign in", i);
	return await identityRequest.call(this, i, {
		...ENDPOINTS.identity.signIn,
		fingerprint: true,
		body: { username, password },
	});
}

/**
 * Whether a sign-in still waits for the two-factor code. The observation's fields are not
 * documented, so the common ways of saying so are accepted.
 */
export function needsTwoFactor(signIn: IDataObject): boolean {
	const observation = signIn.observation;
	if (!observation || typeof observation !== 'object') return false;
	const o = observation as IDataObject;
	for (const key of ['twoFactorRequired', 'requiresTwoFactor', 'twoFactorAuthenticationRequired', 'requires2fa']) {
		if (typeof o[key] === 'boolean') return o[key] as boolean;
	}
	const said = [o.nextStep, o.next, o.action, o.message].filter((v) => typeof v === 'string').join(' ');
	return /verify-2fa|2fa|two[- ]?factor/i.test(said);
}

function tokenOf(ctx: IExecuteFunctions, i: number, signIn: IDataObject): string {
	const token = signIn.token;
	if (typeof token !== 'string' || !token) fieldError(ctx, 'The sign-in with the credential returned no token', i);
	return token;
}

/**
 * The Access Token field, or, when it is empty, the token of a sign-in with the credential.
 * `twoFactorStep` is set by Verify 2FA, the one call that accepts a token still waiting for
 * its code; every other operation refuses such a sign-in with a clear message.
 */
export async function accessTokenFor(this: IExecuteFunctions, i: number, twoFactorStep = false): Promise<string> {
	const given = readToken.call(this, 'accessToken', i);
	if (given) return given;
	if (twoFactorStep) return tokenOf(this, i, await signInWithCredential.call(this, i));
	// One sign-in for the empty Access Tokens of a run's items (a failed one is not reused).
	const signIn = await runCache(this, 'identity:session', async () => await signInWithCredential.call(this, i));
	if (needsTwoFactor(signIn)) {
		fieldError(
			this,
			"The credential's account uses two-factor authentication: add Sign In and Verify 2FA steps before this one and set Access Token to the token Verify 2FA returns",
			i,
		);
	}
	return tokenOf(this, i, signIn);
}
