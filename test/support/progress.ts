/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Progress of the long steps (installs of n8n, Node, Chromium, Postgres and Redis; the demo's
 * start): one plain line when a step starts, one every few seconds while it runs (what it is doing,
 * how far, how long so far), one when it ends. Plain lines, no cursor tricks, so CI logs read the
 * same as a terminal. Lines go straight to stderr: jest buffers a test file's console output until
 * the file ends, but not writes to process.stderr.
 */
import { spawn } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

export type Log = (line: string) => void;

/** Writes a line to stderr at once (also from inside jest). */
export const toStderr: Log = (line) => {
	process.stderr.write(`${line}\n`);
};

/** Seconds between two progress lines of a running step (SP_PROGRESS_SECONDS overrides it). */
export function progressInterval(): number {
	const seconds = Number(process.env.SP_PROGRESS_SECONDS);
	return (Number.isFinite(seconds) && seconds > 0 ? seconds : 5) * 1000;
}

/** 42 s, 3 min 05 s. */
export function duration(ms: number): string {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** 1,234 */
export function count(n: number): string {
	return n.toLocaleString('en-US');
}

/**
 * Runs `work` as one named step: `[label] what...` first, `[label] <status()>, <elapsed>` every few
 * seconds while it runs, `[label] what: done in <elapsed>` (or `failed after`) at the end. The timer
 * is cleared whatever happens.
 */
export async function step<T>(label: string, what: string, log: Log, work: () => Promise<T>, status: () => string = () => what): Promise<T> {
	const started = Date.now();
	log(`[${label}] ${what}...`);
	const timer = setInterval(() => log(`[${label}] ${status()}, ${duration(Date.now() - started)}`), progressInterval());
	try {
		const result = await work();
		log(`[${label}] ${what}: done in ${duration(Date.now() - started)}`);
		return result;
	} catch (error) {
		log(`[${label}] ${what}: failed after ${duration(Date.now() - started)}`);
		throw error;
	} finally {
		clearInterval(timer);
	}
}

export interface CommandResult {
	code: number;
	stdout: string;
	stderr: string;
}

/** Reads a command's output lines as they come and says how far it got. */
export interface Watcher {
	line(text: string): void;
	status(): string;
	/** What the command did, said once it succeeded. */
	summary?(): string;
}

const KEEP = 4 * 1024 * 1024;

function keepTail(text: string): string {
	return text.length > KEEP ? text.slice(-KEEP) : text;
}

/**
 * Runs a command as a step (see step()): its output is watched line by line for the progress
 * lines and kept (the last 4 MB of each stream) for the caller's error message. Bounded: after
 * `timeoutMs` it is stopped (SIGTERM, then SIGKILL) and the result has code 124.
 */
export async function runStep(
	label: string,
	what: string,
	cmd: string,
	args: string[],
	opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; log: Log; watcher?: Watcher },
): Promise<CommandResult> {
	const watcher = opts.watcher;
	const spawned = () =>
		new Promise<CommandResult>((resolve) => {
			const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
			const out = { stdout: '', stderr: '' };
			const partial = { stdout: '', stderr: '' };
			const take = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
				const text = chunk.toString();
				out[stream] = keepTail(out[stream] + text);
				if (!watcher) return;
				const lines = (partial[stream] + text).split('\n');
				partial[stream] = lines.pop() ?? '';
				for (const line of lines) watcher.line(line);
			};
			child.stdout.on('data', take('stdout'));
			child.stderr.on('data', take('stderr'));
			let timedOut = false;
			const timer = setTimeout(() => {
				timedOut = true;
				child.kill('SIGTERM');
				setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
			}, opts.timeoutMs);
			const finish = (code: number) => {
				clearTimeout(timer);
				const note = timedOut ? `\n(stopped after ${duration(opts.timeoutMs)})` : '';
				resolve({ code: timedOut ? 124 : code, stdout: out.stdout, stderr: out.stderr + note });
			};
			child.once('error', (error) => {
				out.stderr += error.message;
				finish(127);
			});
			child.once('close', (code) => finish(code ?? 1));
		});
	let result: CommandResult = { code: 1, stdout: '', stderr: '' };
	try {
		await step(
			label,
			what,
			opts.log,
			async () => {
				result = await spawned();
				if (result.code !== 0) throw new Error(`exit code ${result.code}`);
				if (watcher?.summary) opts.log(`[${label}] ${watcher.summary()}`);
			},
			() => (watcher ? watcher.status() : what),
		);
	} catch {
		// step() said it failed; the caller reads the code and output.
	}
	return result;
}

