/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
import { readFileSync } from 'node:fs';

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
