import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { CredentialValues, NodeSpec, RunResult } from '../support/harness/n8n-core';
import { ACTION_TYPE, loadPackage, runNodes } from '../support/harness/n8n-core';
import { useSimulator } from '../support/helpers/sim';
import type { RecordedRequest } from '../support/simulator/core';
import type { IdentityTestUser } from '../support/simulator/routes/identity';
import {
	ACCESS_TOKEN_TTL_MS,
	identityUrl,
	lastCode,
	outbox,
	PLAIN_USER,
	REFRESH_TOKEN_TTL_MS,
	TWO_FACTOR_TOKEN_TTL_MS,
	TWO_FACTOR_USER,
} from '../support/simulator/routes/identity';
import type { Simulator } from '../support/simulator/server';

const FINGERPRINT = 'n8n-test-device-01';

function credentials(sim: Simulator, user: IdentityTestUser, overrides: IDataObject = {}): CredentialValues {
	return {
		salesPaymentsIdentityApi: {
			identityUrl: identityUrl(sim),
			username: user.username,
			password: user.password,
			fingerprint: FINGERPRINT,
			...overrides,
		},
	};
}

/** One Identity node using the identity credential. */
function node(name: string, operation: string, parameters: IDataObject = {}, continueOnFail = false): NodeSpec {
	return {
		name,
		parameters: { resource: 'identity', operation, ...parameters },
		credentials: ['salesPaymentsIdentityApi'],
		continueOnFail,
	};
}

interface ExpectedHeaders {
	/** The bearer token, or undefined when no Authorization header may be sent. */
	token?: string;
	fingerprint: boolean;
	refresh?: string;
	/** A JSON body (Content-Type application/json) or none at all. */
	json: boolean;
}

/** The identity headers of spec 4.12, exactly: what must be there and what must not. */
function expectHeaders(req: RecordedRequest, expected: ExpectedHeaders) {
	expect(req.headers.authorization).toBe(expected.token === undefined ? undefined : `Bearer ${expected.token}`);
	expect(req.headers['x-fingerprint-id']).toBe(expected.fingerprint ? FINGERPRINT : undefined);
	expect(req.headers['refresh-token']).toBe(expected.refresh);
	if (expected.json) expect(req.headers['content-type']).toMatch(/^application\/json/);
	else {
		expect(req.headers['content-type']).toBeUndefined();
		expect(req.body).toBeUndefined();
	}
	for (const dataApiHeader of ['x-api-key', 'x-api-secret', 'business-id']) {
		expect(req.headers[dataApiHeader]).toBeUndefined();
	}
}

/**
 * Everything an error carries (message, description, messages, cause, context ...) as text.
 * `node` (the node's saved parameters) is left out: it is the workflow itself, not the error.
 */
function dump(value: unknown): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(value, function (key, v: unknown) {
		if (key === 'node' || key === 'workflow') return undefined;
		if (v && typeof v === 'object') {
			if (seen.has(v)) return undefined;
			seen.add(v);
			if (v instanceof Error) {
				const plain: Record<string, unknown> = {};
				for (const name of Object.getOwnPropertyNames(v)) plain[name] = (v as unknown as Record<string, unknown>)[name];
				return plain;
			}
		}
		return v;
	});
}

function expectNoSecrets(value: unknown, secrets: string[]) {
	const text = dump(value);
	expect(text.length).toBeGreaterThan(2);
	for (const secret of secrets) expect(text).not.toContain(secret);
}

/** The last token pair the simulator issued (the sign-in a node made on its own). */
function lastSession(sim: Simulator): { token: string; refreshToken: string; scope: string } {
	const sessions = sim.state.col('identity.sessions');
	return sessions[sessions.length - 1] as unknown as { token: string; refreshToken: string; scope: string };
}

function signInRequest(req: RecordedRequest, user: IdentityTestUser) {
	expect(req.method).toBe('POST');
	expect(req.path).toBe('/auth/identity/sign-in');
	expectHeaders(req, { fingerprint: true, json: true });
	expect(req.body).toEqual({ username: user.username, password: user.password });
	expect(req.query).toEqual({});
}

/** A six-digit code the simulator never sent. */
function unsentCode(sim: Simulator): string {
	const sent = new Set(outbox(sim).map((m) => m.code));
	let n = 0;
	while (sent.has(String(n).padStart(6, '0'))) n++;
	return String(n).padStart(6, '0');
}