/**
 * Follows `npm install --loglevel=http` with what npm itself reports (scripts/npm-progress.js, shared
 * with ensure-deps.js): manifests read, then tarballs downloaded of those needed; "from npm's cache"
 * only in the summary once npm ended, for the tarballs it never downloaded.
 */
export function npmWatcher(): Watcher {
	return npmProgress();
}

/** scripts/npm-progress.js: plain JavaScript (ensure-deps.js runs it before TypeScript tooling exists). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { npmProgress, QUIET_SECONDS } = require('../../scripts/npm-progress') as {
	npmProgress(clock?: () => number): Required<Watcher>;
	QUIET_SECONDS: number;
};

/**
 * Follows `apt-get install`: `Need to get 80.1 MB of archives`, one `Get:N ... [12.3 MB]` per
 * package downloaded, then `Unpacking` and `Setting up` per package.
 */
export function aptWatcher(): Watcher {
	let total = '';
	let newly = 0;
	let got = 0;
	let bytes = 0;
	let unpacked = 0;
	let setUp = 0;
	const units: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 };
	return {
		line(text: string) {
			const need = /^Need to get ([\d.,]+ [kMG]?B)/.exec(text);
			if (need) total = need[1];
			const counts = /(\d+) newly installed/.exec(text);
			if (counts) newly = Number(counts[1]);
			const get = /^Get:\d+ .*\[([\d.,]+) ([kMG]?B)\]\s*$/.exec(text);
			if (get) {
				got++;
				bytes += Number(get[1].replace(/,/g, '')) * (units[get[2]] ?? 1);
			}
			if (text.startsWith('Unpacking ')) unpacked++;
			if (text.startsWith('Setting up ')) setUp++;
		},
		status() {
			const of = newly ? ` of ${newly}` : '';
			if (setUp) return `setting up packages: ${setUp}${of}`;
			if (unpacked) return `unpacking packages: ${unpacked}${of}`;
			if (got) return `downloading: ${got} files${of}, ${(bytes / 1e6).toFixed(1)} MB${total ? ` of ${total}` : ''}`;
			return total ? `about to download ${total}` : 'reading the package lists';
		},
	};
}

/**
 * Megabytes of files under a folder: a walk of every file, so only for small installs (a Node.js
 * of ~190 MB and ~2,000 files); n8n's 2.3 GB and ~275,000 files take ~10 s to walk on 2 cores.
 */
export function folderMb(dir: string): number {
	let bytes = 0;
	const stack = [dir];
	while (stack.length) {
		const current = stack.pop()!;
		let entries;
		try {
			entries = readdirSync(current, { withFileTypes: true });
		} catch {
			continue;
		}
		for (const entry of entries) {
			const full = path.join(current, entry.name);
			if (entry.isDirectory()) stack.push(full);
			else if (entry.isFile()) {
				try {
					bytes += lstatSync(full).size;
				} catch {
					// removed meanwhile
				}
			}
		}
	}
	return Math.round(bytes / 1e6);
}

/** A watcher that also says how much a (small) folder holds so far. */
export function withFolderSize(watcher: Watcher, dir: string, expectedMb?: number): Watcher {
	return {
		line: (text) => watcher.line(text),
		status: () => `${watcher.status()}; ${folderMb(dir)}${expectedMb ? ` of about ${expectedMb}` : ''} MB in ${dir}`,
		summary: watcher.summary ? () => watcher.summary!() : undefined,
	};
}

/**
 * Installs one of Debian's packages with apt-get (update, then install without recommends), as
 * root, with progress lines under `tag`. Returns why it could not, or nothing when it did.
 */
export async function aptInstall(tag: string, pkg: string, installTimeoutMs: number, log: Log): Promise<string | undefined> {
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const update = await runStep(tag, 'apt-get update: reading the package lists', 'apt-get', ['update', '-o', 'DPkg::Lock::Timeout=300'], {
		env,
		timeoutMs: 5 * 60_000,
		log,
		watcher: aptWatcher(),
	});
	if (update.code !== 0) return `apt-get update failed: ${update.stderr.trim().split('\n').pop()}`;
	const install = await runStep(tag, `apt-get install ${pkg}`, 'apt-get', ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=300', pkg], {
		env,
		timeoutMs: installTimeoutMs,
		log,
		watcher: aptWatcher(),
	});
	if (install.code !== 0) return `apt-get install ${pkg} failed: ${install.stderr.trim().split('\n').pop()}`;
	return undefined;
}
