/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Secrets never appear in outputs or errors. Every workflow run through the harness, in every
 * test file, is recorded and scanned after each test for every secret known (test/support/harness/audit.ts):
 * API keys and secrets of all seeded accounts, identity passwords, issued tokens and the
 * credential values of the run. This file proves that the audit catches a leak, and drives the
 * node through the refusals most likely to leak one: platforms that echo the key, secret,
 * password or token back in error bodies, malformed answers and error pages.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { auditNow, auditStats, recordRun, scanRecords, simulatorSecrets } from '../support/harness/audit';
import type { CredentialValues, NodeSpec, RunResult } from '../support/harness/n8n-core';
import { runNode, runNodes } from '../support/harness/n8n-core';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { identityUrl, PLAIN_USER } from '../support/simulator/routes/identity';
import { OTHER_KEY, OTHER_SECRET, PRIMARY_KEY, PRIMARY_SECRET } from '../support/simulator/server';

const sim = useSimulator();

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
});

const balance: INodeParameters = { resource: 'business', operation: 'getBalance' };

function identityCredentials(): CredentialValues {
	return {
		salesPaymentsIdentityApi: {
			identityUrl: identityUrl(sim()),
			username: PLAIN_USER.username,
			password: PLAIN_USER.password,
			fingerprint: 'n8n-secrets-test',
		},
	};
}

function identityNode(name: string, operation: string, parameters: INodeParameters = {}, continueOnFail = false): NodeSpec {
	return {
		name,
		parameters: { resource: 'identity', operation, ...parameters },
		credentials: ['salesPaymentsIdentityApi'],
		continueOnFail,
	};
}

/** Everything of an error a user can see, as one text. */
function errorText(error: RunResult['error']): string {
	if (!error) return '';
	return JSON.stringify({ ...error, message: error.message, description: error.description, stack: error.stack });
}

describe('the audit', () => {
	it('knows every secret of the simulator', () => {
		const values = simulatorSecrets(sim()).map((s) => s.value);
		for (const secret of [PRIMARY_KEY, PRIMARY_SECRET, OTHER_KEY, OTHER_SECRET, PLAIN_USER.password]) {
			expect(values).toContain(secret);
		}
	});

	it('finds a secret in an output item and in every part of an error, and fails loudly', () => {
		const secrets = simulatorSecrets(sim());
		const error = Object.assign(new Error('Request failed'), {
			description: 'Bad things',
			context: { data: { echoed: `key=${PRIMARY_KEY}` } },
		});
		const run = (json: IDataObject, err?: unknown) => ({
			run: { data: { resultData: { runData: { N: [{ data: { main: [[{ json }]] }, error: err }] } } } },
		});
		const spec = [{ name: 'N', parameters: { resource: 'business', operation: 'getBalance' } }];
		recordRun(spec, ['N'], {}, run({ nested: { deep: [`secret ${PRIMARY_SECRET}`] } }));
		recordRun(spec, ['N'], {}, run({}, error));
		expect(() => auditNow()).toThrow(/SECRET LEAK: 2 secret value\(s\)[\s\S]*API secret[\s\S]*API key/);
		// Found again by the scanner on its own, with where it was.
		const findings = scanRecords(
			[{ test: 't', secrets: [], texts: [{ where: 'the error', tokensAllowed: false, text: `x ${OTHER_KEY} y` }] }],
			secrets,
		);
		expect(findings.map((f) => [f.secret.kind, f.where])).toEqual([['API key', 'the error']]);
		expect(findings[0].excerpt).not.toContain(OTHER_KEY);
	});

	it('allows tokens in the output of the operations that issue them, never passwords, never in errors', () => {
		const token = 'tok_issued_0123456789';
		const secrets = [
			{ kind: 'access token' as const, value: token, source: 'identity session' },
			{ kind: 'password' as const, value: PLAIN_USER.password, source: 'identity user' },
		];
		const texts = [
			{ where: 'output of Sign In', tokensAllowed: true, text: `{"token":"${token}"}` },
			{ where: 'output of Sign In', tokensAllowed: true, text: `password ${PLAIN_USER.password}` },
			{ where: 'the error of Sign In', tokensAllowed: false, text: `Token ${token} has been revoked` },
		];
		const findings = scanRecords([{ test: 't', secrets: [], texts }], secrets);
		expect(findings.map((f) => `${f.secret.kind} @ ${f.where}`)).toEqual([
			'password @ output of Sign In',
			'access token @ the error of Sign In',
		]);
	});

	it('records every run made through the harness', async () => {
		const before = auditStats().recordedRuns;
		await runNode({ parameters: balance }, { credentials: dataCredentials(sim()) });
		expect(auditStats().recordedRuns).toBe(before + 1);
		expect(auditNow().texts).toBeGreaterThan(0);
	});
});

