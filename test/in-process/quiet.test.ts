/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The in-process layer prints nothing but jest's own lines: a test that writes through console.*
 * fails (test/support/quiet-console.ts). Proven on a fixture run by a jest of its own.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

it('a passing test that prints a console line fails the run, naming the line', () => {
	const config = {
		rootDir: ROOT,
		preset: 'ts-jest',
		transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
		testMatch: ['<rootDir>/test/support/fixtures/prints.fixture.ts'],
		setupFilesAfterEnv: ['<rootDir>/test/support/quiet-console.ts'],
	};
	const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--config', JSON.stringify(config), '--ci', '--silent'], {
		cwd: ROOT,
		encoding: 'utf8',
		timeout: 60_000,
	});
	expect(run.status).toBe(1);
	expect(run.stderr).toContain('A passing test must print nothing; it printed:');
	expect(run.stderr).toContain('console.log: a line a passing test should not print');
});

// Writes straight to the process' streams pass by console.*: the in-process tests have none (figures go
// to SP_FIGURES through test/support/helpers/figures.ts).
it('no in-process test or its harness writes to process.stdout or process.stderr itself', () => {
	const dirs = ['test/in-process', 'test/support/harness'];
	const writers = dirs.flatMap((dir) =>
		readdirSync(path.join(ROOT, dir))
			.filter((name) => name.endsWith('.ts'))
			.map((name) => `${dir}/${name}`)
			.filter((file) => /process\.(stdout|stderr)\.write\(/.test(readFileSync(path.join(ROOT, file), 'utf8').replace(/\/\/.*$/gm, ''))),
	);
	expect(writers).toEqual([]);
});
