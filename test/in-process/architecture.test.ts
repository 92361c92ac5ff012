/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Dependencies run one way. Read from the source files themselves:
 * - shipped code imports only n8n-workflow, node:crypto and its own files;
 * - a resource's files import nothing from another resource; nothing outside resources/ imports
 *   a resource's files, except the registry (resources/index.ts) that the action node reads;
 * - shared/ imports nothing from resources/, listSearch/ or the nodes;
 * - test/ imports nothing from scripts/, and scripts/ import only test/support.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function filesUnder(dir: string): string[] {
	const out: string[] = [];
	for (const name of readdirSync(dir)) {
		const full = path.join(dir, name);
		if (statSync(full).isDirectory()) out.push(...filesUnder(full));
		else if (name.endsWith('.ts')) out.push(full);
	}
	return out;
}

/** Every module specifier a file imports (static imports, re-exports, dynamic imports and require). */
function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const found: string[] = [];
	for (const re of [/\bfrom\s+'([^']+)'/g, /\bimport\s+'([^']+)'/g, /\bimport\(\s*'([^']+)'\s*\)/g, /\brequire\(\s*'([^']+)'\s*\)/g]) {
		for (const m of text.matchAll(re)) found.push(m[1]);
	}
	return found;
}

function resolved(file: string, spec: string): string {
	return path.relative(ROOT, path.resolve(path.dirname(file), spec));
}

const rel = (file: string) => path.relative(ROOT, file);
const shipped = [...filesUnder(path.join(ROOT, 'nodes')), ...filesUnder(path.join(ROOT, 'credentials'))];

describe('shipped code', () => {
	it.each(shipped.map((f) => [rel(f), f]))('%s imports only n8n-workflow, node:crypto and its own files', (_name, file) => {
		const outside = importsOf(file).filter((spec) => !spec.startsWith('.') && spec !== 'n8n-workflow' && spec !== 'node:crypto');
		expect(outside).toEqual([]);
	});

	it('a resource imports nothing from another resource, and only the registry is imported from outside', () => {
		const wrong: string[] = [];
		for (const file of shipped) {
			const from = rel(file);
			// The registry lists every resource: that is its job.
			if (from === 'nodes/SalesPayments/resources/index.ts') continue;
			const own = /^nodes\/SalesPayments\/resources\/([^/]+)\//.exec(from)?.[1];
			for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
				const target = resolved(file, spec);
				const other = /^nodes\/SalesPayments\/resources\/([^/]+)\//.exec(`${target}/`)?.[1];
				if (other === undefined) continue;
				const registry = target === 'nodes/SalesPayments/resources' || target === 'nodes/SalesPayments/resources/index';
				if (own === undefined && !(registry && from === 'nodes/SalesPayments/SalesPayments.node.ts')) wrong.push(`${from} -> ${target}`);
				if (own !== undefined && other !== own) wrong.push(`${from} -> ${target}`);
			}
		}
		expect(wrong).toEqual([]);
	});

	it('every endpoint path is written once, in shared/endpoints.ts, and every entry there is used', () => {
		const table = 'nodes/SalesPayments/shared/endpoints.ts';
		// A quoted path whose first segment is one of the platform's (comments excluded).
		const segments = readFileSync(path.join(ROOT, table), 'utf8').matchAll(/path: '\/([a-z-]+)/g);
		const first = [...new Set([...segments].map((m) => m[1]))];
		expect(first.length).toBeGreaterThan(10);
		const literal = new RegExp(`['\`]/(?:${first.join('|')})(?:/[\\w{}-]*)*['\`]`, 'g');
		const written: string[] = [];
		let code = '';
		for (const file of shipped.filter((f) => rel(f) !== table)) {
			const text = readFileSync(file, 'utf8')
				.split('\n')
				.filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
				.join('\n');
			code += text;
			for (const m of text.matchAll(literal)) written.push(`${rel(file)}: ${m[0]}`);
		}
		expect(written).toEqual([]);
		const entries = [...readFileSync(path.join(ROOT, table), 'utf8').matchAll(/^\t(\w+): \{$|^\t\t(\w+): \{ method/gm)];
		const unused: string[] = [];
		let resource = '';
		for (const m of entries) {
			if (m[1]) resource = m[1];
			else if (!code.includes(`ENDPOINTS.${resource}.${m[2]}`)) unused.push(`${resource}.${m[2]}`);
		}
		expect(entries.length).toBeGreaterThan(40);
		expect(unused).toEqual([]);
	});

	it('shared/ depends on nothing above it', () => {
		const wrong: string[] = [];
		for (const file of shipped.filter((f) => rel(f).startsWith('nodes/SalesPayments/shared/'))) {
			for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
				const target = resolved(file, spec);
				if (!target.startsWith('nodes/SalesPayments/shared/')) wrong.push(`${rel(file)} -> ${target}`);
			}
		}
		expect(wrong).toEqual([]);
	});
});

describe('tests and scripts', () => {
	it('nothing in test/ imports from scripts/', () => {
		const wrong = filesUnder(path.join(ROOT, 'test')).flatMap((file) =>
			importsOf(file)
				.filter((s) => s.startsWith('.') && resolved(file, s).startsWith('scripts/'))
				.map((s) => `${rel(file)} -> ${s}`),
		);
		expect(wrong).toEqual([]);
	});

	it('scripts/ are thin entries that import only test/support', () => {
		const wrong = filesUnder(path.join(ROOT, 'scripts')).flatMap((file) =>
			importsOf(file)
				.filter((s) => s.startsWith('.') && !resolved(file, s).startsWith('test/support/'))
				.map((s) => `${rel(file)} -> ${s}`),
		);
		expect(wrong).toEqual([]);
	});
});