describe('refusals that echo secrets are scrubbed', () => {
	it('an error body echoing the API key and secret', async () => {
		sim().addFault({
			kind: 'status',
			status: 401,
			body: JSON.stringify({
				message: `Key ${PRIMARY_KEY} with secret ${PRIMARY_SECRET} is not allowed`,
				error: `Unauthorized ${PRIMARY_KEY}`,
				statusCode: 401,
			}),
		});
		const { error } = await runNode({ parameters: balance }, { credentials: dataCredentials(sim()) });
		expect(error?.httpCode).toBe('401');
		expect(error?.message).toBe('Key [redacted] with secret [redacted] is not allowed');
		expect(errorText(error)).not.toContain(PRIMARY_KEY);
		expect(errorText(error)).not.toContain(PRIMARY_SECRET);
		expect(auditNow().runs).toBe(1);
	});

	it('a malformed success body echoing the secret', async () => {
		sim().addFault({ kind: 'malformed', body: `{"debug":"x-api-secret=${PRIMARY_SECRET}"` });
		const { error } = await runNode({ parameters: balance }, { credentials: dataCredentials(sim()) });
		expect(error?.message).toBe('The platform returned a response that is not valid JSON');
		expect(error?.description).toBe('GET /business/balance (business.getBalance) answered: {"debug":"x-api-secret=[redacted]"');
		auditNow();
	});

	it('an HTML error page echoing the request headers, as an error item (continueOnFail)', async () => {
		sim().addFault({
			kind: 'status',
			status: 502,
			body: `<html><pre>x-api-key: ${PRIMARY_KEY}\nx-api-secret: ${PRIMARY_SECRET}</pre></html>`,
		});
		const { items, error } = await runNode(
			{ parameters: { ...balance, requestOptions: { maxRetries: 0 } }, continueOnFail: true },
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toBe('<html><pre>x-api-key: [redacted]\nx-api-secret: [redacted]</pre></html>');
		auditNow();
	});

	it('a wrong key typed into the credential is not repeated back', async () => {
		const wrongKey = 'spk_live_typo_9f8e7d6c5b4a';
		const wrongSecret = 'sps_live_typo_0a1b2c3d4e5f';
		sim().addFault({
			kind: 'status',
			status: 401,
			body: JSON.stringify({ message: `Unknown API key ${wrongKey}`, error: 'Unauthorized', statusCode: 401 }),
		});
		const { error } = await runNode(
			{ parameters: balance },
			{ credentials: dataCredentials(sim(), { apiKey: wrongKey, apiSecret: wrongSecret }) },
		);
		expect(error?.message).toBe('Unknown API key [redacted]');
		expect(errorText(error)).not.toContain(wrongKey);
		auditNow();
	});

	it('network failures (refused connection) name neither the key nor the secret', async () => {
		const { error } = await runNode(
			{ parameters: { ...balance, requestOptions: { maxRetries: 0 } } },
			{ credentials: dataCredentials(sim(), { baseUrl: 'http://127.0.0.1:1' }) },
		);
		expect(error?.message).toBe('Could not connect to the platform: connection refused (check the Base URL)');
		expect(errorText(error)).not.toContain(PRIMARY_SECRET);
		auditNow();
	});

	it('an identity error echoing the password', async () => {
		sim().addFault({
			kind: 'status',
			status: 401,
			path: '/identity/sign-in',
			body: JSON.stringify({ message: `Password ${PLAIN_USER.password} is wrong`, error: 'Unauthorized', statusCode: 401 }),
		});
		const { error } = await runNodes([identityNode('Sign In', 'signIn')], { credentials: identityCredentials() });
		expect(error?.message).toBe('Password [redacted] is wrong');
		expect(errorText(error)).not.toContain(PLAIN_USER.password);
		auditNow();
	});

	it('tokens: issued by Sign In (allowed in its output), then echoed by a refusal of the next step', async () => {
		const { output, error } = await runNodes([identityNode('Sign In', 'signIn')], { credentials: identityCredentials() });
		expect(error).toBeUndefined();
		const token = String(output['Sign In'][0].json.token);
		expect(token.length).toBeGreaterThan(10);
		sim().addFault({
			kind: 'status',
			status: 401,
			path: '/identity/devices',
			body: JSON.stringify({ message: `Token ${token} has been revoked`, error: 'Unauthorized', statusCode: 401 }),
		});
		const next = await runNodes([identityNode('Register Device', 'registerDevice', { accessToken: token, name: 'n8n' }, true)], {
			credentials: identityCredentials(),
		});
		expect(next.items[0].json.error).toBe('Token [redacted] has been revoked');
		expect(JSON.stringify(next.items)).not.toContain(token);
		// The token is a secret the audit knows: it was found in Sign In's output (allowed) only.
		expect(simulatorSecrets(sim()).map((s) => s.value)).toContain(token);
		auditNow();
	});
});
