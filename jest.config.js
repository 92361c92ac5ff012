// Two layers: in-process (n8n-core executes workflows against the simulator) and e2e (a real
// n8n 2.8.4 process with the packed package installed). `npm run test:fast` runs the first only.
// A third, `queue`, runs n8n's scaling mode and has its own command (`npm run test:queue`).
// `npm test` runs two files side by side (--maxWorkers=2): the e2e files mostly wait for n8n while the
// in-process ones compute (docs/DEVELOPING.md, "Tests: what takes the time").
const common = {
	preset: 'ts-jest',
	// Not under the temporary folder: `npm test` runs with one of its own, removed at the end (scripts/with-temp.js).
	cacheDirectory: '<rootDir>/node_modules/.cache/jest',
	// jest's node environment, which also stops what a test file left running (test/support/teardown.ts).
	testEnvironment: '<rootDir>/test/support/jest-environment.ts',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
};

module.exports = {
	// Jest exits by itself when the tests are done; if something still runs, this names it and fails.
	globalTeardown: '<rootDir>/test/support/jest-watchdog.ts',
	// Besides jest's own: a line every 10 s while a test file runs long (test/support/jest-progress.js).
	reporters: ['default', '<rootDir>/test/support/jest-progress.js'],
	projects: [
		{
			...common,
			displayName: 'in-process',
			testMatch: ['<rootDir>/test/in-process/**/*.test.ts'],
			// A test that prints through console.* fails (test/support/quiet-console.ts).
			setupFilesAfterEnv: [...common.setupFilesAfterEnv, '<rootDir>/test/support/quiet-console.ts'],
		},
		// Its global setup installs n8n 2.8.4 (and Chromium for the editor test) once, with progress lines.
		{
			...common,
			displayName: 'e2e',
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
			globalSetup: '<rootDir>/test/e2e/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/global-teardown.ts',
		},
		// n8n in queue mode (Postgres, Redis, main, webhook processes, workers): `npm run test:queue`.
		{ ...common, displayName: 'queue', testMatch: ['<rootDir>/test/queue/**/*.test.ts'], globalSetup: '<rootDir>/test/queue/global-setup.ts' },
	],
};
