/**
 * The secret audit. runNodes() hands every run to recordRun(); after each test the recorded
 * output items and errors (message, description, stack, context, cause ...) are scanned for
 * every secret known in the test file: the credential values the runs were given, and every
 * secret of the simulators started in the file (API keys and secrets of all seeded accounts,
 * identity passwords, issued access and refresh tokens). A secret found fails that test loudly,
 * naming the secret's kind and where it was found.
 *
 * The one allowance: the output of Sign In, Verify 2FA and Refresh Token may hold tokens, since
 * returning them is what those operations are for (never passwords or API keys, and never in
 * an error).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startedSimulators } from '../simulator/server';
import type { Simulator } from '../simulator/server';

/** Operations whose output carries freshly issued tokens on purpose. */
export const TOKEN_ISSUING_OPERATIONS = new Set(['identity.signIn', 'identity.verify2fa', 'identity.refreshToken']);

export type SecretKind = 'API key' | 'API secret' | 'password' | 'access token' | 'refresh token' | 'credential value';

export interface Secret {
	kind: SecretKind;
	value: string;
	/** Where the secret comes from, e.g. "simulator account 1" or "credential salesPaymentsApi". */
	source: string;
}

/** One place a text was found: the node, and whether it was an output item or an error. */
export interface ScannedText {
	where: string;
	/** Output of a token-issuing operation: tokens are allowed there. */
	tokensAllowed: boolean;
	text: string;
}

export interface RunRecord {
	test: string;
	texts: ScannedText[];
	/** Secret values of the credentials the run was given. */
	secrets: Secret[];
}

export interface Finding {
	test: string;
	secret: Secret;
	where: string;
	/** The text around the secret, with the secret itself masked. */
	excerpt: string;
}

/** Secrets shorter than this are not searched for (they would match ordinary words). */
const MIN_SECRET_LENGTH = 6;

/** Keys of error objects that are not shown to users as error details (the node's own parameters). */
const SKIPPED_KEYS = new Set(['node', 'workflow']);

/** Every string reachable from a value: object keys and values, errors' hidden fields included. */
export function collectStrings(value: unknown, out: string[] = [], seen = new WeakSet<object>(), depth = 0): string[] {
	if (typeof value === 'string') {
		out.push(value);
		return out;
	}
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return out;
	if (!value || typeof value !== 'object' || depth > 12) return out;
	if (seen.has(value)) return out;
	seen.add(value);
	if (Buffer.isBuffer(value)) return out;
	const keys = new Set<string>(Object.keys(value));
	if (value instanceof Error) {
		for (const key of Object.getOwnPropertyNames(value)) keys.add(key);
		for (const key of ['message', 'stack', 'description', 'cause', 'context', 'messages', 'errorResponse']) keys.add(key);
	}
	for (const key of keys) {
		if (SKIPPED_KEYS.has(key)) continue;
		out.push(key);
		let child: unknown;
		try {
			child = (value as Record<string, unknown>)[key];
		} catch {
			continue;
		}
		collectStrings(child, out, seen, depth + 1);
	}
	return out;
}

/** The secrets a simulator knows: every account's key and secret, identity passwords and tokens. */
export function simulatorSecrets(sim: Simulator): Secret[] {
	const secrets: Secret[] = [];
	sim.state.accounts.forEach((account, n) => {
		secrets.push({ kind: 'API key', value: account.apiKey, source: `simulator account ${n + 1}` });
		secrets.push({ kind: 'API secret', value: account.apiSecret, source: `simulator account ${n + 1}` });
	});
	for (const user of sim.state.col('identity.users')) {
		if (typeof user.password === 'string') {
			secrets.push({ kind: 'password', value: user.password, source: `identity user ${String(user.username)}` });
		}
	}
	for (const session of sim.state.col('identity.sessions')) {
		if (typeof session.token === 'string') {
			secrets.push({ kind: 'access token', value: session.token, source: 'identity session' });
		}
		if (typeof session.refreshToken === 'string') {
			secrets.push({ kind: 'refresh token', value: session.refreshToken, source: 'identity session' });
		}
	}
	return secrets;
}

const CREDENTIAL_SECRET_KINDS: Record<string, SecretKind> = {
	apiKey: 'API key',
	apiSecret: 'API secret',
	password: 'password',
	accessToken: 'access token',
	refreshToken: 'refresh token',
};

/** Secret values among credential values (by field name). */
export function credentialSecrets(credentials: Record<string, IDataObject | undefined>): Secret[] {
	const secrets: Secret[] = [];
	for (const [type, values] of Object.entries(credentials)) {
		for (const [key, value] of Object.entries(values ?? {})) {
			if (typeof value !== 'string') continue;
			const kind = CREDENTIAL_SECRET_KINDS[key] ?? (/secret|password|token|key/i.test(key) ? 'credential value' : undefined);
			if (kind) secrets.push({ kind, value, source: `credential ${type}.${key}` });
		}
	}
	return secrets;
}

