/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The docs name only what exists: every repository path in README.md and docs/*.md, every relative
 * link (and its #anchor), and every file of DEVELOPING.md's Layout tree. The tree is read when the
 * test runs, so a file renamed or removed fails here until the docs follow.
 */

const DOCS = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const SHIPPED_FOLDERS = ['transport', 'fields', 'paging', 'files', 'lists', 'resources', 'listSearch', 'trigger', 'polling'];

/** A path from the repository's root: `nodes/...`, `test/...`, `docs/...` and the other top folders. */
const ROOT_PATH = /(?<![\w./-])((?:nodes|test|docs|credentials|scripts|examples|\.github|\.ci)\/[\w./-]*[\w-])([*<]?)/g;
/** A path inside nodes/SalesPayments/, as the docs write them: `transport/endpoints.ts`. */
const SHIPPED_PATH = new RegExp(`(?<![\\w./-])((?:${SHIPPED_FOLDERS.join('|')})/[\\w./-]*\\.(?:ts|json))`, 'g');

/** A path, or with `*` or `<` after it the start of a glob or a template: some file starts so. */
function exists(p: string, glob: boolean): boolean {
	if (!glob) return existsSync(p);
	const dir = p.endsWith('/') ? p : path.dirname(p);
	const start = p.endsWith('/') ? '' : path.basename(p);
	return existsSync(dir) && readdirSync(dir).some((f) => f.startsWith(start));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
	const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
	return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])));
}

/**
 * The files the Layout code block of DEVELOPING.md names: a name column (until two spaces), names
 * separated by `, `, each below the last folder less indented. Lines indented 20 or more continue a
 * description; names with `<` or `*` are templates or globs.
 */
function layoutPaths(text: string): string[] {
	const section = text.slice(text.indexOf('## Layout'));
	const block = section.slice(section.indexOf('```') + 3, section.indexOf('```', section.indexOf('```') + 3));
	const folders: Array<{ indent: number; path: string }> = [];
	const out: string[] = [];
	for (const line of block.split('\n')) {
		const indent = line.length - line.trimStart().length;
		if (line.trim() === '' || indent >= 20) continue;
		while (folders.length > 0 && folders[folders.length - 1].indent >= indent) folders.pop();
		const parent = folders.length > 0 ? folders[folders.length - 1].path : '';
		const column = line.trimStart().split(/ {2,}/)[0];
		for (const name of column.split(', ')) {
			if (/[<*]/.test(name)) continue;
			out.push(parent + name);
			if (name.endsWith('/') && !column.includes(', ')) folders.push({ indent, path: parent + name });
		}
	}
	return out;
}

/** The lines of a Layout entry: its own line and those that continue its description (indented 20 or more). */
function layoutEntry(text: string, name: string): string {
	const section = text.slice(text.indexOf('## Layout'));
	const lines = section.slice(section.indexOf('```') + 3, section.indexOf('```', section.indexOf('```') + 3)).split('\n');
	const start = lines.findIndex((line) => line.trimStart().startsWith(`${name} `));
	if (start < 0) return '';
	let end = start + 1;
	while (end < lines.length && lines[end].length - lines[end].trimStart().length >= 20) end++;
	return lines.slice(start, end).join('\n');
}

/** The row of a command in DEVELOPING.md's "Commands: where their code is" table. */
function commandRow(text: string, command: string): string {
	const section = text.slice(text.indexOf('## Commands: where their code is'));
	return section.split('\n').find((line) => line.startsWith(`| \`${command}\` |`)) ?? '';
}

/** The options `npm run bench` reads (main.ts: `option('--x')`, `args.includes('--x')`) and the parts `--part` takes. */
function benchOptions(): { options: string[]; parts: string[] } {
	const main = readFileSync('test/support/bench/main.ts', 'utf8');
	const options = [...main.matchAll(/(?:option|args\.includes)\('(--[a-z-]+)'\)/g)].map((m) => m[1]);
	const parts = /parts: [^\n]*as Array<([^>]+)>/.exec(main)?.[1].match(/'([a-z]+)'/g)?.map((p) => p.slice(1, -1)) ?? [];
	return { options: [...new Set(options)].sort(), parts };
}

