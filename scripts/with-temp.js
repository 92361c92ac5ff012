// Runs a command (`npm test`, `npm run demo`) with a temporary folder of its own, and removes that
// folder when the command ends, whether it passed, failed or was stopped with Ctrl-C: every
// temporary folder and tarball the command and its children make (sp-pack-*, sp-n8n-*,
// n8n-sp-test-*, sp-calc-*, n8n's and LibreOffice's own) goes into it, since Node's os.tmpdir() and
// most programs follow TMPDIR. Plain JavaScript: npm runs it before anything is built.
//
//   node scripts/with-temp.js <command> [args...]
//
// Ctrl-C reaches the whole process group: the command stops (the demo stops n8n and the simulator
// first); this script waits for it, then removes the folder. SIGTERM sent to this script alone is
// passed on to the command. The exit code is the command's (130 after Ctrl-C, 143 after SIGTERM).
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const [command, ...args] = process.argv.slice(2);
if (!command) {
	process.stderr.write('usage: node scripts/with-temp.js <command> [args...]\n');
	process.exit(2);
}

const root = mkdtempSync(path.join(os.tmpdir(), 'sp-run-'));
const env = { ...process.env, TMPDIR: root, TMP: root, TEMP: root, SP_RUN_TMPDIR: root };
const child = spawn(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });

/** Removes the folder; a process that has not quite let go of a file in it gets a few more tries. */
function removeRoot() {
	try {
		rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
	} catch (error) {
		process.stderr.write(`[temp] could not remove ${root}: ${error.message}\n`);
	}
}

let signal;
// The terminal's Ctrl-C reaches the command too: wait for it to stop. A signal for this script alone is passed on.
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(name, () => {
		signal ??= name;
		if (name !== 'SIGINT') child.kill(name);
	});
}

child.on('error', (error) => {
	process.stderr.write(`[temp] could not start ${command}: ${error.message}\n`);
	removeRoot();
	process.exit(127);
});

child.on('exit', (code, childSignal) => {
	removeRoot();
	const by = childSignal ?? signal;
	const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
	process.exit(code ?? codes[by] ?? 1);
});
