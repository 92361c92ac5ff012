/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The pieces of the file exports on their own (issue 24): the CSV rules (RFC 4180 quoting, dot
 * paths, formula neutralizing, the column rule), the compact set of records already written, and
 * the byte source handed to n8n's prepareBinaryData, consumed the two ways n8n consumes it:
 * `fs.promises.writeFile` (filesystem mode) and listeners as n8n's streamToBuffer has them (the
 * other modes; n8n 2.41's version with once/off/close and destroy() on an idle timeout).
 * Whole exports through n8n-core are in export.test.ts and export-paging.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { ByteSource } from '../../nodes/SalesPayments/files/byteSource';
import { CsvWriter, neutralize, quote } from '../../nodes/SalesPayments/files/csv';
import { EXTRA_COLUMN, flatten } from '../../nodes/SalesPayments/files/table';
import { asciiExcept, Utf8Builder } from '../../nodes/SalesPayments/files/utf8';
import { HashedRecordSet } from '../../nodes/SalesPayments/files/hashedRecords';
import { XlsxWriter } from '../../nodes/SalesPayments/files/xlsx';
import { columnLetters, xmlText } from '../../nodes/SalesPayments/files/xlsxText';
import { ZipTooLarge } from '../../nodes/SalesPayments/files/zip';
import { parseCsv } from '../support/helpers/csv';
import { unzipEntries } from '../support/helpers/ooxml';
import { readXlsx, xlsxOfPages } from '../support/helpers/xlsx';

describe('CSV cells', () => {
	it('quotes fields with a comma, a quote, CR or LF, doubling quotes (RFC 4180)', () => {
		expect(quote('plain')).toBe('plain');
		expect(quote('a,b')).toBe('"a,b"');
		expect(quote('say "hi"')).toBe('"say ""hi"""');
		expect(quote('two\nlines')).toBe('"two\nlines"');
		expect(quote('cr\rhere')).toBe('"cr\rhere"');
		expect(quote('Zoë – 東京 😀')).toBe('Zoë – 東京 😀');
	});

	it.each([
		['=1+1', "'=1+1"],
		['+cmd|" /C calc"!A0', '\'+cmd|" /C calc"!A0'],
		['-2+3', "'-2+3"],
		['@SUM(A1:A2)', "'@SUM(A1:A2)"],
		['\tTab', "'\tTab"],
		['\rReturn', "'\rReturn"],
		['-', "'-"],
		// Plain numbers are numbers in every spreadsheet, never formulas.
		['-150', '-150'],
		['-150.00', '-150.00'],
		['+55', '+55'],
		['-1e-7', '-1e-7'],
		['1-2', '1-2'],
		['a=b', 'a=b'],
		[' =1', ' =1'],
		// NUL (ASVS 5.0 1.2.10).
		['\u0000=1+2', "'\u0000=1+2"],
		// A plain number in either decimal notation.
		['-12,50', '-12,50'],
		['1.234,56', '1.234,56'],
		['-1,234.56', '-1,234.56'],
		// A `;` locale reads a comma file's `x;=1+2` as two cells: the second is neutralized too.
		['x;=1+2', "x;'=1+2"],
		['x; "=1+2', 'x; "\'=1+2'],
		['a\t@SUM(A1)', "a\t'@SUM(A1)"],
		['\t=1', "'\t'=1"],
		['x;-12,50', 'x;-12,50'],
		['x;-1+1', "x;'-1+1"],
		// The file's own delimiter is quoted: its reader never splits there.
		['x,=1+2', 'x,=1+2'],
	])('neutralizes %j as %j in a comma file', (text, expected) => {
		expect(neutralize(text)).toBe(expected);
	});

	it.each([
		[';', 'x,=1+2', "x,'=1+2"],
		[';', 'x;=1+2', 'x;=1+2'],
		[';', '-12,50', '-12,50'],
		['\t', 'x;=1+2', "x;'=1+2"],
		['\t', 'x\t=1+2', 'x\t=1+2'],
		['\t', 'x,=1+2', "x,'=1+2"],
	] as const)('with delimiter %j neutralizes %j as %j', (delimiter, text, expected) => {
		expect(neutralize(text, delimiter)).toBe(expected);
	});

	it('quotes fields holding the chosen delimiter', () => {
		expect(quote('a;b', ';')).toBe('"a;b"');
		expect(quote('a,b', ';')).toBe('a,b');
		expect(quote('a\tb', '\t')).toBe('"a\tb"');
	});

	it('flattens nested objects into dot paths, depth first; arrays stay values; empty objects give nothing', () => {
		expect(flatten({ id: 1, customer: { email: 'a@b', address: { city: 'Rio' } }, tags: ['x', 'y'], meta: {}, none: null })).toEqual([
			['id', 1],
			['customer.email', 'a@b'],
			['customer.address.city', 'Rio'],
			['tags', ['x', 'y']],
			['none', null],
		]);
	});
});

