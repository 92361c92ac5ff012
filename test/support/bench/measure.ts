/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * How the bench measures: every case runs in a fresh child process (so that memory numbers are
 * its own) with a time limit, and answers one `{"result": ...}` line; inside it, the work's wall
 * time, CPU time and peak memory above the level before it. Each figure of the tables is the
 * median of the rounds.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import { REPO_DIR } from './settings';

export interface Memory {
	/** Highest resident set size during the measured work, minus the RSS just before it (MB). */
	rssDeltaMb: number;
	/** Highest V8 heap use during the measured work, minus the heap use just before it (MB). */
	heapDeltaMb: number;
}

/** The figures of a case over its runs: the median wall time and every run's, median CPU time and memory. */
export interface RunFigures {
	runs: number;
	wallMs: number;
	runsMs: number[];
	cpuMs: number;
	rssDeltaMb: number;
	heapDeltaMb: number;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Samples memory while `work` runs and returns its peak use above the level before it. */
export async function measureMemory<T>(work: () => Promise<T>): Promise<{ value: T; memory: Memory; wallMs: number; cpuMs: number }> {
	gc();
	gc();
	const before = process.memoryUsage();
	const maxRssBefore = process.resourceUsage().maxRSS * 1024;
	let peakRss = before.rss;
	let peakHeap = before.heapUsed;
	const sample = () => {
		const m = process.memoryUsage();
		if (m.rss > peakRss) peakRss = m.rss;
		if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
	};
	const timer = setInterval(sample, 10);
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	let value: T;
	try {
		value = await work();
	} finally {
		clearInterval(timer);
	}
	const wallMs = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	sample();
	// The kernel's high-water mark is exact when the work raised it.
	const maxRssAfter = process.resourceUsage().maxRSS * 1024;
	if (maxRssAfter > maxRssBefore) peakRss = Math.max(peakRss, maxRssAfter);
	const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
	return {
		value,
		wallMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		memory: { rssDeltaMb: mb(peakRss - before.rss), heapDeltaMb: mb(peakHeap - before.heapUsed) },
	};
}

/** sha256 of the record ids in output order: equal outputs have equal digests. */
export function digestOf(ids: unknown[]): string {
	const hash = createHash('sha256');
	for (const id of ids) hash.update(`${String(id)}\n`);
	return hash.digest('hex');
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** Arguments that run `file` (a TypeScript module, through this process's tsx) on one case: `<flag> <json>`. */
export function caseArgs(file: string, flag: string, spec: unknown): string[] {
	return [...process.execArgv, '--expose-gc', file, flag, JSON.stringify(spec)];
}

/**
 * Runs `node <args>` in a child process and returns what its last `{"result": ...}` line holds;
 * `what` names the case when it fails or takes longer than `timeoutMs` (then it is killed).
 */
export function runChild<T>(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number, what: string): Promise<T> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, args, {
			cwd: REPO_DIR,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('close', (code) => {
			clearTimeout(timer);
			const line = stdout
				.split('\n')
				.reverse()
				.find((l) => l.startsWith('{"result"'));
			if (code !== 0 || !line) return reject(new Error(`${what} failed (exit ${code}): ${stderr.slice(-2000)}`));
			resolve((JSON.parse(line) as { result: T }).result);
		});
	});
}

/** The child's side: runs the case given as `<flag> <json>` and answers its result line. */
export async function answerCase<S>(flag: string, runCase: (spec: S) => Promise<unknown>): Promise<void> {
	const at = process.argv.indexOf(flag);
	if (at < 0) throw new Error(`usage: ${flag} <json>`);
	const result = await runCase(JSON.parse(process.argv[at + 1]) as S);
	process.stdout.write(`${JSON.stringify({ result })}\n`);
	process.exit(0);
}
