/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Global setup of the e2e layer (jest.config.js): the slow installs happen here, before any test
 * file runs, with progress lines on stderr: n8n 2.8.4 into the cache on first use, and Chromium for
 * the editor test when that test is among the selected ones (test/support/chromium.ts), LibreOffice
 * Calc for the .xlsx round trip and the files of export-trust.test.ts and examples.test.ts likewise (test/support/libreoffice.ts).
 * It also starts the n8n the files of SHARED_N8N_FILES share, one per jest worker (setup.ts), stopped by the global teardown.
 */
import path from 'node:path';

import { ensureChromium } from '../support/chromium';
import { ensurePdftotext, ensureSoffice } from '../support/libreoffice';
import { ensureN8n, REPO_DIR } from '../support/n8n-install';
import { step, toStderr } from '../support/progress';
import { SEED_VARIABLE, seedUserFolder, SHARED_N8N_FILES, startSharedN8ns } from './setup';
import { SHARED_KEY } from './global-teardown';

const EDITOR_TEST = path.join(REPO_DIR, 'test', 'e2e', 'demo.test.ts');
/** The tests that open files with LibreOffice Calc. */
const CALC_TESTS = ['export-xlsx.test.ts', 'export-trust.test.ts', 'examples.test.ts'].map((name) => path.join(REPO_DIR, 'test', 'e2e', name));

export default async function globalSetup(globalConfig: { testPathPattern?: string; maxWorkers: number }): Promise<void> {
	await ensureN8n(toStderr);
	// One n8n user folder with the package installed and the database made, copied by each file (setup.ts).
	const seed = await step('e2e', 'packing the package and making an n8n user folder with it, which each test file copies', toStderr, seedUserFolder);
	process.env[SEED_VARIABLE] = seed.userFolder;
	const pattern = globalConfig.testPathPattern ?? '';
	const selected = (file: string) => !pattern || new RegExp(pattern, 'i').test(path.join(REPO_DIR, 'test', 'e2e', file));
	// The n8n the files of SHARED_N8N_FILES share (setup.ts, openSession), one per jest worker, when one of them runs.
	const workers = Math.min(globalConfig.maxWorkers, SHARED_N8N_FILES.filter(selected).length);
	if (workers > 0) {
		(globalThis as Record<string, unknown>)[SHARED_KEY] = await step('e2e', `starting the n8n the test files share (${workers}, one per jest worker)`, toStderr, async () => await startSharedN8ns(seed.userFolder, workers));
	}
	if (!pattern || new RegExp(pattern, 'i').test(EDITOR_TEST)) await ensureChromium(toStderr);
	if (!pattern || CALC_TESTS.some((test) => new RegExp(pattern, 'i').test(test))) {
		await ensureSoffice(toStderr);
		// The finance workbook as Calc prints it (examples.test.ts): poppler's pdftotext reads the PDF.
		await ensurePdftotext(toStderr);
	}
}