/** The CSV text a writer makes of one page. */
function csvOf(writer: CsvWriter, records: IDataObject[]): string {
	const out = new Utf8Builder();
	writer.page(records, out);
	return out.take().toString('utf8');
}

describe('Utf8Builder', () => {
	it('encodes text of any length and script into one buffer per take, growing as needed', () => {
		const out = new Utf8Builder();
		const line = 'São Paulo – 東京 😀 \uD800 ,"x"\r\n';
		for (let n = 0; n < 20_000; n++) out.append(line);
		const bytes = out.take();
		expect(bytes.toString('utf8')).toBe(line.repeat(20_000).replace('\uD800', '\uFFFD').replace(/\uD800/g, '\uFFFD'));
		expect(bytes.length).toBe(Buffer.byteLength(line.repeat(20_000)));
		out.append('next');
		expect(out.take().toString('utf8')).toBe('next');
		expect(out.take()).toHaveLength(0);
	});
});

describe('Utf8Builder byte by byte', () => {
	it('appendPlain copies an allowed ASCII text, else writes nothing and says so; appendShort copies bytes; both grow the buffer', () => {
		const out = new Utf8Builder();
		const noComma = asciiExcept(',');
		expect(out.appendPlain('abc')).toBe(true);
		// A refused text leaves nothing behind, even when it fails late.
		expect(out.appendPlain('xyz,', noComma)).toBe(false);
		expect(out.appendPlain('xyzé')).toBe(false);
		expect(out.appendPlain('d', noComma)).toBe(true);
		out.appendShort(Buffer.from('|'));
		const long = 'k'.repeat(100_000);
		for (let n = 0; n < 3; n++) expect(out.appendPlain(long)).toBe(true);
		out.appendShort(Buffer.from('end'));
		expect(out.take().toString('latin1')).toBe(`abcd|${long.repeat(3)}end`);
	});
});

