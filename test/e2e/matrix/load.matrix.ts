/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The built package with the n8n-workflow (and n8n-core loader) of each n8n in the matrix, on that
 * n8n's Node: the packed tarball is extracted outside the repo, so its `require('n8n-workflow')`
 * gets that n8n's copy, as in a user's n8n. The three nodes and both credentials load, and every
 * description (and the parameters each resource/operation shows) is what the in-process layer's
 * pinned n8n-core 2.8.1 / n8n-workflow 2.8.0 make of it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { LoadReport } from '../../support/load-check';
import { nodeModulesOf } from '../../support/load-check';
import type { N8nTarget } from '../../support/n8n-install';
import { ensureN8n, ensureNode, installedVersion, matrixTargets, n8nCacheDir, packPackage, REPO_DIR } from '../../support/n8n-install';
import { INSTALL_TIMEOUT } from '../setup';

const CHECK = path.join(REPO_DIR, 'test', 'support', 'load-check.ts');
const TSX = path.join(REPO_DIR, 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** Runs load-check.ts with the given Node, resolving n8n-workflow from `from`'s n8n-core. */
function report(nodeBin: string, packageDir: string, from: string): Promise<LoadReport> {
	return new Promise((resolve, reject) => {
		execFile(
			nodeBin,
			[TSX, CHECK, packageDir, from],
			{ env: { ...process.env, NODE_PATH: nodeModulesOf(from) }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
			(error, stdout, stderr) => {
				if (error) reject(new Error(`load check failed: ${stderr}`));
				else resolve(JSON.parse(stdout.trim().split('\n').pop() as string) as LoadReport);
			},
		);
	});
}

let packageDir: string;
let baseline: LoadReport;

beforeAll(async () => {
	const tgz = await packPackage();
	packageDir = mkdtempSync(path.join(os.tmpdir(), 'sp-load-'));
	await new Promise<void>((resolve, reject) =>
		execFile('tar', ['xzf', tgz, '-C', packageDir, '--strip-components=1'], (error) => (error ? reject(error) : resolve())),
	);
	// The in-process layer's pins, from the repo's node_modules, on the running Node.
	baseline = await report(process.execPath, packageDir, REPO_DIR);
}, 180_000);

afterAll(() => {
	if (packageDir) rmSync(packageDir, { recursive: true, force: true });
});

it('the baseline is the in-process layer\'s n8n-workflow 2.8.0 with the three nodes and both credentials', () => {
	expect(baseline.n8nWorkflow.version).toBe('2.8.0');
	expect(baseline.known).toEqual({
		nodes: ['salesPayments', 'salesPaymentsPollingTrigger', 'salesPaymentsTrigger'],
		credentials: ['salesPaymentsApi', 'salesPaymentsIdentityApi'],
	});
	expect(Object.keys(baseline.operations).length).toBeGreaterThan(40);
});

describe.each(matrixTargets().map((t) => [t.version, t] as [string, N8nTarget]))('the built package in n8n %s', (_version, target) => {
	let loaded: LoadReport;

	beforeAll(async () => {
		await ensureN8n((line) => process.stderr.write(`${line}\n`), target);
		const node = await ensureNode(target.node);
		loaded = await report(node.bin, packageDir, path.join(n8nCacheDir(target), 'node_modules', 'n8n'));
	}, INSTALL_TIMEOUT);

	it('loads with that n8n\'s own n8n-workflow, on its Node', () => {
		expect(loaded.n8nWorkflow.version).toBe(installedVersion(target, 'n8n-workflow'));
		expect(loaded.n8nWorkflow.path.startsWith(realpathSync(n8nCacheDir(target)))).toBe(true);
		// The package's own require('n8n-workflow') got that same copy.
		expect(loaded.packageN8nWorkflow).toBe(loaded.n8nWorkflow.path);
		expect(loaded.node.split('.')[0]).toBe(`v${target.node.split('.')[0]}`);
	});

	it('is in the README\'s compatibility table with its Node and n8n-workflow', () => {
		const readme = readFileSync(path.join(REPO_DIR, 'README.md'), 'utf8');
		const row = readme.split('\n').find((l) => l.startsWith(`| ${target.version} `));
		expect(row?.split('|').slice(1, 4).map((c) => c.trim().split(' ')[0])).toEqual([target.version, target.node, loaded.n8nWorkflow.version]);
	});

	it('loads the three nodes (action, polling trigger, webhook trigger) and both credentials', () => {
		expect(loaded.known).toEqual(baseline.known);
		expect(loaded.nodes.map((n) => [n.name, n.hasExecute, n.hasPoll, n.hasWebhook])).toEqual([
			['salesPayments', true, false, false],
			['salesPaymentsPollingTrigger', false, true, false],
			['salesPaymentsTrigger', false, false, true],
		]);
	});

	it('describes the nodes and credentials as the in-process layer sees them', () => {
		expect(loaded.nodes).toEqual(baseline.nodes);
		expect(loaded.credentials).toEqual(baseline.credentials);
	});

	it('shows the same parameters for every resource and operation', () => {
		expect(loaded.operations).toEqual(baseline.operations);
	});
});
