/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The first run as measured (issue 53): one recorded run in the README says how long the first run
 * and the test suite take, every other page and progress line links to it instead of restating a
 * time, and the install's progress lines count what npm reports (never "from npm's cache" for a
 * tarball it downloaded).
 */
import { readFileSync } from 'node:fs';

import { N8N_TARGETS } from '../support/n8n-install';
import { npmProgress, QUIET_SECONDS } from '../support/progress';

/** What npm 11 printed at --loglevel=http for two packages with an empty cache (recorded 2026-12-07). */
const EMPTY_CACHE = [
	'npm http fetch GET 200 https://registry.npmjs.org/is-number 76ms (cache miss)',
	'npm http fetch GET 200 https://registry.npmjs.org/left-pad 39ms (cache miss)',
	'npm http cache left-pad@https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz 0ms (cache hit)',
	'npm http cache is-number@https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz 0ms (cache hit)',
	'npm http fetch GET 200 https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz 54ms (cache miss)',
	'npm http fetch GET 200 https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz 54ms (cache miss)',
];
/** The same install again with the tarballs in npm's cache (--prefer-offline). */
const WARM_CACHE = [
	'npm http fetch GET 200 https://registry.npmjs.org/is-number 14ms (cache stale)',
	'npm http fetch GET 200 https://registry.npmjs.org/left-pad 6ms (cache stale)',
	'npm http cache left-pad@https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz 0ms (cache hit)',
	'npm http cache is-number@https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz 0ms (cache hit)',
];

describe("the install's progress counts what npm reports", () => {
	it('with an empty cache: the tarballs npm needs, those downloaded so far, and at the end none from the cache', () => {
		const progress = npmProgress(() => 0);
		const statuses: string[] = [];
		for (const line of EMPTY_CACHE) {
			progress.line(line);
			statuses.push(progress.status());
		}
		expect(statuses).toEqual([
			'resolving the dependency tree: 1 package manifests read',
			'resolving the dependency tree: 2 package manifests read',
			'fetching packages: 1 needed, none downloaded so far (npm downloads those its cache lacks)',
			'fetching packages: 2 needed, none downloaded so far (npm downloads those its cache lacks)',
			'fetching packages: 2 needed, 1 downloaded so far (npm downloads those its cache lacks)',
			'fetching packages: 2 needed, 2 downloaded so far (npm downloads those its cache lacks)',
		]);
		expect(statuses.some((s) => /cache\)?$|from npm's cache/.test(s) && !s.includes('its cache lacks'))).toBe(false);
		expect(progress.summary()).toBe("2 packages: 2 downloaded, 0 from npm's cache");
	});

	it('with a warm cache: nothing downloaded, and the summary says the cache gave them', () => {
		const progress = npmProgress(() => 0);
		for (const line of WARM_CACHE) progress.line(line);
		expect(progress.status()).toBe('fetching packages: 2 needed, none downloaded so far (npm downloads those its cache lacks)');
		expect(progress.summary()).toBe("2 packages: 0 downloaded, 2 from npm's cache");
	});

	it('says when npm has been silent for a while (unpacking, linking), so a still count does not look stalled', () => {
		let now = 0;
		const progress = npmProgress(() => now);
		for (const line of EMPTY_CACHE) progress.line(line);
		now = (QUIET_SECONDS - 1) * 1000;
		expect(progress.status()).not.toContain('nothing new');
		now = 166_000;
		expect(progress.status()).toBe(
			'fetching packages: 2 needed, 2 downloaded so far (npm downloads those its cache lacks); nothing new from npm for 166 s: it does not report unpacking and linking',
		);
	});

	it("says before sqlite3's build that it prints nothing until it is done", () => {
		const install = readFileSync('test/support/n8n-install.ts', 'utf8');
		expect(install).toMatch(/npm rebuild \(2 of 2\): compiling .* with node-gyp \(it prints nothing until it is done\)/);
	});
});

/** A time of a run or an install: `6 minutes`, `6-9 min`, `3.5 min`, `~6 minutes`. */
const DURATION = /\d+(?:[.,]\d+)?(?:-\d+(?:[.,]\d+)?)? ?(?:min|minutes)\b/;
const RECORD = 'How long the first run takes';

describe('one measured figure per claim', () => {
	const readme = readFileSync('README.md', 'utf8');

	it('the README holds the one recorded run: its commit or date, the load, demo and test timings', () => {
		const start = readme.indexOf(`### ${RECORD}`);
		expect(start).toBeGreaterThan(0);
		const section = readme.slice(start, readme.indexOf('\n#', start + 4));
		expect(section).toMatch(/load average/);
		expect(section).toMatch(/on [0-9a-f]{7}\b|\d{4}-\d{2}-\d{2}/);
		expect(section).toMatch(/`npm run demo`[^\n]*\d+ min \d+ s/);
		expect(section).toMatch(/`npm test`[^\n]*\d+ min \d+ s/);
		// Nowhere else in the README does a time of the first run, an install or the suite appear.
		const rest = readme.slice(0, start) + readme.slice(start + section.length);
		expect(rest.split('\n').filter((line) => DURATION.test(line) && /install|npm test|npm run demo|npm ci|first run|test:fast/i.test(line))).toEqual([]);
	});

	it.each([
		['docs/DEVELOPING.md'],
		['docs/compatibility.md'],
		['test/support/n8n-install.ts'],
		['test/support/node-cli.ts'],
		['test/support/demo.ts'],
		['test/e2e/setup.ts'],
		['scripts/ensure-deps.js'],
	])('%s restates no time of the first run, an install or the suite (it links to the record)', (file) => {
		const lines = readFileSync(file, 'utf8').split('\n');
		// The matrix's own releases are measured in docs/compatibility.md; a webhook's age is no run.
		// An example progress line (`[n8n 2.8.4] ..., 4 min 22 s`) shows a time elapsed, not a claim.
		const own = /1\.123\.81|2\.41\.1|test:matrix|\.ci\/run|older than|platform's clock|`\[/;
		expect(lines.filter((line) => DURATION.test(line) && !own.test(line))).toEqual([]);
	});

	it('the pages and the install line that speak of the time link to the record', () => {
		for (const file of ['docs/DEVELOPING.md', 'docs/compatibility.md']) {
			expect({ file, links: readFileSync(file, 'utf8').includes('README.md#how-long-the-first-run-takes') }).toEqual({ file, links: true });
		}
		expect(readFileSync('test/support/n8n-install.ts', 'utf8')).toContain(`README.md, "${RECORD}"`);
		for (const target of Object.values(N8N_TARGETS)) expect(Object.keys(target)).not.toContain('installMinutes');
	});
});