describe('CsvWriter', () => {
	it('takes its columns from the first page and keeps later fields in the last column, naming them', () => {
		const writer = new CsvWriter({ neutralizeFormulas: true });
		const first = csvOf(writer, [
			{ id: 'a', valueInCents: -150, customer: { email: 'x@y' } },
			{ id: 'b', valueInCents: 20, note: 'only here', customer: null },
		]);
		const later = csvOf(writer, [{ id: 'c', valueInCents: 3, refundedAt: '2025-06-02', customer: { email: 'z@y', phone: '+55 11' } }]);
		const rows = parseCsv(first + later);
		expect(rows).toEqual([
			['id', 'valueInCents', 'customer.email', 'note', 'customer', EXTRA_COLUMN],
			['a', '-150', 'x@y', '', '', ''],
			['b', '20', '', 'only here', '', ''],
			['c', '3', 'z@y', '', '', JSON.stringify({ refundedAt: '2025-06-02', 'customer.phone': '+55 11' })],
		]);
		expect(writer.summary()).toEqual({
			columns: ['id', 'valueInCents', 'customer.email', 'note', 'customer'],
			extraFields: ['refundedAt', 'customer.phone'],
			recordsWithExtraFields: 1,
		});
		expect(first.endsWith('\r\n')).toBe(true);
	});

	it('neutralizes header names too, and renames its own column when a field already has its name', () => {
		const writer = new CsvWriter({ neutralizeFormulas: true });
		const rows = parseCsv(csvOf(writer, [{ '=evil': 1, [EXTRA_COLUMN]: 'mine' }]));
		expect(rows[0]).toEqual(["'=evil", EXTRA_COLUMN, `_${EXTRA_COLUMN}`]);
		expect(rows[1]).toEqual(['1', 'mine', '']);
	});

	it('keeps a dotted key that collides with a nested path (nothing is lost)', () => {
		const writer = new CsvWriter({ neutralizeFormulas: false });
		const rows = parseCsv(csvOf(writer, [{ 'a.b': 1, a: { b: 2 } }]));
		expect(rows).toEqual([
			['a.b', EXTRA_COLUMN],
			['1', JSON.stringify({ 'a.b': 2 })],
		]);
	});

	it('keeps late field names exactly, also constructor, valueOf and __proto__', () => {
		const writer = new CsvWriter({ neutralizeFormulas: false });
		csvOf(writer, [{ id: 'a' }]);
		// JSON.parse makes __proto__ an own field, as records arrive.
		const record = JSON.parse('{"id":"b","constructor":1,"valueOf":2,"__proto__":{"x":3},"hasOwnProperty":4}') as IDataObject;
		const [row] = parseCsv(csvOf(writer, [record]));
		expect(row[1]).toBe('{"constructor":1,"valueOf":2,"__proto__.x":3,"hasOwnProperty":4}');
		const nested = JSON.parse('{"id":"c","__proto__":5}') as IDataObject;
		expect(parseCsv(csvOf(writer, [nested]))[0][1]).toBe('{"__proto__":5}');
		expect(writer.summary().extraFields).toEqual(['constructor', 'valueOf', '__proto__.x', 'hasOwnProperty', '__proto__']);
	});

	it('writes with the chosen delimiter, and without the header line when Header Row is off', () => {
		const writer = new CsvWriter({ neutralizeFormulas: true, delimiter: ';', headerRow: false });
		const text = csvOf(writer, [{ id: 'a', v: -12.5, t: 'x;=1', u: 'a,b' }]);
		expect(text).toBe('a;-12.5;"x;=1";a,b;\r\n');
		expect(parseCsv(text, ';')).toEqual([['a', '-12.5', 'x;=1', 'a,b', '']]);
	});

	it('with neutralizing off, writes formulas as they are', () => {
		const writer = new CsvWriter({ neutralizeFormulas: false });
		expect(parseCsv(csvOf(writer, [{ f: '=1+1' }]))[1]).toEqual(['=1+1', '']);
	});

	it('writes every cell as quote(neutralize(text)) gives it, with each delimiter, neutralizing on and off (the quick path for plain cells included)', () => {
		// Texts made of the characters that matter (quoting, formulas, delimiters, numbers), seeded.
		const alphabet = ['"', '\r', '\n', ',', ';', '\t', '=', '+', '-', '@', '\u0000', '\u0001', '\u007f', '\u0080', ' ', '1', '.', 'e', 'a', 'é', '😀', "'"];
		let seed = 7;
		const random = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed % n;
		};
		const texts = Array.from({ length: 3000 }, () => Array.from({ length: random(6) }, () => alphabet[random(alphabet.length)]).join(''));
		const values: unknown[] = [...texts, 0, -150, 12.5, -1e-7, 1e21, true, false, null, ['a', 1], ''];
		for (const delimiter of [',', ';', '\t'] as const) {
			for (const neutralizeFormulas of [true, false]) {
				const writer = new CsvWriter({ neutralizeFormulas, delimiter, headerRow: false });
				const text = csvOf(
					writer,
					values.map((v) => ({ v, w: 'x' }) as IDataObject),
				);
				const cell = (value: unknown) => {
					const plain = value === null ? '' : typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
					return quote(neutralizeFormulas ? neutralize(plain, delimiter) : plain, delimiter);
				};
				expect(text).toBe(values.map((v) => `${cell(v)}${delimiter}x${delimiter}\r\n`).join(''));
			}
		}
	});
});