function json(result: RunResult, nodeName: string): IDataObject[] {
	return (result.output[nodeName] ?? []).map((i) => i.json);
}

describe('Identity: plain account', () => {
	const sim = useSimulator();
	const creds = () => credentials(sim(), PLAIN_USER);

	beforeEach(() => sim().clearRequests());

	it('walks sign-in -> OTPs -> validate account -> register and approve device -> refresh, passing tokens by expression', async () => {
		// 1. Sign In -> Request Email OTP -> Request SMS OTP, one workflow.
		const first = await runNodes(
			[
				node('Sign In', 'signIn'),
				node('Email OTP', 'requestEmailOtp', { accessToken: '={{ $json.token }}' }),
				node('SMS OTP', 'requestSmsOtp', { accessToken: "={{ $('Sign In').item.json.token }}" }),
			],
			{ credentials: creds() },
		);
		expect(first.error).toBeUndefined();
		const [signIn] = json(first, 'Sign In');
		expect(Object.keys(signIn).sort()).toEqual(
			['account', 'authenticationType', 'loggedAt', 'observation', 'refreshToken', 'token', 'user'].sort(),
		);
		expect(signIn.authenticationType).toBe('Bearer');
		expect(signIn.user).toMatchObject({ email: PLAIN_USER.username, twoFactorEnabled: false });
		expect(signIn.observation).toMatchObject({ twoFactorRequired: false });
		expect(new Date(signIn.loggedAt as string).toISOString()).toBe(signIn.loggedAt);
		const token = signIn.token as string;
		const refreshToken = signIn.refreshToken as string;
		expect(json(first, 'Email OTP')).toEqual([{ otpHasBeenSentToEmail: true }]);
		expect(json(first, 'SMS OTP')).toEqual([{ otpHasBeenSentToPhone: true }]);
		expect(first.items[0].pairedItem).toEqual({ item: 0 });

		const [signInReq, emailReq, smsReq] = sim().apiRequests;
		expect(sim().apiRequests).toHaveLength(3);
		signInRequest(signInReq, PLAIN_USER);
		expect([emailReq.method, emailReq.path]).toEqual(['POST', '/auth/identity/otps/email']);
		expectHeaders(emailReq, { token, fingerprint: true, json: false });
		expect([smsReq.method, smsReq.path]).toEqual(['POST', '/auth/identity/otps/sms']);
		expectHeaders(smsReq, { token, fingerprint: true, json: false });

		// The control route shows what was sent, as a test in another process would read it.
		const { data: sent } = await axios.get(`${sim().url}/__sim/identity/outbox`, { params: { to: PLAIN_USER.username } });
		expect(sent.map((m: IDataObject) => [m.channel, m.purpose])).toEqual([['email', 'account-validation']]);
		const emailCode = lastCode(sim(), { to: PLAIN_USER.username, purpose: 'account-validation' });
		expect(emailCode).toMatch(/^\d{6}$/);

		// 2. Validate Account with the email code; the token comes in with the item.
		sim().clearRequests();
		const validated = await runNodes(
			[node('Validate Account', 'validateAccount', { accessToken: '={{ $json.token }}', code: '={{ $json.code }}' })],
			{ credentials: creds(), input: [{ json: { ...signIn, code: emailCode } }] },
		);
		expect(validated.error).toBeUndefined();
		expect(json(validated, 'Validate Account')).toEqual([{ accountStatus: 'activated', channelsPendingValidation: ['phone'] }]);
		const [validateReq] = sim().apiRequests;
		expect([validateReq.method, validateReq.path]).toEqual(['PATCH', '/auth/identity/accounts/validate']);
		expectHeaders(validateReq, { token, fingerprint: true, json: true });
		expect(validateReq.body).toEqual({ code: emailCode });

		// 3. Register Device, then 4. Approve Device with the code the registration sent.
		sim().clearRequests();
		const registered = await runNodes(
			[node('Register Device', 'registerDevice', { accessToken: '={{ $json.token }}', name: 'n8n production' })],
			{ credentials: creds(), input: [{ json: signIn }] },
		);
		expect(registered.error).toBeUndefined();
		const [device] = json(registered, 'Register Device');
		expect(device).toMatchObject({ name: 'n8n production', fingerprint: FINGERPRINT, status: 'pending', ip: '127.0.0.1' });
		expect(Object.keys(device).sort()).toEqual(
			['accountId', 'createdAt', 'fingerprint', 'id', 'ip', 'name', 'status', 'userAgent'].sort(),
		);
		const [registerReq] = sim().apiRequests;
		expect([registerReq.method, registerReq.path]).toEqual(['POST', '/auth/identity/devices']);
		expectHeaders(registerReq, { token, fingerprint: true, json: true });
		expect(registerReq.body).toEqual({ name: 'n8n production' });

		const deviceCode = lastCode(sim(), { to: PLAIN_USER.username, purpose: 'device-approval' });
		sim().clearRequests();
		const approved = await runNodes(
			[node('Approve Device', 'approveDevice', { accessToken: '={{ $json.token }}', code: '={{ $json.code }}' })],
			{ credentials: creds(), input: [{ json: { token, code: deviceCode } }] },
		);
		expect(approved.error).toBeUndefined();
		// Approval returns the Device; only the create result carries `ip`.
		const { ip, ...withoutIp } = device;
		expect(ip).toBe('127.0.0.1');
		expect(json(approved, 'Approve Device')).toEqual([{ ...withoutIp, status: 'enabled' }]);
		const [approveReq] = sim().apiRequests;
		expect([approveReq.method, approveReq.path]).toEqual(['PATCH', '/auth/identity/devices/approve']);
		expectHeaders(approveReq, { token, fingerprint: true, json: true });
		expect(approveReq.body).toEqual({ code: deviceCode });

		// 5. Refresh Token -> Request SMS OTP with the new token, by expression.
		sim().clearRequests();
		const refreshed = await runNodes(
			[
				node('Refresh Token', 'refreshToken', { accessToken: '={{ $json.token }}', refreshToken: '={{ $json.refreshToken }}' }),
				node('SMS OTP', 'requestSmsOtp', { accessToken: '={{ $json.newTokens.token }}' }),
			],
			{ credentials: creds(), input: [{ json: signIn }] },
		);
		expect(refreshed.error).toBeUndefined();
		const [{ newTokens }] = json(refreshed, 'Refresh Token') as Array<{ newTokens: IDataObject }>;
		expect(newTokens).toMatchObject({ authenticationType: 'Bearer' });
		const newToken = newTokens.token as string;
		const newRefresh = newTokens.refreshToken as string;
		expect(newToken).not.toBe(token);
		expect(newRefresh).not.toBe(refreshToken);
		expect(json(refreshed, 'SMS OTP')).toEqual([{ otpHasBeenSentToPhone: true }]);
		const [refreshReq, smsReq2] = sim().apiRequests;
		expect([refreshReq.method, refreshReq.path]).toEqual(['POST', '/auth/identity/refresh']);
		expectHeaders(refreshReq, { token, refresh: refreshToken, fingerprint: true, json: false });
		expectHeaders(smsReq2, { token: newToken, fingerprint: true, json: false });

		// 6. The SMS code validates the phone: nothing pending any more.
		expect(outbox(sim()).filter((m) => m.to === PLAIN_USER.phone).map((m) => m.channel)).toEqual(['sms', 'sms']);
		const phoneCode = lastCode(sim(), { to: PLAIN_USER.phone, channel: 'sms' });
		const phoneValidated = await runNodes(
			[node('Validate Account', 'validateAccount', { accessToken: newToken, code: phoneCode })],
			{ credentials: creds() },
		);
		expect(json(phoneValidated, 'Validate Account')).toEqual([{ accountStatus: 'activated', channelsPendingValidation: [] }]);

		// 7. The old pair is revoked: the old access token and the old refresh token are refused,
		// and the server's message (which echoes the token) reaches the user scrubbed.
		sim().clearRequests();
		const oldToken = await runNodes([node('Email OTP', 'requestEmailOtp', { accessToken: token })], {
			credentials: creds(),
		});
		expect(oldToken.error?.message).toBe('Token [redacted] has been revoked');
		expect(oldToken.error?.httpCode).toBe('401');
		expectNoSecrets(oldToken.error, [token, refreshToken, newToken, newRefresh, PLAIN_USER.password]);

		const oldRefresh = await runNodes(
			[node('Refresh Token', 'refreshToken', { accessToken: newToken, refreshToken }, true)],
			{ credentials: creds() },
		);
		expect(oldRefresh.error).toBeUndefined();
		expect(oldRefresh.items).toHaveLength(1);
		expect(oldRefresh.items[0].json.error).toBe('Refresh token [redacted] has been revoked');
		expect(String(oldRefresh.items[0].json.description)).toContain('HTTP 401');
		expectNoSecrets(oldRefresh.items, [token, refreshToken, newToken, newRefresh, PLAIN_USER.password]);
		const [oldRefreshReq] = sim().requestsTo('POST', '/auth/identity/refresh');
		expectHeaders(oldRefreshReq, { token: newToken, refresh: refreshToken, fingerprint: true, json: false });
	});

	it('an empty Access Token signs in with the credential first: two requests, in order', async () => {
		const result = await runNodes([node('Email OTP', 'requestEmailOtp', { accessToken: '' })], { credentials: creds() });
		expect(result.error).toBeUndefined();
		// Only the operation's result is output, not the tokens of the sign-in made on the way.
		expect(result.items.map((i) => i.json)).toEqual([{ otpHasBeenSentToEmail: true }]);
		const issued = lastSession(sim());
		expect(issued.scope).toBe('full');
		const reqs = sim().apiRequests;
		expect(reqs.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /auth/identity/sign-in', 'POST /auth/identity/otps/email']);
		signInRequest(reqs[0], PLAIN_USER);
		expectHeaders(reqs[1], { token: issued.token, fingerprint: true, json: false });
		expect(reqs[0].seq).toBeLessThan(reqs[1].seq);
	});

	it('with two input items and no Access Token, one sign-in serves both', async () => {
		const result = await runNodes([node('Register Device', 'registerDevice', { name: '={{ $json.device }}' })], {
			credentials: creds(),
			input: [{ json: { device: 'first name' } }, { json: { device: 'second name' } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.name)).toEqual(['first name', 'second name']);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const reqs = sim().apiRequests;
		expect(reqs.map((r) => r.path)).toEqual(['/auth/identity/sign-in', '/auth/identity/devices', '/auth/identity/devices']);
		const { token } = lastSession(sim());
		expectHeaders(reqs[1], { token, fingerprint: true, json: true });
		expectHeaders(reqs[2], { token, fingerprint: true, json: true });
	});

	it('an expired access token is refused (401) and Refresh Token renews it', async () => {
		const signIn = await runNodes([node('Sign In', 'signIn')], { credentials: creds() });
		const { token, refreshToken } = signIn.items[0].json as { token: string; refreshToken: string };
		sim().state.clock.advance(ACCESS_TOKEN_TTL_MS + 1_000);
		sim().clearRequests();

		const expired = await runNodes([node('Register Device', 'registerDevice', { accessToken: token, name: 'late' })], {
			credentials: creds(),
		});
		expect(expired.error?.name).toBe('NodeApiError');
		expect(expired.error?.message).toBe('Token expired');
		expect(expired.error?.httpCode).toBe('401');
		expect(expired.error?.description).toContain('Refresh Token');
		expectNoSecrets(expired.error, [token, refreshToken, PLAIN_USER.password]);
		expectHeaders(sim().apiRequests[0], { token, fingerprint: true, json: true });

		sim().clearRequests();
		const renewed = await runNodes(
			[
				node('Refresh Token', 'refreshToken', { accessToken: `Bearer ${token}`, refreshToken }),
				node('Email OTP', 'requestEmailOtp', { accessToken: '={{ $json.newTokens.token }}' }),
			],
			{ credentials: creds() },
		);
		expect(renewed.error).toBeUndefined();
		expect(json(renewed, 'Email OTP')).toEqual([{ otpHasBeenSentToEmail: true }]);
		// A pasted "Bearer " prefix is not sent twice.
		expectHeaders(sim().apiRequests[0], { token, refresh: refreshToken, fingerprint: true, json: false });
	});

	it('an expired refresh token is refused, and the error names neither token', async () => {
		const signIn = await runNodes([node('Sign In', 'signIn')], { credentials: creds() });
		const { token, refreshToken } = signIn.items[0].json as { token: string; refreshToken: string };
		sim().state.clock.advance(REFRESH_TOKEN_TTL_MS + 1_000);
		const result = await runNodes([node('Refresh Token', 'refreshToken', { accessToken: token, refreshToken })], {
			credentials: creds(),
		});
		expect(result.error?.message).toBe('Refresh token expired');
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.description).toContain('Sign in again');
		expectNoSecrets(result.error, [token, refreshToken, PLAIN_USER.password]);
	});

	it('keeps the password and every token field password-typed in the editor', async () => {
		const { nodeTypes, credentialTypes } = await loadPackage();
		const description = nodeTypes.getByNameAndVersion(ACTION_TYPE, 1).description;
		const secretFields = description.properties.filter(
			(p) => p.displayOptions?.show?.resource?.includes('identity') && /token/i.test(p.name),
		);
		// Access Token on the seven operations after sign-in, and Refresh Token.
		expect(secretFields.map((p) => p.name).sort()).toEqual([...Array(7).fill('accessToken'), 'refreshToken']);
		for (const field of secretFields) expect(field.typeOptions?.password).toBe(true);
		const password = credentialTypes.salesPaymentsIdentityApi.properties.find((p) => p.name === 'password');
		expect(password?.typeOptions?.password).toBe(true);
	});

	it('a wrong password is a 401 that names neither the password nor a token', async () => {
		const wrong = 'Wrong-Passw0rd-123';
		const result = await runNodes([node('Sign In', 'signIn')], { credentials: credentials(sim(), PLAIN_USER, { password: wrong }) });
		expect(result.error?.message).toBe('Invalid username or password');
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.description).toContain('Username and Password');
		expectNoSecrets(result.error, [wrong, PLAIN_USER.password]);
		signInRequest(sim().apiRequests[0], { ...PLAIN_USER, password: wrong });

		const continued = await runNodes([node('Email OTP', 'requestEmailOtp', {}, true)], {
			credentials: credentials(sim(), PLAIN_USER, { password: wrong }),
		});
		expect(continued.items.map((i) => i.json.error)).toEqual(['Invalid username or password']);
		expectNoSecrets(continued.items, [wrong]);
	});

	it('a wrong code is a 401 and leaks nothing', async () => {
		// A device of its own (another fingerprint), still pending: the walk above approved the first one.
		const other = credentials(sim(), PLAIN_USER, { fingerprint: 'n8n-test-device-02' });
		const signIn = await runNodes([node('Sign In', 'signIn')], { credentials: other });
		const { token, refreshToken } = signIn.items[0].json as { token: string; refreshToken: string };
		await runNodes([node('Register Device', 'registerDevice', { accessToken: token, name: 'to approve' })], {
			credentials: other,
		});
		sim().clearRequests();
		const result = await runNodes(
			[node('Approve Device', 'approveDevice', { accessToken: token, code: unsentCode(sim()) })],
			{ credentials: other },
		);
		expect(sim().apiRequests[0].headers['x-fingerprint-id']).toBe('n8n-test-device-02');
		expect(result.error?.message).toBe('Invalid code');
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.description).toContain('code');
		expectNoSecrets(result.error, [token, refreshToken, PLAIN_USER.password]);
	});

	it.each([
		// Required fields left empty stop n8n before the node runs; these are values that end up
		// empty at run time (an expression reading a missing field, blanks).
		['verify2fa', { accessToken: 'some-token', code: '={{ $json.missing }}' }, 'Code is required'],
		['approveDevice', { accessToken: 'some-token', code: ' ' }, 'Code is required'],
		['validateAccount', { accessToken: 'some-token', code: '={{ $json.missing }}' }, 'Code is required'],
		['registerDevice', { accessToken: 'some-token', name: '={{ "  " }}' }, 'Device Name is required'],
		['refreshToken', { accessToken: '={{ $json.missing }}', refreshToken: 'some-refresh' }, 'Access Token is required'],
		['refreshToken', { accessToken: 'some-token', refreshToken: '={{ $json.missing }}' }, 'Refresh Token is required'],
	])('%s refuses %j before any request', async (operation, parameters, message) => {
		const result = await runNodes([node('Identity', operation, parameters)], { credentials: creds() });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain(message);
		expect(sim().apiRequests).toEqual([]);
	});

	it.each([
		[{ fingerprint: '' }, "The credential's Device Fingerprint is required"],
		[{ identityUrl: 'auth.example' }, "The credential's Identity URL must start with http:// or https://"],
		[{ password: '' }, "The credential's Password is required"],
	])('a credential with %j is refused before any request', async (overrides, message) => {
		const result = await runNodes([node('Sign In', 'signIn')], { credentials: credentials(sim(), PLAIN_USER, overrides) });
		expect(result.error?.message).toContain(message);
		expect(sim().apiRequests).toEqual([]);
	});

	it("the credential's test request (resolved by n8n's expression engine) signs in against the simulator", async () => {
		const { nodeTypes, credentialTypes } = await loadPackage();
		const test = credentialTypes.salesPaymentsIdentityApi.test;
		expect(test).toBeDefined();
		// A trailing slash in the Identity URL is tolerated.
		const values = credentials(sim(), PLAIN_USER, { identityUrl: `${identityUrl(sim())}/` }).salesPaymentsIdentityApi;
		const workflow = new Workflow({ nodes: [], connections: {}, active: false, nodeTypes });
		const resolve = (value: unknown): unknown => {
			if (typeof value === 'string') {
				return workflow.expression.getParameterValue(value, null, 0, 0, 'test', [], 'internal', {
					$credentials: values,
				} as never);
			}
			if (value && typeof value === 'object') {
				return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
			}
			return value;
		};
		const request = resolve(test!.request) as { baseURL: string; url: string; method: string; headers: IDataObject; body: IDataObject };
		const response = await axios.request({
			baseURL: request.baseURL,
			url: request.url,
			method: request.method,
			headers: request.headers as Record<string, string>,
			data: request.body,
			validateStatus: () => true,
		});
		expect(response.status).toBeLessThan(300);
		expect(response.data.data.authenticationType).toBe('Bearer');
		const [req] = sim().apiRequests;
		signInRequest(req, PLAIN_USER);
	});

	it('the simulator answers 400 Invalid param: [x-fingerprint-id] without the header, 401 without a token', async () => {
		const base = identityUrl(sim());
		const noFingerprint = await axios.post(
			`${base}/identity/sign-in`,
			{ username: PLAIN_USER.username, password: PLAIN_USER.password },
			{ validateStatus: () => true },
		);
		expect(noFingerprint.status).toBe(400);
		expect(noFingerprint.data).toEqual({ message: 'Invalid param: [x-fingerprint-id]', error: 'Bad Request', statusCode: 400 });
		const noToken = await axios.post(`${base}/identity/otps/email`, undefined, {
			headers: { 'x-fingerprint-id': FINGERPRINT },
			validateStatus: () => true,
		});
		expect(noToken.status).toBe(401);
		expect(noToken.data).toEqual({ message: 'Unauthorized', error: 'Unauthorized', statusCode: 401 });
		// The data API's address does not serve the identity API.
		const wrongBase = await axios.post(`${sim().url}/identity/sign-in`, {}, { validateStatus: () => true });
		expect(wrongBase.status).toBe(404);
	});
});

