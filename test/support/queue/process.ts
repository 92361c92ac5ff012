/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * One long-running process of the queue-mode cluster (n8n main, webhook or worker, postgres,
 * redis), known by its PID. Output goes to a log file (read back for "Worker started execution"
 * lines and for diagnosis). stop() sends ONE SIGTERM (n8n treats a second one as "kill now,
 * skip the graceful shutdown") and waits a bounded time; only then SIGKILL.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';

import { freePort } from '../n8n-process';
import { closeAtEnd } from '../teardown';

/** Ports handed out in this test process: freePort() may return one twice. */
const usedPorts = new Set<number>();

/** A free 127.0.0.1 port not handed out before in this process. */
export async function uniquePort(): Promise<number> {
	for (let attempt = 0; attempt < 100; attempt++) {
		const port = await freePort();
		if (!usedPorts.has(port)) {
			usedPorts.add(port);
			return port;
		}
	}
	throw new Error('no unused free port after 100 attempts');
}

/** Every process started here that may still run: killed if the test process exits abruptly. */
const live = new Set<ManagedProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.once('exit', () => {
		for (const p of live) p.killNow();
	});
}

export class ManagedProcess {
	private proc?: ChildProcess;
	private exited?: Promise<void>;
	/** Times this process was started (a restart appends to the same log). */
	starts = 0;
	/** Where the current start's output begins in the log file. */
	private logOffset = 0;

	constructor(
		readonly name: string,
		readonly cmd: string,
		readonly args: string[],
		public env: NodeJS.ProcessEnv,
		readonly logFile: string,
	) {}

	get pid(): number | undefined {
		return this.proc?.pid;
	}

	get running(): boolean {
		return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
	}

	start(): void {
		if (this.running) throw new Error(`${this.name} is already running`);
		this.logOffset = existsSync(this.logFile) ? statSync(this.logFile).size : 0;
		const fd = openSync(this.logFile, 'a');
		try {
			// Own process group: a Ctrl-C in the terminal reaches the test runner, which stops
			// each process itself (one SIGTERM each).
			this.proc = spawn(this.cmd, this.args, { env: this.env, stdio: ['ignore', fd, fd], detached: true });
		} finally {
			closeSync(fd);
		}
		const proc = this.proc;
		this.exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
		proc.once('exit', () => live.delete(this));
		proc.unref();
		live.add(this);
		installExitHook();
		this.unregister = closeAtEnd(`${this.name} (pid ${proc.pid})`, () => this.stop(15_000));
		this.starts++;
	}

	private unregister = (): void => undefined;

	/** The whole log of this process (every start). */
	log(): string {
		return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
	}

	/** The output of the current (or last) start only. */
	logSinceStart(): string {
		return existsSync(this.logFile) ? readFileSync(this.logFile).subarray(this.logOffset).toString('utf8') : '';
	}

	tail(chars = 4000): string {
		const text = this.log();
		return text.slice(-chars);
	}

	/** One SIGTERM, then up to `graceMs` for a clean exit; SIGKILL only after that. */
	async stop(graceMs = 30_000): Promise<{ graceful: boolean; ms: number }> {
		this.unregister();
		const proc = this.proc;
		const started = Date.now();
		if (!proc || !this.running || !proc.pid) return { graceful: true, ms: 0 };
		process.kill(proc.pid, 'SIGTERM');
		let timer: NodeJS.Timeout | undefined;
		const timedOut = await Promise.race([
			this.exited!.then(() => false),
			new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
		]);
		clearTimeout(timer);
		if (timedOut) {
			this.killNow();
			await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
		}
		return { graceful: !timedOut, ms: Date.now() - started };
	}

	/** SIGKILL by PID (used only after a bounded SIGTERM wait, or when the runner exits). */
	killNow(): void {
		const pid = this.proc?.pid;
		if (pid && this.running) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// already gone
			}
		}
	}
}
