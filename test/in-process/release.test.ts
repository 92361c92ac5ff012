/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Release plumbing: the GitHub workflows pass actionlint (the linter itself is shown to catch a
 * broken workflow), the release workflow publishes with provenance only after the whole CI
 * script passed on a version tag, a plain `npm publish` is refused by the prepublishOnly guard
 * while the workflow's own publish gets through it, and package.json, README and CHANGELOG agree
 * on the repository and the version.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { actionlint } from '../support/actionlint';

const ROOT = path.resolve(__dirname, '../..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	version: string;
	homepage: string;
	repository: { url: string };
	bugs: { url: string };
	scripts: Record<string, string>;
};
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const lint = actionlint;

describe('GitHub workflows', () => {
	const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).sort();

	it('are ci.yml and release.yml, and actionlint finds nothing in them', async () => {
		expect(files).toEqual(['ci.yml', 'release.yml']);
		for (const file of files) {
			const rel = path.join('.github', 'workflows', file);
			expect({ file, findings: await lint(read(rel), rel) }).toEqual({ file, findings: [] });
		}
	});

	it('actionlint reports a misspelled key, an unknown context property and an unknown action input', async () => {
		const broken = [
			'on: push',
			'jobs:',
			'  build:',
			'    runs-on: ubuntu-latest',
			'    permisions: {}',
			'    steps:',
			'      - uses: actions/checkout@v4',
			'        with:',
			'          fetch-dept: 1',
			'      - run: echo "${{ github.nope }}"',
		].join('\n');
		const findings = await lint(broken, 'broken.yml');
		expect(findings.map((f) => f.line).sort((a, b) => a - b)).toEqual([5, 9, 10]);
	});

	it('release.yml publishes with provenance on a version tag, only after .ci/run passed', () => {
		const release = read('.github/workflows/release.yml');
		const [verify, publish] = release.split(/\n {2}publish:\n/);
		expect(release).toMatch(/on:\n {2}push:\n {4}tags:\n/);
		expect(release).not.toMatch(/\n {2}(pull_request|workflow_dispatch):/);
		expect(verify).toContain('run: bash .ci/run');
		expect(verify).toContain('grep -q "^## \\[$version\\]" CHANGELOG.md');
		expect(publish).toContain('needs: verify');
		expect(publish).toContain('id-token: write');
		expect(publish).toContain('run: npm publish --provenance --access public');
		expect(publish).toMatch(/RELEASE_MODE: 'true'/);
		expect(read('.github/workflows/ci.yml')).toContain('run: bash .ci/run');
	});
});

/** `npm publish --dry-run` in the repository (nothing is uploaded) with the given environment changes. */
function dryRunPublish(env: Record<string, string | undefined>, args: string[] = []) {
	const base: NodeJS.ProcessEnv = { ...process.env };
	for (const key of Object.keys(base)) if (/^(npm_config_provenance|npm_config_dry_run|GITHUB_ACTIONS|RELEASE_MODE)$/i.test(key)) delete base[key];
	return new Promise<{ code: number; output: string }>((resolve) => {
		execFile('npm', ['publish', '--dry-run', '--ignore-scripts=false', ...args], { cwd: ROOT, env: { ...base, ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
			resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
		);
	});
}

describe('npm publish', () => {
	it('has a prepublishOnly guard', () => {
		expect(pkg.scripts.prepublishOnly).toBe('node scripts/prepublish-guard.js');
	});

	it('is refused outside the release workflow, even with --provenance', async () => {
		const laptop = await dryRunPublish({});
		expect(laptop.code).not.toBe(0);
		expect(laptop.output).toContain('Refusing to publish');
		const provenanceOnly = await dryRunPublish({}, ['--provenance']);
		expect(provenanceOnly.code).not.toBe(0);
		expect(provenanceOnly.output).toContain('Refusing to publish');
	}, 120_000);

	it('gets through the guard in the release workflow (GitHub Actions, RELEASE_MODE, --provenance)', async () => {
		const workflow = await dryRunPublish({ GITHUB_ACTIONS: 'true', RELEASE_MODE: 'true' }, ['--provenance']);
		expect(workflow.output).not.toContain('Refusing to publish');
		expect(workflow.output).toContain(`n8n-nodes-sales-payments@${pkg.version}`);
		expect(workflow.code).toBe(0);
	}, 120_000);
});

describe('repository, homepage, bugs, README and CHANGELOG', () => {
	const match = /^git\+(https:\/\/github\.com\/[^/]+\/[^/]+?)\.git$/.exec(pkg.repository.url);
	const base = match?.[1] ?? '';

	it('package.json points at one GitHub repository', () => {
		expect(base).toMatch(/^https:\/\/github\.com\/[^/]+\/n8n-nodes-sales-payments$/);
		expect(pkg.homepage).toBe(`${base}#readme`);
		expect(pkg.bugs.url).toBe(`${base}/issues`);
	});

	it('the README and CHANGELOG link the same repository', () => {
		const readme = read('README.md');
		expect(readme).toContain(`${base}/issues`);
		expect(readme).toContain('CHANGELOG.md');
		const links = read('CHANGELOG.md').match(/https:\/\/github\.com\/[^/\s]+\/[^/\s]+/g) ?? [];
		expect(links.length).toBeGreaterThan(0);
		expect(new Set(links)).toEqual(new Set([base]));
	});

	it('CHANGELOG.md has an Unreleased section and a section for the package version', () => {
		const changelog = read('CHANGELOG.md');
		expect(changelog).toMatch(/^## \[Unreleased\]$/m);
		expect(changelog).toMatch(new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
	});
});
