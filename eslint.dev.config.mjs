// The repository's plain JavaScript (tool configs, scripts that run before the TypeScript tooling
// is installed). eslint.config.mjs must stay n8n's default for `n8n-node lint` (strict mode), and
// that config checks only TypeScript and package.json; `npm run lint` runs this one as well.
import js from '@eslint/js';
import { globalIgnores } from 'eslint/config';
import globals from 'globals';

export default [
	globalIgnores(['dist', 'coverage', '.demo']),
	{
		files: ['**/*.js'],
		...js.configs.recommended,
		languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
	},
	{
		files: ['**/*.mjs'],
		...js.configs.recommended,
		languageOptions: { sourceType: 'module', globals: { ...globals.node } },
	},
];
