/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
import { readdirSync, readFileSync } from 'node:fs';

import { README, renderReadme } from '../support/docs';
import { MATRIX } from '../support/n8n-install';

describe('README', () => {
	it('has the operations table of the built node (run `npm run docs` after changing operations)', () => {
		const current = readFileSync(README, 'utf8');
		expect(current).toBe(renderReadme(current));
	});

	it('shows the two commands and the tested n8n version', () => {
		const current = readFileSync(README, 'utf8');
		expect(current).toContain('npm run demo');
		expect(current).toContain('npm test');
		expect(current).toContain('2.8.4');
	});

	it('shows the compatibility matrix as tested: the n8n releases and Node versions of `npm run test:matrix`', () => {
		const current = readFileSync(README, 'utf8');
		const table = current.slice(current.indexOf('<!-- matrix:start -->'), current.indexOf('<!-- matrix:end -->'));
		const rows = table.split('\n').filter((l) => /^\| \d/.test(l));
		expect(rows.map((r) => r.split('|').slice(1, 3).map((c) => c.trim().split(' ')[0]))).toEqual(
			MATRIX.map((t) => [t.version, t.node]),
		);
	});
});

describe('the example workflows, as the README, docs/examples.md and the demo name them', () => {
	const folder = 'examples/workflows';
	const names = readdirSync(folder)
		.filter((f) => f.endsWith('.json'))
		.map((f) => (JSON.parse(readFileSync(`${folder}/${f}`, 'utf8')) as { name: string }).name);
	const countWord = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'][names.length];

	it('the README and docs/examples.md count them right wherever they count them', () => {
		for (const file of [README, 'docs/examples.md']) {
			const text = readFileSync(file, 'utf8');
			const counted = [...text.matchAll(/\b(two|three|four|five|six|seven|eight|nine) (?:example )?workflows\b/g)].map((m) => m[1]);
			expect(counted.length).toBeGreaterThan(0);
			expect(new Set(counted)).toEqual(new Set([countWord]));
		}
	});

	it("the demo's ready banner names every one", () => {
		const banner = readFileSync('test/support/demo.ts', 'utf8');
		expect(names.filter((name) => !banner.includes(`- ${name}`))).toEqual([]);
	});
});
