/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The package as npm publishes it: only dist, README, LICENSE and package.json, zero runtime
 * dependencies, and no finding from n8n's community-package scanner.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { recordFigures } from '../support/helpers/figures';
import type { ScanReport } from '../support/scan';
import { schemaFiles } from '../support/schemas/files';

const ROOT = path.resolve(__dirname, '../..');
let report: ScanReport;

beforeAll(() => {
	// The scanner is an ES module, which jest's CommonJS runtime cannot load: run the script.
	// Without jest's NODE_ENV=test, under which n8n's lint plugin takes every file for a test node.
	const env = { ...process.env };
	delete env.NODE_ENV;
	const out = execFileSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['test/support/scan.ts', '--json'], {
		cwd: ROOT,
		env,
		encoding: 'utf8',
		timeout: 180_000,
	});
	report = JSON.parse(out.trim().split('\n').pop() as string) as ScanReport;
}, 200_000);

describe('published package', () => {
	it('holds only dist, README.md, LICENSE and package.json', () => {
		expect(report.unexpectedFiles).toEqual([]);
		expect(report.files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
		expect(report.files.some((f) => f.startsWith('dist/nodes/SalesPayments/SalesPayments.node.js'))).toBe(true);
		expect(report.files.some((f) => f.endsWith('.svg'))).toBe(true);
		recordFigures('published package', { tarballBytes: report.sizeBytes });
	});

	it('ships the schema preview files where n8n looks for them: one per operation and node version', () => {
		const shipped = report.files.filter((f) => f.includes('/__schema__/')).sort();
		const expected = [...schemaFiles().keys()].map((f) => `dist/nodes/SalesPayments/__schema__/${f}`).sort();
		expect(shipped).toEqual(expected);
		expect(shipped).toContain('dist/nodes/SalesPayments/__schema__/v1.0.0/order/createCharge.json');
	});

	it('passes n8n\'s scanner on the shipped tarball and on the sources', () => {
		expect(report.tarballLeg).toEqual({ passed: true });
		expect(report.sourceLeg).toEqual({ passed: true });
	});

	it('has no runtime dependencies and imports only n8n-workflow and node:crypto', () => {
		const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
		expect(pkg.dependencies).toBeUndefined();
		const requires = execFileSync('grep', ['-rhoE', 'require\\("[^".][^"]*"\\)', path.join(ROOT, 'dist')], {
			encoding: 'utf8',
		});
		const modules = new Set(requires.split('\n').filter(Boolean).map((r) => r.slice(9, -2)));
		expect([...modules].filter((m) => !['n8n-workflow', 'node:crypto'].includes(m))).toEqual([]);
	});
});