describe('the docs name only what exists', () => {
	it.each(DOCS)('%s: every repository path it names exists', (doc) => {
		const text = readFileSync(doc, 'utf8');
		const missing: string[] = [];
		for (const m of text.matchAll(ROOT_PATH)) if (!exists(m[1], m[2] !== '')) missing.push(m[1]);
		for (const m of text.matchAll(SHIPPED_PATH)) {
			if (!existsSync(`nodes/SalesPayments/${m[1]}`) && !existsSync(m[1])) missing.push(m[1]);
		}
		expect(missing).toEqual([]);
	});

	it.each(DOCS)('%s: every relative link and its anchor lead somewhere', (doc) => {
		const text = readFileSync(doc, 'utf8');
		const broken: string[] = [];
		for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]+))?\)/g)) {
			if (/^[a-z]+:/.test(target)) continue;
			const file = target === '' ? doc : path.join(path.dirname(doc), target);
			if (!existsSync(file)) broken.push(target);
			else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor)) broken.push(`${target}#${anchor}`);
		}
		expect(broken).toEqual([]);
	});

	it("every file of DEVELOPING.md's Layout exists", () => {
		const paths = layoutPaths(readFileSync('docs/DEVELOPING.md', 'utf8'));
		expect(paths.length).toBeGreaterThan(90);
		expect(paths.filter((p) => !existsSync(p))).toEqual([]);
	});

	it("DEVELOPING.md's bench entry names every file of test/support/bench/, read from the tree", () => {
		const entry = layoutEntry(readFileSync('docs/DEVELOPING.md', 'utf8'), 'bench/');
		const named = new Set([...entry.matchAll(/[\w-]+\.ts\b/g)].map((m) => m[0]));
		const files = readdirSync('test/support/bench').filter((f) => f.endsWith('.ts'));
		expect(files.length).toBeGreaterThan(10);
		expect(files.filter((f) => !named.has(f))).toEqual([]);
	});

	it("DEVELOPING.md's npm run bench row names every option main.ts reads, and every part of --part", () => {
		const row = commandRow(readFileSync('docs/DEVELOPING.md', 'utf8'), 'npm run bench');
		const { options, parts } = benchOptions();
		expect(options).toEqual(expect.arrayContaining(['--quick', '--only', '--part', '--rtt']));
		expect(parts).toEqual(expect.arrayContaining(['lists', 'faults']));
		expect(options.filter((o) => !row.includes(o))).toEqual([]);
		expect(parts.filter((p) => !new RegExp(`\\b${p}\\b`).test(row.slice(row.indexOf('--part'))))).toEqual([]);
	});

	it('the checks catch what they are for', () => {
		expect(exists('nodes/SalesPayments/paging/', true)).toBe(true);
		expect(exists('test/in-process/export', true)).toBe(true);
		expect(exists('test/in-process/no-such-file', true)).toBe(false);
		expect(anchorOf('What the first run installs')).toBe('what-the-first-run-installs');
		expect(anchorOf('Adding an endpoint: one entry, one file and one line')).toBe('adding-an-endpoint-one-entry-one-file-and-one-line');
		const tree = `## Layout\n\n\`\`\`\nnodes/\n  a/                  x\n    b.ts, c.ts        y\n                      more of y\n  d.ts\n\`\`\`\n`;
		expect(layoutPaths(tree)).toEqual(['nodes/', 'nodes/a/', 'nodes/a/b.ts', 'nodes/a/c.ts', 'nodes/d.ts']);
		expect(layoutEntry(tree, 'a/')).toBe('  a/                  x');
		expect(layoutEntry(tree, 'b.ts,')).toBe('    b.ts, c.ts        y\n                      more of y');
		const commands = '| `npm run x` | elsewhere |\n## Commands: where their code is\n| `npm run x` | a.ts (options: --y) |\n';
		expect(commandRow(commands, 'npm run x')).toBe('| `npm run x` | a.ts (options: --y) |');
	});
});
