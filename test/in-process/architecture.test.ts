/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Dependencies run one way. Read from the source files themselves:
 * - shipped code imports only n8n-workflow, node:crypto and its own files;
 * - a resource's files import nothing from another resource; nothing outside resources/ imports
 *   a resource's files, except the registry (resources/index.ts) that the action node reads;
 * - the folders of nodes/SalesPayments/ (docs/DEVELOPING.md draws them) import only down (MAY_IMPORT):
 *   transport/ imports none of the others; fields/ and the walk (paging/) at most transport/;
 *   files/ at most those; lists/ at most files/ and what is below; resources/ at most lists/ and
 *   below; listSearch/, trigger/ and polling/ the walk, fields/ and transport/, never lists/ or
 *   files/; credentials/ only transport/; every file there is one of the three nodes or lives in a
 *   folder; no shipped file is over 350 lines;
 * - every operation is a plain OperationDef object (no factory makes one);
 * - state a module keeps between executions is a BoundedStore (or a WeakMap / WeakSet, freed with its keys);
 * - the two ways tests run n8n stay apart: the in-process harness (test/support/harness/, n8n-core)
 *   and the real n8n driver (test/support/n8n-install.ts, n8n-process.ts) import nothing of each
 *   other; in-process tests never drive a real n8n, end-to-end tests never the harness;
 * - every command of package.json runs a module that exists and starts only as the entry
 *   (runCommand), and scripts/ holds only the plain JavaScript that runs before dependencies exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/**
 * The folders of nodes/SalesPayments/ and the folders each may import besides its own, layer by layer:
 * transport/ at the bottom; fields/ and the walk (paging/) on it; the file outputs (files/) on
 * those; the list operations' kit (lists/) on files/; then the folders of the nodes' work.
 */
const MAY_IMPORT: Record<string, string[]> = {
	transport: [],
	fields: ['transport'],
	paging: ['transport'],
	files: ['transport', 'fields', 'paging'],
	lists: ['transport', 'fields', 'paging', 'files'],
	resources: ['transport', 'fields', 'paging', 'files', 'lists'],
	listSearch: ['transport', 'fields', 'paging'],
	trigger: ['transport', 'fields', 'paging'],
	polling: ['transport', 'fields', 'paging'],
};

