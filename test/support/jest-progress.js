// A jest reporter next to the default one: while a test file runs longer than a few seconds (the
// real-n8n suites take minutes), a plain line every 10 s says which file, how many of its tests
// are done and how many files are; jest itself prints nothing about a file until it ends, and
// draws its status line only in a terminal. Plain JavaScript: jest loads reporters untransformed.
const path = require('node:path');

function seconds(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

class ProgressReporter {
	constructor(globalConfig) {
		this.rootDir = globalConfig.rootDir;
		this.everyMs = (Number(process.env.SP_PROGRESS_SECONDS) > 0 ? Number(process.env.SP_PROGRESS_SECONDS) : 10) * 1000;
		this.running = new Map();
		this.filesDone = 0;
		this.files = 0;
	}

	onRunStart(results) {
		this.files = results.numTotalTestSuites;
		this.timer = setInterval(() => this.tick(), this.everyMs);
		this.timer.unref();
	}

	onTestFileStart(test) {
		this.running.set(test.path, { started: Date.now(), done: 0 });
	}

	onTestCaseResult(test) {
		const file = this.running.get(test.path);
		if (file) file.done++;
	}

	onTestFileResult(test) {
		this.running.delete(test.path);
		this.filesDone++;
	}

	onRunComplete() {
		clearInterval(this.timer);
	}

	tick() {
		for (const [file, state] of this.running) {
			const ms = Date.now() - state.started;
			if (ms < this.everyMs) continue;
			process.stderr.write(
				`[jest] ${path.relative(this.rootDir, file)}: ${state.done} test${state.done === 1 ? '' : 's'} done, ${seconds(ms)} ` +
					`(files: ${this.filesDone} of ${this.files} done)\n`,
			);
		}
	}

	getLastError() {
		return undefined;
	}
}

module.exports = ProgressReporter;
