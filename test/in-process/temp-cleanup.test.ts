/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * `npm test` and `npm run demo` leave nothing in the temporary folder (issue 53): both run through
 * scripts/with-temp.js, which gives the command a temporary folder of its own and removes it when the
 * command ends: passed, failed or stopped with Ctrl-C. Other engineers' runs share this machine's
 * /tmp, so each case gives its subject a TMPDIR of its own and checks that folder before and after.
 * The demo removes the tarball it packed once n8n has it (test/e2e/demo.test.ts checks that), so a
 * demo left running for hours keeps nothing but its n8n there.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const WRAPPER = 'node scripts/with-temp.js ';
const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** What a subject leaves, in Node: the temporary folders and tarball `npm test` and the demo make. */
const MAKE_TEMP = `
const fs = require('node:fs'), os = require('node:os'), path = require('node:path');
const pack = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-pack-'));
fs.writeFileSync(path.join(pack, 'n8n-nodes-sales-payments-0.1.0.tgz'), 'x');
fs.mkdirSync(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sp-n8n-')), '.n8n', 'nodes'), { recursive: true });
fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-sp-test-'));
`;

interface Ended {
	code: number | null;
	signal: NodeJS.Signals | null;
	output: string;
}

/**
 * Runs `command` through scripts/with-temp.js, as package.json does, in a process group of its own
 * (as a terminal runs `npm test`), with `tmp` as its TMPDIR; `onOutput` may act on what it prints
 * (Ctrl-C: SIGINT to the group).
 */
function run(command: string[], tmp: string, onOutput?: (text: string, pid: number) => void, timeoutMs = 240_000): Promise<Ended> {
	return new Promise((resolve, reject) => {
		const child = spawn('node', ['scripts/with-temp.js', ...command], {
			cwd: ROOT,
			env: { ...process.env, TMPDIR: tmp, PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` },
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		const take = (chunk: Buffer) => {
			output += chunk.toString();
			onOutput?.(output, child.pid!);
		};
		child.stdout.on('data', take);
		child.stderr.on('data', take);
		const timer = setTimeout(() => {
			process.kill(-child.pid!, 'SIGKILL');
			reject(new Error(`${command.join(' ')} did not end within ${timeoutMs} ms:\n${output.slice(-2000)}`));
		}, timeoutMs);
		child.once('error', reject);
		child.once('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, output });
		});
	});
}

let tmp = '';
beforeEach(() => {
	// The subject's own temporary folder, inside this test's: nothing else writes there.
	tmp = mkdtempSync(path.join(os.tmpdir(), 'sp-cleanup-test-'));
});
afterEach(() => {
	rmSync(tmp, { recursive: true, force: true });
});

describe('npm test and npm run demo leave no temporary folder', () => {
	it('run through scripts/with-temp.js (package.json)', () => {
		for (const name of ['test', 'test:fast']) expect({ name, script: scripts[name] }).toEqual({ name, script: expect.stringMatching(/^node scripts\/with-temp\.js jest /) });
		expect(scripts.demo).toMatch(/ && node scripts\/with-temp\.js tsx test\/support\/demo\.ts$/);
	});

	it("npm test's own command on a test file that makes temporary folders: they are made, and gone at the end", async () => {
		expect(readdirSync(tmp)).toEqual([]);
		const listing = path.join(mkdtempSync(path.join(os.tmpdir(), 'sp-cleanup-listing-')), 'listing');
		const jest = scripts.test.slice(WRAPPER.length);
		// The listing is taken inside the run, just before its temporary folder is removed.
		// --testPathPattern: a path after --selectProjects would be read as one more project name.
		const ended = await run(['sh', '-c', `${jest} --testPathPattern 'in-process/(docs-paths|customer)\\.test' >/dev/null 2>&1; code=$?; ls -A "$TMPDIR" > ${listing}; exit $code`], tmp);
		const made = readFileSync(listing, 'utf8').split('\n').filter(Boolean);
		rmSync(path.dirname(listing), { recursive: true, force: true });
		expect({ code: ended.code, output: ended.code ? ended.output.slice(-2000) : '' }).toEqual({ code: 0, output: '' });
		expect(made).toEqual(expect.arrayContaining([expect.stringMatching(/^n8n-sp-test-/)]));
		expect(readdirSync(tmp)).toEqual([]);
	}, 180_000);

	it('a failing command: its exit code kept, its temporary folders and tarball gone', async () => {
		const ended = await run(['node', '-e', `${MAKE_TEMP} process.exit(3)`], tmp);
		expect(ended.code).toBe(3);
		expect(readdirSync(tmp)).toEqual([]);
	});

	it('Ctrl-C (SIGINT to the whole process group) while the command runs: gone, exit code 130', async () => {
		let sent = false;
		const ended = await run(['node', '-e', `${MAKE_TEMP} console.log('ready'); setInterval(() => {}, 1000)`], tmp, (text, pid) => {
			if (text.includes('ready') && !sent) {
				sent = true;
				process.kill(-pid, 'SIGINT');
			}
		});
		expect({ code: ended.code, signal: ended.signal }).toEqual({ code: 130, signal: null });
		expect(readdirSync(tmp)).toEqual([]);
	});

	it('Ctrl-C to a command that stops cleanly first, as the demo does: it is waited for, then its folder removed', async () => {
		const slowStop = `${MAKE_TEMP} process.on('SIGINT', () => setTimeout(() => { fs.writeFileSync(path.join(os.tmpdir(), 'written-while-stopping'), 'x'); process.exit(0); }, 1500)); console.log('ready'); setInterval(() => {}, 1000);`;
		let sent = false;
		const ended = await run(['node', '-e', slowStop], tmp, (text, pid) => {
			if (text.includes('ready') && !sent) {
				sent = true;
				process.kill(-pid, 'SIGINT');
			}
		});
		expect(ended.code).toBe(0);
		expect(readdirSync(tmp)).toEqual([]);
	});
});