describe('XlsxWriter and its ZIP', () => {
	it('column letters and XML text escapes (markup, characters XML cannot hold, a literal _xHHHH_)', () => {
		expect([0, 25, 26, 51, 52, 701, 702, 16383].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA', 'XFD']);
		expect(xmlText('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
		expect(xmlText('\u0000x\r\n\t\u001f')).toBe('_x0000_x_x000D_\n\t_x001F_');
		expect(xmlText('_x0041_ and _xZZZZ_')).toBe('_x005F_x0041_ and _xZZZZ_');
		// No character at all (a lone surrogate, U+FFFE, U+FFFF): U+FFFD, counted.
		const replaced = { count: 0 };
		expect(xmlText('😀 \uD800 \uFFFE \uDC00x\uFFFF', replaced)).toBe('😀 \uFFFD \uFFFD \uFFFDx\uFFFD');
		expect(replaced.count).toBe(4);
		// Texts that need nothing (the quick check), also with _ or DEL.
		for (const text of ['Zoë – 東京 😀', 'a_b x_x41_', 'tab\tand\nline', '\u007f', '"quoted" \'single\' =1+2']) expect(xmlText(text)).toBe(text);
	});

	it('starts a new sheet, header repeated, when a sheet is full', async () => {
		const writer = new XlsxWriter({ sheetName: 'Vendas', headerRow: true, decimalAmounts: false, maxRows: 3 });
		const records = Array.from({ length: 5 }, (_, n) => ({ id: `r${n}`, n }));
		const sheets = await readXlsx(await xlsxOfPages(writer, [records.slice(0, 2), records.slice(2)]));
		expect(sheets.map((s) => [s.name, s.frozenRows, s.rows])).toEqual([
			['Vendas', 1, [['id', 'n', '_extraFields'], ['r0', 0], ['r1', 1]]],
			['Vendas (2)', 1, [['id', 'n', '_extraFields'], ['r2', 2], ['r3', 3]]],
			['Vendas (3)', 1, [['id', 'n', '_extraFields'], ['r4', 4]]],
		]);
		expect(writer.summary().sheets).toEqual(['Vendas', 'Vendas (2)', 'Vendas (3)']);
	});

	it('rows with gaps: every cell carries its reference (r="B7"), an empty cell is not written; every value in its column', async () => {
		const width = 30;
		const name = (k: number) => `f${String(k).padStart(2, '0')}`;
		const full = Object.fromEntries(Array.from({ length: width }, (_, k) => [name(k), k % 3 === 0 ? k : `v${k}`]));
		const records: IDataObject[] = [
			full,
			// The first column empty, gaps of one and of several, a late column (AC) after a gap.
			{ ...full, f00: null, f02: '', f05: undefined, f06: null, f07: null, f27: '' },
			// Only the last column.
			Object.fromEntries(Array.from({ length: width }, (_, k) => [name(k), k === width - 1 ? 'last' : null])),
			// No cell at all.
			Object.fromEntries(Array.from({ length: width }, (_, k) => [name(k), ''])),
			// A late field (the next page): `_extraFields` after the empty ones.
			{ ...Object.fromEntries(Array.from({ length: width }, (_, k) => [name(k), k === 1 ? 'b' : undefined])), late: true },
		];
		const writer = new XlsxWriter({ sheetName: 'Sheet', headerRow: true, decimalAmounts: false });
		const file = await xlsxOfPages(writer, [records.slice(0, -1), records.slice(-1)]);
		// readXlsx reads it whole and with exceljs's streaming reader, which needs every reference.
		const [sheet] = await readXlsx(file);
		const expected = records.map((record) => [
			...Array.from({ length: width }, (_, k) => (record[name(k)] === '' || record[name(k)] === null ? undefined : record[name(k)])),
			record.late === undefined ? undefined : '{"late":true}',
		]);
		expect(sheet.rows).toEqual([[...Array.from({ length: width }, (_, k) => name(k)), '_extraFields'], ...expected]);
		const xml = unzipEntries(file).get('xl/worksheets/sheet1.xml')!.toString('utf8');
		const rows = /<sheetData>(.*)<\/sheetData>/s.exec(xml)?.[1].match(/<row [^>]*>.*?<\/row>/g) ?? [];
		expect(rows).toHaveLength(1 + records.length);
		const references = rows.map((row) => [...row.matchAll(/<c( r="([A-Z]+)(\d+)")?/g)].map((m) => (m[1] ? `${m[2]}${m[3]}` : '-')));
		const columns = (from: number, to: number, row: number) => Array.from({ length: to - from + 1 }, (_, k) => `${columnLetters(from + k)}${row}`);
		expect(references[0]).toEqual(columns(0, width, 1));
		expect(references[1]).toEqual(columns(0, width - 1, 2));
		expect(references[2]).toEqual(['B3', 'D3', 'E3', ...columns(8, 26, 3), 'AC3', 'AD3']);
		expect(references[3]).toEqual(['AD4']);
		expect(rows[4]).toBe('<row r="5"></row>');
		expect(references[5]).toEqual(['B6', 'AE6']);
	});

	it('pages of every size written into two buffers in turn while the compressor reads them: every row reads back as written', async () => {
		// Pages of 600 KB of XML (handed over as they are) and of a few rows (copied first, deflate.ts).
		const page = (n: number, rows: number) => Array.from({ length: rows }, (_, k) => ({ id: `p${n}-${k}`, text: `${n}:${k}:${randomBytes(300).toString('hex')}` }));
		const pages = [page(0, 800), page(1, 3), page(2, 800), page(3, 800), page(4, 1), page(5, 800), page(6, 2)];
		const file = await xlsxOfPages(new XlsxWriter({ sheetName: 'Sheet', headerRow: false, decimalAmounts: false }), pages);
		const [sheet] = await readXlsx(file);
		expect(sheet.rows).toEqual(pages.flat().map((r) => [r.id, r.text]));
	});

	it('every entry is compressed (DEFLATE, method 8): the sheet of 2,000 movements-like rows is a fraction of its XML, and reads back', async () => {
		const records = Array.from({ length: 2000 }, (_, n) => ({
			id: `m-${String(n).padStart(6, '0')}`,
			type: n % 3 ? 'credit' : 'debit',
			valueInCents: (n * 7919) % 100_000,
			description: `Sale of product ${n % 40}`,
			createdAt: new Date(Date.UTC(2025, 5, 1) + n * 61_000).toISOString(),
		}));
		const file = await xlsxOfPages(new XlsxWriter({ sheetName: 'Sheet', headerRow: true, decimalAmounts: false }), [records.slice(0, 900), records.slice(900)]);
		const xml = unzipEntries(file).get('xl/worksheets/sheet1.xml')!;
		expect(file.length).toBeLessThan(xml.length / 4);
		const [sheet] = await readXlsx(file);
		expect(sheet.rows.slice(1).map((row) => row[0])).toEqual(records.map((r) => r.id));
		// Info-ZIP's own test of the archive (CRC-32 and sizes of every entry), when present.
		const zipFile = path.join(mkdtempSync(path.join(tmpdir(), 'sp-zip-')), 'book.xlsx');
		writeFileSync(zipFile, file);
		const unzip = spawnSync('unzip', ['-tq', zipFile]);
		if (unzip.error === undefined) expect(unzip.stdout.toString()).toMatch(/No errors detected/);
		rmSync(path.dirname(zipFile), { recursive: true, force: true });
	});
	it('an empty list is a workbook with one empty sheet', async () => {
		const sheets = await readXlsx(await xlsxOfPages(new XlsxWriter({ sheetName: 'Sheet', headerRow: true, decimalAmounts: false }), []));
		expect(sheets.map((s) => [s.name, s.rows])).toEqual([['Sheet', []]]);
	});

	it('cuts a text past 32,767 characters (Excel\'s most) and counts it', async () => {
		const writer = new XlsxWriter({ sheetName: 'Sheet', headerRow: false, decimalAmounts: false });
		const [sheet] = await readXlsx(await xlsxOfPages(writer, [[{ long: 'é'.repeat(40_000) }]]));
		expect(sheet.rows[0][0]).toBe('é'.repeat(32_767));
		expect(writer.summary().textsCut).toBe(1);
	});

	it('refuses to pass the ZIP\'s size limit before giving out the bytes past it: the archive, or one entry before compression', async () => {
		// Random text does not compress: the archive passes 5,000 bytes.
		const random = () => randomBytes(600).toString('base64');
		const archive = new XlsxWriter({ sheetName: 'Sheet', headerRow: true, decimalAmounts: false, maxBytes: 5000 });
		const out = new Utf8Builder();
		await archive.page([{ id: 'a', text: random() }], out);
		await expect(archive.page(Array.from({ length: 10 }, () => ({ id: 'b', text: random() })), out)).rejects.toThrow(ZipTooLarge);
		expect(out.size).toBeLessThanOrEqual(5000);
		// Text that compresses to nearly nothing: the sheet's XML passes it (a data descriptor holds 32 bits).
		const entry = new XlsxWriter({ sheetName: 'Sheet', headerRow: true, decimalAmounts: false, maxBytes: 5000 });
		await expect(entry.page(Array.from({ length: 10 }, () => ({ id: 'b', text: 'y'.repeat(1000) })), new Utf8Builder())).rejects.toThrow(
			'a part of the file before compression would pass 5,000 bytes, the most a ZIP file without ZIP64 holds',
		);
	});
});

describe('HashedRecordSet', () => {
	it('knows records by id with its type (1 and "1" differ), else by content whatever the key order', () => {
		const set = new HashedRecordSet();
		expect(set.add({ id: 1 })).toBe(true);
		expect(set.add({ id: '1' })).toBe(true);
		expect(set.add({ id: 1, other: 'field' })).toBe(false);
		expect(set.add({ id: '1' })).toBe(false);
		expect(set.add({ a: 1, b: { c: 2 } })).toBe(true);
		expect(set.add({ b: { c: 2 }, a: 1 })).toBe(false);
		expect(set.add({ a: 1, b: { c: 3 } })).toBe(true);
		expect([set.size, set.repeats]).toEqual([4, 3]);
	});

	it('holds 1,000,000 ids in 16 MB (8 bytes a slot, at most 3/4 full), each once', () => {
		const set = new HashedRecordSet();
		let added = 0;
		for (let n = 0; n < 1_000_000; n++) if (set.add({ id: `movement-${n}` })) added++;
		expect(added).toBe(1_000_000);
		let repeats = 0;
		for (let n = 0; n < 1_000_000; n += 1000) if (!set.add({ id: `movement-${n}` })) repeats++;
		expect(repeats).toBe(1000);
		expect((set as unknown as { slots: Uint32Array }).slots.byteLength).toBe(16 * 1024 * 1024);
	});
});

/** Chunks of a walk that fails after `failAfter` chunks, with what a consumer left unread. */
function source(chunks: string[], failAfter?: number) {
	const state = { finished: false, error: new Error('page 3 failed') };
	async function* gen(): AsyncGenerator<Buffer> {
		try {
			for (let n = 0; n < chunks.length; n++) {
				if (n === failAfter) throw state.error;
				await new Promise((resolve) => setImmediate(resolve));
				yield Buffer.from(chunks[n]);
			}
		} finally {
			state.finished = true;
		}
	}
	return { source: new ByteSource(() => gen()), state };
}

/** n8n 2.41's streamToBuffer (@n8n/backend-network), as it uses a stream, with its idle timer. */
async function streamToBuffer241(stream: ByteSource, idleMs: number): Promise<Buffer> {
	return await new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let settled = false;
		let timer: NodeJS.Timeout | undefined;
		const arm = () => {
			clearTimeout(timer);
			timer = setTimeout(() => {
				stream.destroy();
				settle(() => reject(new Error(`Response body timed out after ${idleMs}ms without data`)));
			}, idleMs);
		};
		const onData = (chunk?: unknown) => {
			chunks.push(chunk as Buffer);
			arm();
		};
		const onEnd = () => settle(() => resolve(Buffer.concat(chunks)));
		const onError = (cause?: unknown) => settle(() => reject(cause as Error));
		const onClose = () => settle(() => reject(new Error('Stream closed before completing')));
		function settle(action: () => void) {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			stream.off('data', onData);
			stream.off('end', onEnd);
			stream.off('error', onError);
			stream.off('close', onClose);
			action();
		}
		stream.on('data', onData);
		stream.once('end', onEnd);
		stream.once('error', onError);
		stream.once('close', onClose);
		arm();
	});
}

/** n8n 1.x / 2.8's streamToBuffer (n8n-core binary-data/utils). */
async function streamToBuffer28(stream: ByteSource): Promise<Buffer> {
	return await new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		stream.on('data', (chunk) => chunks.push(chunk as Buffer));
		stream.on('end', () => resolve(Buffer.concat(chunks)));
		stream.once('error', (cause) => reject(cause as Error));
	});
}