describe('Identity: account with two-factor authentication', () => {
	const sim = useSimulator();
	const creds = () => credentials(sim(), TWO_FACTOR_USER);

	beforeEach(() => sim().clearRequests());

	async function signIn(): Promise<{ token: string; refreshToken: string; observation: IDataObject }> {
		const result = await runNodes([node('Sign In', 'signIn')], { credentials: creds() });
		expect(result.error).toBeUndefined();
		return result.items[0].json as { token: string; refreshToken: string; observation: IDataObject };
	}

	it('Sign In asks for Verify 2FA, and until then the token is good for nothing else', async () => {
		const { token, refreshToken, observation } = await signIn();
		expect(observation).toMatchObject({ twoFactorRequired: true, nextStep: 'verify-2fa' });
		expect(outbox(sim()).filter((m) => m.to === TWO_FACTOR_USER.username && m.purpose === 'two-factor')).toHaveLength(1);
		sim().clearRequests();

		const refused = await runNodes([node('Email OTP', 'requestEmailOtp', { accessToken: token })], { credentials: creds() });
		expect(refused.error?.httpCode).toBe('401');
		expect(refused.error?.message).toMatch(/^Two-factor verification required/);
		expect(refused.error?.description).toContain('Verify 2FA');
		expectNoSecrets(refused.error, [token, refreshToken, TWO_FACTOR_USER.password]);

		const noRefresh = await runNodes([node('Refresh Token', 'refreshToken', { accessToken: token, refreshToken })], {
			credentials: creds(),
		});
		expect(noRefresh.error?.httpCode).toBe('401');
		expectNoSecrets(noRefresh.error, [token, refreshToken, TWO_FACTOR_USER.password]);
	});

	it('Verify 2FA refuses a wrong code (401), then the right code gives a token the next node uses', async () => {
		const first = await signIn();
		const code = lastCode(sim(), { to: TWO_FACTOR_USER.username, purpose: 'two-factor' });
		const wrongCode = unsentCode(sim());
		sim().clearRequests();

		const wrong = await runNodes([node('Verify 2FA', 'verify2fa', { accessToken: first.token, code: wrongCode })], {
			credentials: creds(),
		});
		expect(wrong.error?.message).toBe('Invalid code');
		expect(wrong.error?.httpCode).toBe('401');
		expectNoSecrets(wrong.error, [first.token, first.refreshToken, TWO_FACTOR_USER.password]);

		const verified = await runNodes(
			[
				node('Verify 2FA', 'verify2fa', { accessToken: '={{ $json.token }}', code: '={{ $json.code }}' }),
				node('Register Device', 'registerDevice', { accessToken: '={{ $json.token }}', name: 'office laptop' }),
			],
			{ credentials: creds(), input: [{ json: { token: first.token, code } }] },
		);
		expect(verified.error).toBeUndefined();
		const [pair] = json(verified, 'Verify 2FA');
		expect(Object.keys(pair).sort()).toEqual(['code', 'refreshToken', 'token']);
		expect(pair.code).toBe(code);
		expect(pair.token).not.toBe(first.token);
		expect(verified.items[0].json).toMatchObject({ name: 'office laptop', status: 'pending', fingerprint: FINGERPRINT });

		const [wrongReq, verifyReq, registerReq] = sim().apiRequests;
		for (const [req, body] of [
			[wrongReq, { code: wrongCode }],
			[verifyReq, { code }],
		] as const) {
			expect([req.method, req.path]).toEqual(['POST', '/auth/accounts/verify-2fa']);
			// Spec 4.12: Authorization only, no x-fingerprint-id.
			expectHeaders(req, { token: first.token, fingerprint: false, json: true });
			expect(req.body).toEqual(body);
		}
		expectHeaders(registerReq, { token: pair.token as string, fingerprint: true, json: true });

		// The code is used up and the limited token is revoked.
		const again = await runNodes([node('Verify 2FA', 'verify2fa', { accessToken: first.token, code })], { credentials: creds() });
		expect(again.error?.message).toBe('Token [redacted] has been revoked');
		expectNoSecrets(again.error, [first.token, pair.token as string, TWO_FACTOR_USER.password]);
	});

	it('Verify 2FA with an empty Access Token signs in first and sends that sign-in\'s token', async () => {
		await signIn();
		const code = lastCode(sim(), { to: TWO_FACTOR_USER.username, purpose: 'two-factor' });
		sim().clearRequests();
		const result = await runNodes([node('Verify 2FA', 'verify2fa', { code })], { credentials: creds() });
		expect(result.error).toBeUndefined();
		const reqs = sim().apiRequests;
		expect(reqs.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /auth/identity/sign-in', 'POST /auth/accounts/verify-2fa']);
		signInRequest(reqs[0], TWO_FACTOR_USER);
		const sessions = sim().state.col('identity.sessions') as unknown as Array<{ token: string; scope: string }>;
		const limited = sessions[sessions.length - 2];
		expect(limited.scope).toBe('two-factor');
		expectHeaders(reqs[1], { token: limited.token, fingerprint: false, json: true });
		expect(result.items[0].json.token).toBe(sessions[sessions.length - 1].token);
	});

	it('another operation with an empty Access Token explains that Verify 2FA is needed, after one sign-in', async () => {
		const result = await runNodes([node('Email OTP', 'requestEmailOtp')], { credentials: creds() });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain('two-factor authentication');
		expect(result.error?.message).toContain('Verify 2FA');
		expect(sim().apiRequests.map((r) => r.path)).toEqual(['/auth/identity/sign-in']);
		expectNoSecrets(result.error, [lastSession(sim()).token, TWO_FACTOR_USER.password]);
	});

	it('an expired two-factor token is refused by Verify 2FA', async () => {
		const { token } = await signIn();
		const code = lastCode(sim(), { to: TWO_FACTOR_USER.username, purpose: 'two-factor' });
		sim().state.clock.advance(TWO_FACTOR_TOKEN_TTL_MS + 1_000);
		const result = await runNodes([node('Verify 2FA', 'verify2fa', { accessToken: token, code })], { credentials: creds() });
		expect(result.error?.message).toBe('Token expired');
		expect(result.error?.httpCode).toBe('401');
		expectNoSecrets(result.error, [token, TWO_FACTOR_USER.password]);
	});
});
