import { readFileSync } from 'node:fs';

import { README, renderReadme } from '../support/docs';

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
});