function isToken(secret: Secret): boolean {
	return secret.kind === 'access token' || secret.kind === 'refresh token';
}

function excerpt(text: string, value: string): string {
	const at = text.indexOf(value);
	const before = text.slice(Math.max(0, at - 60), at);
	const after = text.slice(at + value.length, at + value.length + 60);
	return `${before}<${value.length}-character secret>${after}`.replace(/\s+/g, ' ');
}

/** Every secret found in the texts of the records (an empty list when nothing leaked). */
export function scanRecords(records: RunRecord[], knownSecrets: Secret[]): Finding[] {
	const findings: Finding[] = [];
	for (const record of records) {
		const secrets = [...knownSecrets, ...record.secrets].filter((s) => s.value.length >= MIN_SECRET_LENGTH);
		for (const scanned of record.texts) {
			for (const secret of secrets) {
				if (scanned.tokensAllowed && isToken(secret)) continue;
				if (!scanned.text.includes(secret.value)) continue;
				findings.push({ test: record.test, secret, where: scanned.where, excerpt: excerpt(scanned.text, secret.value) });
			}
		}
	}
	return findings;
}

export function describeFindings(findings: Finding[]): string {
	const lines = findings.map(
		(f) => `  - ${f.secret.kind} (${f.secret.source}) in ${f.where} of "${f.test}": ...${f.excerpt}...`,
	);
	return `SECRET LEAK: ${findings.length} secret value(s) found in node outputs or errors:\n${lines.join('\n')}`;
}

interface RunLike {
	run: { data: { resultData: { runData: Record<string, unknown[]>; error?: unknown } } };
}

interface SpecLike {
	name?: string;
	parameters: INodeParameters;
}

const pending: RunRecord[] = [];
let recordedRuns = 0;
let scannedTexts = 0;

function currentTest(): string {
	try {
		return expect.getState().currentTestName ?? '(outside a test)';
	} catch {
		return '(outside a test)';
	}
}

/** Called by runNodes() for every run: keeps its outputs and errors for the scan after the test. */
export function recordRun(
	specs: SpecLike[],
	nodeNames: string[],
	credentials: Record<string, IDataObject | undefined>,
	result: RunLike,
): void {
	const texts: ScannedText[] = [];
	const add = (where: string, tokensAllowed: boolean, value: unknown) => {
		texts.push({ where, tokensAllowed, text: collectStrings(value).join('\n') });
	};
	const runData = result.run.data.resultData.runData;
	specs.forEach((spec, index) => {
		const name = nodeNames[index];
		const op = `${String(spec.parameters.resource)}.${String(spec.parameters.operation)}`;
		for (const [runIndex, taskData] of (runData[name] ?? []).entries()) {
			const task = taskData as { data?: { main?: Array<Array<{ json?: unknown; error?: unknown }> | null> }; error?: unknown };
			for (const [output, items] of (task.data?.main ?? []).entries()) {
				for (const [itemIndex, item] of (items ?? []).entries()) {
					const where = `output ${output} item ${itemIndex} of node "${name}" (${op}, run ${runIndex})`;
					add(where, TOKEN_ISSUING_OPERATIONS.has(op), item.json);
					// An error item (continueOnFail) carries the error itself too.
					if (item.error) add(`the error of ${where}`, false, item.error);
				}
			}
			if (task.error) add(`the error of node "${name}" (${op}, run ${runIndex})`, false, task.error);
		}
	});
	if (result.run.data.resultData.error) add('the workflow error', false, result.run.data.resultData.error);
	pending.push({ test: currentTest(), texts, secrets: credentialSecrets(credentials) });
	recordedRuns++;
}

/** Scans what was recorded since the last audit; throws a loud error when a secret shows up. */
export function auditNow(): { runs: number; texts: number } {
	const records = pending.splice(0);
	const known = [...startedSimulators].flatMap(simulatorSecrets);
	const findings = scanRecords(records, known);
	const texts = records.reduce((sum, r) => sum + r.texts.length, 0);
	scannedTexts += texts;
	if (findings.length) throw new Error(describeFindings(findings));
	return { runs: records.length, texts };
}

/** Totals of this test file so far. */
export function auditStats(): { recordedRuns: number; scannedTexts: number; pending: number } {
	return { recordedRuns, scannedTexts, pending: pending.length };
}

// Every test of a file that runs workflows through the harness is audited when it ends.
if (typeof afterEach === 'function') {
	afterEach(() => {
		auditNow();
	});
}
