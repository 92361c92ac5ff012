/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Packs the package as npm would publish it and runs n8n's community-package scanner
 * (`analyzePackage` of @n8n/scan-community-package) on both legs it checks before
 * verification: the shipped tarball (compiled .js + package.json) and the node/credential
 * sources. Prints the tarball's size and files; exits 1 on any finding.
 * Usage: npm run scan (after npm run build); `--json` prints the report as JSON.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

import { packPackage, REPO_DIR } from './n8n-install';
import { runCommand } from './command';

export const ALLOWED_TOP_LEVEL = ['dist', 'package.json', 'README.md', 'LICENSE'];

export interface ScanReport {
	tarball: string;
	sizeBytes: number;
	files: string[];
	unexpectedFiles: string[];
	tarballLeg: { passed: boolean; message?: string; details?: string };
	sourceLeg: { passed: boolean; message?: string; details?: string };
}

export async function scanPackage(): Promise<ScanReport> {
	const tarball = await packPackage();
	const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
		.split('\n')
		.filter(Boolean)
		.map((f) => f.replace(/^package\//, ''));
	const unexpectedFiles = files.filter((f) => !ALLOWED_TOP_LEVEL.includes(f.split('/')[0]));
	const dir = mkdtempSync(path.join(os.tmpdir(), 'sp-scan-'));
	execFileSync('tar', ['xzf', tarball, '-C', dir, '--strip-components=1']);
	// The scanner is an ES module; load it at run time.
	const scanner = (await import('@n8n/scan-community-package/scanner/scanner.mjs')) as {
		analyzePackage: (dir: string, patterns?: string[]) => Promise<ScanReport['tarballLeg']>;
		SOURCE_FILE_PATTERNS: string[];
	};
	const tarballLeg = await scanner.analyzePackage(dir, ['**/*.js', 'package.json']);
	const sourceLeg = await scanner.analyzePackage(REPO_DIR, scanner.SOURCE_FILE_PATTERNS);
	rmSync(dir, { recursive: true, force: true });
	return { tarball, sizeBytes: statSync(tarball).size, files, unexpectedFiles, tarballLeg, sourceLeg };
}

export async function main() {
	const report = await scanPackage();
	if (process.argv.includes('--json')) {
		process.stdout.write(`${JSON.stringify(report)}\n`);
		return;
	}
	process.stdout.write(`Tarball: ${path.basename(report.tarball)} (${(report.sizeBytes / 1024).toFixed(1)} KiB, ${report.files.length} files)\n`);
	for (const [name, leg] of [
		['shipped tarball', report.tarballLeg],
		['node/credential sources', report.sourceLeg],
	] as const) {
		process.stdout.write(`Scanner, ${name}: ${leg.passed ? 'no findings' : `FAILED: ${leg.message}`}\n`);
		if (leg.details) process.stdout.write(`${leg.details}\n`);
	}
	if (report.unexpectedFiles.length) process.stdout.write(`Unexpected files in the tarball: ${report.unexpectedFiles.join(', ')}\n`);
	const ok = report.tarballLeg.passed && report.sourceLeg.passed && report.unexpectedFiles.length === 0;
	process.exit(ok ? 0 : 1);
}

runCommand(module, main);
