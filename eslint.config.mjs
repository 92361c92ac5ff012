// n8n's community-node verification rules, rebuilt from the plugins that @n8n/node-cli combines
// (node-cli itself cannot be installed on Node 20). node-cli also adds eslint-plugin-import-x,
// whose native resolver's other-platform builds this project's npm registry does not serve, so
// `npm ci` could not verify the lockfile; tsc checks that every import resolves instead.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { globalIgnores } from 'eslint/config';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const community = n8nCommunityNodesPlugin.configs.recommended;

export default tseslint.config(
	globalIgnores(['dist', 'node_modules', 'coverage', '.demo']),
	// Shipped code: everything node-cli's `n8n-node lint` checks.
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended, community],
		rules: { 'prefer-spread': 'off', 'no-console': 'error' },
		// n8n's package scanner ignores eslint-disable comments, so they must not hide anything here.
		linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
	},
	{
		plugins: { 'n8n-nodes-base': n8nNodesBase },
	},
	{
		files: ['package.json'],
		extends: [community],
		rules: { ...n8nNodesBase.configs.community.rules },
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	// Tests, simulator and scripts are not shipped: ordinary TypeScript/JavaScript rules.
	{
		files: ['test/**/*.ts', 'scripts/**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
			],
		},
	},
	{
		files: ['scripts/**/*.js', 'gulpfile.js', 'jest.config.js'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
);