/** The imports (`from -> to`, repository paths without extension) that run against MAY_IMPORT. */
function importsRunningUp(graph: Array<{ from: string; to: string[] }>): string[] {
	const folder = (file: string) => /^nodes\/SalesPayments\/([^/]+)\//.exec(file)?.[1];
	const wrong: string[] = [];
	for (const { from, to } of graph) {
		const own = from.startsWith('credentials/') ? 'credentials' : folder(from);
		// The three node files stand above every folder.
		if (own === undefined) continue;
		const allowed = own === 'credentials' ? ['transport'] : [own, ...(MAY_IMPORT[own] ?? [])];
		for (const target of to) if (!allowed.includes(folder(target) ?? '')) wrong.push(`${from} -> ${target}`);
	}
	return wrong;
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

	it('every endpoint path is written once, in transport/endpoints.ts, and every entry there is used', () => {
		const table = 'nodes/SalesPayments/transport/endpoints.ts';
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

	const folderOf = (file: string) => /^nodes\/SalesPayments\/([^/]+)\//.exec(file)?.[1];
	const NODE_FILE = /^nodes\/SalesPayments\/[^/]+\.node\.ts$/;

	it('every file of nodes/ is one of the three nodes in nodes/SalesPayments/ or lives in one of its folders', () => {
		const files = shipped.map(rel).filter((f) => f.startsWith('nodes/'));
		expect(files.filter((f) => NODE_FILE.test(f)).sort()).toEqual(
			['SalesPayments', 'SalesPaymentsPollingTrigger', 'SalesPaymentsTrigger'].map((n) => `nodes/SalesPayments/${n}.node.ts`),
		);
		const folderless = files.filter((f) => !NODE_FILE.test(f) && !Object.keys(MAY_IMPORT).includes(folderOf(f) ?? ''));
		expect(folderless).toEqual([]);
	});

	it('imports only go down the folders (docs/DEVELOPING.md draws them)', () => {
		const graph = shipped.map((file) => ({
			from: rel(file),
			to: importsOf(file)
				.filter((s) => s.startsWith('.'))
				.map((spec) => resolved(file, spec)),
		}));
		expect(graph.filter((f) => f.to.length > 0).length).toBeGreaterThan(100);
		expect(importsRunningUp(graph)).toEqual([]);
	});

	// The rule itself, on imports the tree does not have: each must be caught.
	it.each([
		['the walk imports the list kit', 'nodes/SalesPayments/paging/walk.ts', 'nodes/SalesPayments/lists/lists'],
		['the walk imports a file writer', 'nodes/SalesPayments/paging/pages.ts', 'nodes/SalesPayments/files/csv'],
		['a file writer imports the list kit', 'nodes/SalesPayments/files/export.ts', 'nodes/SalesPayments/lists/filters'],
		['the walk imports the fields', 'nodes/SalesPayments/paging/walk.ts', 'nodes/SalesPayments/fields/fields'],
		['the poller imports the list kit', 'nodes/SalesPayments/polling/dateWindows.ts', 'nodes/SalesPayments/lists/lists'],
		['the poller imports a file writer', 'nodes/SalesPayments/polling/poller.ts', 'nodes/SalesPayments/files/export'],
		['a dropdown imports the list kit', 'nodes/SalesPayments/listSearch/search.ts', 'nodes/SalesPayments/lists/lists'],
		['the transport imports the walk', 'nodes/SalesPayments/transport/transport.ts', 'nodes/SalesPayments/paging/walk'],
		['a credential imports the fields', 'credentials/SalesPaymentsApi.credentials.ts', 'nodes/SalesPayments/fields/fields'],
	])('%s: caught', (_what, from, to) => {
		expect(importsRunningUp([{ from, to: [to] }])).toEqual([`${from} -> ${to}`]);
	});

	it.each([
		['the list kit imports a file writer and the walk', 'nodes/SalesPayments/lists/lists.ts', ['nodes/SalesPayments/files/export', 'nodes/SalesPayments/paging/walk']],
		['a file writer imports the walk, the fields and the transport', 'nodes/SalesPayments/files/export.ts', ['nodes/SalesPayments/paging/walk', 'nodes/SalesPayments/fields/simplify', 'nodes/SalesPayments/transport/errors']],
		['the poller imports the walk', 'nodes/SalesPayments/polling/dateWindows.ts', ['nodes/SalesPayments/paging/walk']],
		['a node file imports every folder', 'nodes/SalesPayments/SalesPaymentsPollingTrigger.node.ts', ['nodes/SalesPayments/lists/filters', 'nodes/SalesPayments/polling/poller']],
	])('%s: allowed', (_what, from, to) => {
		expect(importsRunningUp([{ from, to }])).toEqual([]);
	});

	// Names that say one thing each (issue 47): a name found twice makes a reader ask which one is meant.
	const OPERATION_FILE = /^nodes\/SalesPayments\/resources\/[^/]+\/[^/]+\.ts$/;
	const SHARED_IN_RESOURCE = /\/(index|helpers|descriptions|[^/]+\.description)\.ts$/;

	it('no two shipped files outside resources/ share a name', () => {
		const byName = new Map<string, string[]>();
		for (const file of shipped.map(rel).filter((f) => folderOf(f) !== 'resources')) {
			const name = path.basename(file);
			byName.set(name, [...(byName.get(name) ?? []), file]);
		}
		expect([...byName.values()].filter((files) => files.length > 1)).toEqual([]);
	});

	it('no exported name is defined twice (an operation file\'s OperationDef, named after its operation, aside)', () => {
		const where = new Map<string, string[]>();
		for (const file of shipped.map(rel)) {
			// Each operation file exports its OperationDef under the operation's name (get, create...): the resource's folder tells them apart.
			if (OPERATION_FILE.test(file) && !SHARED_IN_RESOURCE.test(file)) continue;
			const text = readFileSync(path.join(ROOT, file), 'utf8');
			for (const m of text.matchAll(/^export (?:async )?(?:function|const|let|class|interface|type|enum) ([A-Za-z0-9_$]+)/gm)) {
				where.set(m[1], [...(where.get(m[1]) ?? []), file]);
			}
		}
		const twice = [...where].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`);
		expect(where.size).toBeGreaterThan(100);
		expect(twice).toEqual([]);
	});

	it('no shipped file has a name that reads as a test', () => {
		const testLike = /(^|[._-])(test|tests|spec|specs|mock|mocks|fixture|fixtures)([._-]|\.ts$)|(Tests?|Specs?|Mocks?)\.ts$/;
		expect(shipped.map(rel).filter((f) => testLike.test(path.basename(f)))).toEqual([]);
	});

	// State kept between executions has one shape with its bounds (transport/boundedStore.ts). A WeakMap
	// or WeakSet (the per-run cache, the polls in progress) is freed with its keys; a module-level Map
	// or Set that is added to would grow unseen.
	it('module-level state is a BoundedStore (or a WeakMap / WeakSet), never a bare Map or Set', () => {
		const bare: string[] = [];
		for (const file of shipped.map(rel)) {
			const text = readFileSync(path.join(ROOT, file), 'utf8');
			for (const m of text.matchAll(/^(?:export )?(?:const|let) (\w+)(?::[^=]+)? = new (Map|Set)\b/gm)) {
				// A Set of constants is a table, not state: it is never added to.
				if (m[2] === 'Set' && !new RegExp(`\\b${m[1]}\\.(add|delete|clear)\\(`).test(text)) continue;
				bare.push(`${file}: ${m[1]}`);
			}
		}
		expect(bare).toEqual([]);
	});

	it('no shipped file is over 350 lines (split by role, docs/DEVELOPING.md)', () => {
		const long = shipped.map((f) => [rel(f), readFileSync(f, 'utf8').split('\n').length - 1] as const).filter(([, lines]) => lines > 350);
		expect(long).toEqual([]);
	});
});

describe('operations', () => {
	const operationFiles = shipped.filter(
		(f) => /^nodes\/SalesPayments\/resources\/[^/]+\/[^/]+\.ts$/.test(rel(f)) && !/\/(index|helpers|descriptions|[^/]+\.description)\.ts$/.test(rel(f)),
	);

	it('are found', () => {
		expect(operationFiles.length).toBeGreaterThanOrEqual(50);
	});

	it.each(operationFiles.map((f) => [rel(f), f]))('%s exports plain OperationDef objects, none made by a function', (_name, file) => {
		const text = readFileSync(file, 'utf8');
		const exported = [...text.matchAll(/^export const (\w+)(?::\s*(\w+))?\s*=\s*(.*)$/gm)].map((m) => ({ name: m[1], type: m[2], value: m[3] }));
		expect(exported.filter((e) => e.type === 'OperationDef' && e.value === '{').length).toBeGreaterThanOrEqual(1);
		expect(exported.filter((e) => /^[\w.]+\(/.test(e.value)).map((e) => e.name)).toEqual([]);
		expect(text).not.toMatch(/\)\s*:\s*OperationDef\s*\{/);
	});
});

describe('tests and commands', () => {
	const support = (name: string) => path.join(ROOT, 'test/support', name);
	const harness = filesUnder(support('harness'));
	const driver = [support('n8n-install.ts'), support('n8n-process.ts')];
	const importsAny = (file: string, targets: string[]) =>
		importsOf(file)
			.filter((s) => s.startsWith('.'))
			.map((s) => path.resolve(path.dirname(file), s))
			.filter((t) => targets.some((target) => target === `${t}.ts` || target === t));

	it('the in-process harness and the real n8n driver import nothing of each other', () => {
		const wrong = [
			...harness.flatMap((f) => importsAny(f, driver).map((t) => `${rel(f)} -> ${rel(t)}`)),
			...driver.flatMap((f) => importsAny(f, harness).map((t) => `${rel(f)} -> ${rel(t)}`)),
		];
		expect(wrong).toEqual([]);
	});

	it('in-process tests never start a real n8n, end-to-end tests never use the in-process harness', () => {
		const inProcess = filesUnder(path.join(ROOT, 'test/in-process'));
		const endToEnd = [...filesUnder(path.join(ROOT, 'test/e2e')), ...filesUnder(path.join(ROOT, 'test/queue'))];
		expect(inProcess.length).toBeGreaterThan(20);
		expect(endToEnd.length).toBeGreaterThan(5);
		const wrong = [
			...inProcess.flatMap((f) => importsAny(f, [support('n8n-process.ts')]).map((t) => `${rel(f)} -> ${rel(t)}`)),
			...endToEnd.flatMap((f) => importsAny(f, harness).map((t) => `${rel(f)} -> ${rel(t)}`)),
		];
		expect(wrong).toEqual([]);
	});

	it('every command of package.json runs a module that exists and starts only as the process entry', () => {
		const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
		const entries = Object.entries(pkg.scripts).flatMap(([name, command]) =>
			[...command.matchAll(/\b(tsx|node) (\S+\.(?:ts|js))\b/g)].map((m) => ({ name, runner: m[1], file: m[2] })),
		);
		for (const command of ['demo', 'bench', 'simulator', 'docs', 'scan', 'schemas', 'matrix:install', 'verify']) {
			expect(entries.some((e) => e.name === command && e.runner === 'tsx')).toBe(true);
		}
		const wrong: string[] = [];
		for (const { name, runner, file } of entries) {
			const full = path.join(ROOT, file);
			if (!existsSync(full)) wrong.push(`${name}: ${file} does not exist`);
			else if (runner === 'tsx' && !/^runCommand\(module, /m.test(readFileSync(full, 'utf8'))) wrong.push(`${name}: ${file} lacks runCommand(module, ...)`);
			else if (runner === 'node' && !file.startsWith('scripts/')) wrong.push(`${name}: plain JavaScript ${file} outside scripts/`);
		}
		expect(wrong).toEqual([]);
	});

	it('scripts/ holds only plain JavaScript, which runs before the dependencies are installed', () => {
		const files = readdirSync(path.join(ROOT, 'scripts'));
		expect(files.length).toBeGreaterThan(0);
		expect(files.filter((f) => !f.endsWith('.js'))).toEqual([]);
	});
});
