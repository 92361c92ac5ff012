// `npm run test:matrix`: the real-n8n layer against every n8n of the compatibility matrix
// (N8N_TARGETS in test/support/n8n-install.ts). Its own config so that `npm test` and a bare `jest` do not
// install three n8n releases.
const path = require('node:path');

module.exports = {
	rootDir: path.resolve(__dirname, '../../..'),
	displayName: 'matrix',
	preset: 'ts-jest',
	testEnvironment: '<rootDir>/test/support/jest-environment.ts',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
	testMatch: ['<rootDir>/test/e2e/matrix/**/*.matrix.ts'],
	// Installs the matrix's n8n releases with progress lines before any test runs.
	globalSetup: '<rootDir>/test/e2e/matrix/global-setup.ts',
	globalTeardown: '<rootDir>/test/support/jest-watchdog.ts',
	reporters: ['default', '<rootDir>/test/support/jest-progress.js'],
};
