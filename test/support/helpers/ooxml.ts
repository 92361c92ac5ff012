/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * What Microsoft Excel is strict about and LibreOffice or exceljs forgive, checked on an .xlsx for
 * the tests of Output › Excel File (issue 38), by code of its own (not the node's writer):
 * - every part is well-formed XML 1.0 (strictXmlProblem): valid UTF-8; only the characters XML 1.0
 *   allows (`Char`: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF), in the text and
 *   in attributes; names, attributes (quoted, unique, no `<`), references (the five entities and
 *   character references to allowed characters), nested tags, one root, declared prefixes;
 * - SpreadsheetML's own rules (excelProblems): sheet names unique whatever the case, 1-31 UTF-16
 *   units, none of `[ ] : * ? / \`, not starting or ending with `'`; cells within XFD1048576; a
 *   number cell's value an xsd:double lexical form of a finite number (not `Infinity`, `NaN`);
 *   booleans 0 or 1; texts at most 32,767 characters once `_xHHHH_` escapes are read.
 * The archive is read with node:zlib (unzipEntries).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** A ZIP archive of `entries` (deflated, CRC left 0: unzipEntries does not check it), for the checks' own tests. */
export function zipOf(entries: Record<string, string>): Buffer {
	const locals: Buffer[] = [];
	const central: Buffer[] = [];
	let offset = 0;
	for (const [name, text] of Object.entries(entries)) {
		const data = deflateRawSync(Buffer.from(text, 'utf8'));
		const nameBytes = Buffer.from(name, 'utf8');
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(8, 8);
		local.writeUInt32LE(data.length, 18);
		local.writeUInt16LE(nameBytes.length, 26);
		const entry = Buffer.alloc(46);
		entry.writeUInt32LE(0x02014b50, 0);
		entry.writeUInt16LE(8, 10);
		entry.writeUInt32LE(data.length, 20);
		entry.writeUInt16LE(nameBytes.length, 28);
		entry.writeUInt32LE(offset, 42);
		locals.push(local, nameBytes, data);
		central.push(entry, nameBytes);
		offset += 30 + nameBytes.length + data.length;
	}
	const directory = Buffer.concat(central);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(Object.keys(entries).length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
}

/** The entries of a ZIP archive by name (stored or deflated), from its central directory. */
export function unzipEntries(zip: Buffer): Map<string, Buffer> {
	let end = zip.length - 22;
	while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
	if (end < 0) throw new Error('no end of central directory: not a ZIP archive');
	const count = zip.readUInt16LE(end + 10);
	let at = zip.readUInt32LE(end + 16);
	const entries = new Map<string, Buffer>();
	for (let n = 0; n < count; n++) {
		if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`central directory entry ${n} has a wrong signature`);
		const method = zip.readUInt16LE(at + 10);
		const size = zip.readUInt32LE(at + 20);
		const nameLength = zip.readUInt16LE(at + 28);
		const local = zip.readUInt32LE(at + 42);
		const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
		at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
		const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
		const raw = zip.subarray(data, data + size);
		entries.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
	}
	return entries;
}

/** Whether `c` (a code point) is XML 1.0's Char. */
function isChar(c: number): boolean {
	return c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

const NAME_START = 'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const NAME = `[${NAME_START}:][${NAME_START}:\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*`;
// XML 1.0's NameChar holds the combining marks U+0300-U+036F, which lint takes for a misleading class.
// eslint-disable-next-line no-misleading-character-class
const NAME_AT = new RegExp(`^${NAME}`);
// eslint-disable-next-line no-misleading-character-class
const ATTRIBUTE = new RegExp(`^\\s+(${NAME})\\s*=\\s*("[^"]*"|'[^']*')`);
const REFERENCE = /^&(?:(lt|gt|amp|apos|quot)|#([0-9]+)|#x([0-9A-Fa-f]+));/;

/** What makes `bytes` not a well-formed XML 1.0 document, or undefined. */
export function strictXmlProblem(bytes: Buffer): string | undefined {
	let text: string;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		return 'not valid UTF-8';
	}
	for (let k = 0; k < text.length; k++) {
		const c = text.codePointAt(k)!;
		if (c > 0xffff) k++;
		else if (c >= 0xd800 && c <= 0xdfff) return `a lone surrogate U+${c.toString(16).toUpperCase()} at ${k}`;
		if (!isChar(c)) return `U+${c.toString(16).toUpperCase().padStart(4, '0')} at ${k}: not an XML 1.0 character`;
	}
	const open: Array<{ name: string; prefixes: Set<string> }> = [];
	let roots = 0;
	let at = 0;
	const scope = () => open.at(-1)?.prefixes ?? new Set(['xml']);
	const references = (value: string, where: string): string | undefined => {
		for (let k = value.indexOf('&'); k !== -1; k = value.indexOf('&', k + 1)) {
			const m = REFERENCE.exec(value.slice(k));
			if (!m) return `a bare & in ${where}`;
			const code = m[2] !== undefined ? parseInt(m[2], 10) : m[3] !== undefined ? parseInt(m[3], 16) : 0x20;
			if (!isChar(code)) return `a reference to U+${code.toString(16).toUpperCase()} in ${where}: not an XML 1.0 character`;
		}
		return undefined;
	};
	if (text.startsWith('<?xml')) {
		const end = text.indexOf('?>');
		if (end === -1 || !/^<\?xml\s+version="1\.0"(\s+encoding="UTF-8")?(\s+standalone="(yes|no)")?\s*\?>$/.test(text.slice(0, end + 2))) return 'a malformed XML declaration';
		at = end + 2;
	}
	while (at < text.length) {
		const lt = text.indexOf('<', at);
		const chars = text.slice(at, lt === -1 ? text.length : lt);
		if (open.length === 0 && chars.trim() !== '') return `text outside the root element at ${at}`;
		if (chars.includes(']]>')) return `]]> in text at ${at}`;
		const problem = references(chars, `text at ${at}`);
		if (problem) return problem;
		if (lt === -1) break;
		at = lt;
		if (text.startsWith('<!--', at)) {
			const end = text.indexOf('-->', at + 4);
			if (end === -1 || text.slice(at + 4, end).includes('--')) return `a malformed comment at ${at}`;
			at = end + 3;
		} else if (text.startsWith('<![CDATA[', at)) {
			if (open.length === 0) return `CDATA outside the root element at ${at}`;
			const end = text.indexOf(']]>', at);
			if (end === -1) return `an unclosed CDATA section at ${at}`;
			at = end + 3;
		} else if (text.startsWith('<?', at)) {
			const end = text.indexOf('?>', at);
			if (end === -1 || /^<\?xml\b/i.test(text.slice(at))) return `a malformed processing instruction at ${at}`;
			at = end + 2;
		} else if (text.startsWith('<!', at)) {
			return `a declaration (<!...) at ${at}: none expected`;
		} else if (text.startsWith('</', at)) {
			// eslint-disable-next-line no-misleading-character-class
			const m = new RegExp(`^</(${NAME})\\s*>`).exec(text.slice(at));
			const top = open.pop();
			if (!m || !top || m[1] !== top.name) return `an end tag that closes nothing open at ${at}`;
			at += m[0].length;
		} else {
			const name = NAME_AT.exec(text.slice(at + 1))?.[0];
			if (!name) return `a malformed start tag at ${at}`;
			if (open.length === 0 && roots++ > 0) return `a second root element at ${at}`;
			let k = at + 1 + name.length;
			const seen = new Set<string>();
			const prefixes = new Set(scope());
			const used: string[] = [name];
			for (;;) {
				const m = ATTRIBUTE.exec(text.slice(k));
				if (!m) break;
				const [whole, attribute, quoted] = m;
				if (seen.has(attribute)) return `attribute ${attribute} twice in <${name}> at ${at}`;
				seen.add(attribute);
				const value = quoted.slice(1, -1);
				if (value.includes('<')) return `< in the value of ${attribute} at ${at}`;
				const problem = references(value, `attribute ${attribute} at ${at}`);
				if (problem) return problem;
				if (attribute.startsWith('xmlns:')) prefixes.add(attribute.slice(6));
				else if (attribute !== 'xmlns') used.push(attribute);
				k += whole.length;
			}
			for (const qualified of used) {
				const prefix = qualified.includes(':') ? qualified.slice(0, qualified.indexOf(':')) : undefined;
				if (prefix !== undefined && !prefixes.has(prefix)) return `the prefix ${prefix} of ${qualified} is not declared (at ${at})`;
			}
			const close = /^\s*(\/?)>/.exec(text.slice(k));
			if (!close) return `a malformed start tag <${name}> at ${at}`;
			if (close[1] !== '/') open.push({ name, prefixes });
			at = k + close[0].length;
		}
	}
	if (open.length > 0) return `<${open.at(-1)!.name}> is never closed`;
	if (roots !== 1) return 'no root element';
	return undefined;
}

/** XML text and attribute values with their references read. */
function unescapeXml(text: string): string {
	return text.replace(/&(?:(lt|gt|amp|apos|quot)|#([0-9]+)|#x([0-9A-Fa-f]+));/g, (_, entity: string, dec: string, hex: string) =>
		entity ? ({ lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' } as Record<string, string>)[entity] : String.fromCodePoint(dec ? parseInt(dec, 10) : parseInt(hex, 16)),
	);
}

/** Column number (1-based) of a cell reference's letters. */
function columnNumber(letters: string): number {
	let n = 0;
	for (const c of letters) n = n * 26 + (c.charCodeAt(0) - 64);
	return n;
}

/** An xsd:double's lexical form of a finite number, as Excel reads a number cell. */
const FINITE_DOUBLE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Every problem Excel would find (or repair) in an .xlsx by the rules above; [] when none. */
export function excelProblems(file: Buffer): string[] {
	const problems: string[] = [];
	const entries = unzipEntries(file);
	for (const [name, bytes] of entries) {
		if (!/\.(xml|rels)$/.test(name)) continue;
		const problem = strictXmlProblem(bytes);
		if (problem) problems.push(`${name}: ${problem}`);
	}
	if (problems.length > 0) return problems;
	const workbook = entries.get('xl/workbook.xml')?.toString('utf8') ?? '';
	const names = [...workbook.matchAll(/<sheet name="([^"]*)"/g)].map((m) => unescapeXml(m[1]));
	const taken = new Set<string>();
	for (const name of names) {
		if (taken.has(name.toLowerCase())) problems.push(`two sheets named ${JSON.stringify(name)}`);
		taken.add(name.toLowerCase());
		if (name.length < 1 || name.length > 31) problems.push(`sheet name ${JSON.stringify(name)}: ${name.length} characters (1-31)`);
		if (/[[\]:*?/\\]/.test(name) || name.startsWith("'") || name.endsWith("'")) problems.push(`sheet name ${JSON.stringify(name)}: a character Excel refuses`);
	}
	for (const [part, bytes] of entries) {
		if (!part.startsWith('xl/worksheets/')) continue;
		const xml = bytes.toString('utf8');
		for (const row of xml.matchAll(/<row r="(\d+)"[^>]*?\/>|<row r="(\d+)"[^>]*>(.*?)<\/row>/gs)) {
			const r = Number(row[1] ?? row[2]);
			if (r > 1_048_576) problems.push(`${part}: row ${r} past 1,048,576`);
			let column = 0;
			for (const cell of (row[3] ?? '').matchAll(/<c((?:\s+[a-z:]+="[^"]*")*)\s*(?:\/>|>(.*?)<\/c>)/gs)) {
				const attributes = Object.fromEntries([...cell[1].matchAll(/([a-z:]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
				column = attributes.r ? columnNumber(/^[A-Z]+/.exec(attributes.r)?.[0] ?? '') : column + 1;
				if (column > 16_384) problems.push(`${part}: a cell in column ${column} of row ${r}, past XFD (16,384)`);
				const value = /<v>(.*?)<\/v>/s.exec(cell[2] ?? '')?.[1];
				const type = attributes.t ?? 'n';
				if (type === 'n' && value !== undefined && !FINITE_DOUBLE.test(value)) problems.push(`${part}: row ${r} column ${column}: number ${JSON.stringify(value)} is no finite xsd:double`);
				if (type === 'b' && value !== '0' && value !== '1') problems.push(`${part}: row ${r} column ${column}: boolean ${JSON.stringify(value)}`);
				if (type === 'inlineStr') {
					const texts = [...(cell[2] ?? '').matchAll(/<t(?:\s[^>]*)?>(.*?)<\/t>/gs)].map((m) => unescapeXml(m[1]).replace(/_x[0-9A-Fa-f]{4}_/g, '.'));
					const length = texts.join('').length;
					if (length > 32_767) problems.push(`${part}: row ${r} column ${column}: a text of ${length} characters`);
				}
			}
		}
	}
	return problems;
}
