/* eslint-disable no-console -- this file watches the console */
/**
 * The in-process layer prints nothing but jest's own lines: a test that writes through console.*
 * fails, naming what it printed. Warnings the nodes log go to the harness's logger (takeLogged()
 * in harness/n8n-core.ts), where the tests that care assert them.
 */
const METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;
const printed: string[] = [];

for (const method of METHODS) {
	const original = console[method].bind(console);
	console[method] = (...args: unknown[]) => {
		printed.push(`console.${method}: ${args.map(String).join(' ').slice(0, 300)}`);
		original(...args);
	};
}

afterEach(() => {
	const lines = printed.splice(0, printed.length);
	if (lines.length > 0) throw new Error(`A passing test must print nothing; it printed:\n${lines.join('\n')}`);
});