describe('ByteSource, as n8n reads it', () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'sp-bytes-'));

	it('fs.promises.writeFile (filesystem mode) writes every chunk in order', async () => {
		const { source: s, state } = source(['a,b\r\n', '1,2\r\n', '3,4\r\n']);
		const file = path.join(dir, 'ok.csv');
		await writeFile(file, s as never);
		expect(readFileSync(file, 'utf8')).toBe('a,b\r\n1,2\r\n3,4\r\n');
		expect(state.finished).toBe(true);
	});

	it('reuse: writeFile is done with a chunk when it asks for the next, so one buffer serves every page; listeners keep their chunks', async () => {
		const made: boolean[] = [];
		const pages = ['first page\r\n', 'second\r\n', 'third, longer page\r\n'];
		async function* overwriting(reuse: boolean): AsyncGenerator<Buffer> {
			made.push(reuse);
			const shared = Buffer.alloc(64);
			for (const page of pages) {
				await new Promise((resolve) => setImmediate(resolve));
				const bytes = reuse ? shared : Buffer.alloc(64);
				yield bytes.subarray(0, bytes.write(page));
			}
		}
		const file = path.join(dir, 'reused.csv');
		await writeFile(file, new ByteSource(overwriting) as never);
		expect(readFileSync(file, 'utf8')).toBe(pages.join(''));
		expect((await streamToBuffer28(new ByteSource(overwriting))).toString()).toBe(pages.join(''));
		expect(made).toEqual([true, false]);
	});

	it('fs.promises.writeFile rejects with the walk\'s own error, which the source keeps', async () => {
		const { source: s, state } = source(['a\r\n', 'b\r\n', 'c\r\n'], 2);
		await expect(writeFile(path.join(dir, 'failed.csv'), s as never)).rejects.toBe(state.error);
		expect(s.failure).toBe(state.error);
	});

	it.each([
		['1.x / 2.8', (s: ByteSource) => streamToBuffer28(s)],
		['2.41', (s: ByteSource) => streamToBuffer241(s, 5_000)],
	])("n8n %s's streamToBuffer gets every chunk, then the end", async (_v, read) => {
		const { source: s } = source(['x', 'y', 'z']);
		expect((await read(s)).toString()).toBe('xyz');
	});

	it.each([
		['1.x / 2.8', (s: ByteSource) => streamToBuffer28(s)],
		['2.41', (s: ByteSource) => streamToBuffer241(s, 5_000)],
	])("n8n %s's streamToBuffer rejects with the walk's own error", async (_v, read) => {
		const { source: s, state } = source(['x', 'y', 'z'], 1);
		await expect(read(s)).rejects.toBe(state.error);
		expect(s.failure).toBe(state.error);
	});

	it("an 'error' listener that throws does not escape as an unhandled rejection; the walk's error stays kept", async () => {
		const { source: s, state } = source(['x', 'y'], 1);
		const unhandled: unknown[] = [];
		const record = (reason: unknown) => unhandled.push(reason);
		process.on('unhandledRejection', record);
		try {
			const errors: unknown[] = [];
			s.once('error', (error) => {
				errors.push(error);
				throw new Error('the consumer failed');
			});
			const data: string[] = [];
			s.on('data', (chunk) => data.push(String(chunk)));
			await new Promise((resolve) => setTimeout(resolve, 50));
			expect({ data, errors, failure: s.failure, unhandled }).toEqual({ data: ['x'], errors: [state.error], failure: state.error, unhandled: [] });
		} finally {
			process.off('unhandledRejection', record);
		}
	});

	it("n8n 2.41's idle timeout destroys the source: the walk ends (its finally runs) and nothing more is emitted", async () => {
		let release: () => void = () => undefined;
		let finished = false;
		async function* slow(): AsyncGenerator<Buffer> {
			try {
				yield Buffer.from('first');
				await new Promise<void>((resolve) => (release = resolve));
				yield Buffer.from('never read');
			} finally {
				finished = true;
			}
		}
		const s = new ByteSource(() => slow());
		await expect(streamToBuffer241(s, 50)).rejects.toThrow('Response body timed out after 50ms without data');
		release();
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(finished).toBe(true);
	});
});
