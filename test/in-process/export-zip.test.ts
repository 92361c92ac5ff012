/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The Excel file's ZIP (follow-up of issue 52), on the ZIP layer with crafted entry bytes:
 * - the compressor's own CRC-32 and size (the gzip trailer) are the entry's;
 * - an entry whose compressed bytes fit the held bound is written with its CRC-32 and sizes in its
 *   local header and no data descriptor; a larger one streams with a data descriptor, given out a
 *   little at a time;
 * - a data descriptor's signature (`PK\x07\x08`) inside a streamed entry's compressed bytes is
 *   found, also across the chunks' boundaries, and the summary says which readers cannot read the
 *   file; inside a held entry it harms no reader: exceljs's streaming reader (WorkbookReader, whose
 *   unzipper cuts an entry of unknown size at the first signature) reads the workbook. Random bytes
 *   do not compress: DEFLATE stores them as they are, so a signature put in them is in the file.
 * - a buffer handed to the compressor is not written again before the compressor is done with it.
 * - a workbook whose sheet passes the bound (lowered here) streams it and reads back whole.
 * Whole exports through n8n-core: export-xlsx-size.test.ts (100,000 movements: 12 MB, held, read
 * by exceljs's streaming reader; main's writer made it hang).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';

import ExcelJS from 'exceljs';

import { Deflater } from '../../nodes/SalesPayments/files/deflate';
import { Utf8Builder } from '../../nodes/SalesPayments/files/utf8';
import { XlsxWriter } from '../../nodes/SalesPayments/files/xlsx';
import { NS, workbookParts, XML_DECLARATION } from '../../nodes/SalesPayments/files/xlsxParts';
import { SignatureScan, ZipWriter } from '../../nodes/SalesPayments/files/zip';
import { unzipEntries } from '../support/helpers/ooxml';
import { readXlsx, readXlsxStreaming, StreamingStalled, xlsxOfPages } from '../support/helpers/xlsx';
import { calcSheetsAsCsv, sofficeForTests } from '../support/libreoffice';
import { n8nCacheDir } from '../support/n8n-install';

const SIGNATURE = Buffer.from([0x50, 0x4b, 0x07, 0x08]);
const soffice = sofficeForTests();

/** Each entry as its local header, its data and, with flag bit 3, its data descriptor say, beside the central directory's record. */
interface EntryRead {
	name: string;
	flags: number;
	local: { crc: number; compressedSize: number; size: number };
	central: { flags: number; crc: number; compressedSize: number; size: number };
	data: Buffer;
	descriptor?: { crc: number; compressedSize: number; size: number };
	/** Where the next record starts. */
	end: number;
}

function entriesOf(file: Buffer): EntryRead[] {
	let last = file.length - 22;
	while (file.readUInt32LE(last) !== 0x06054b50) last--;
	const count = file.readUInt16LE(last + 10);
	let at = file.readUInt32LE(last + 16);
	const entries: EntryRead[] = [];
	for (let n = 0; n < count; n++) {
		expect(file.readUInt32LE(at)).toBe(0x02014b50);
		const central = { flags: file.readUInt16LE(at + 8), crc: file.readUInt32LE(at + 16), compressedSize: file.readUInt32LE(at + 20), size: file.readUInt32LE(at + 24) };
		const nameLength = file.readUInt16LE(at + 28);
		const offset = file.readUInt32LE(at + 42);
		const name = file.subarray(at + 46, at + 46 + nameLength).toString('utf8');
		at += 46 + nameLength;
		expect(file.readUInt32LE(offset)).toBe(0x04034b50);
		const flags = file.readUInt16LE(offset + 6);
		const local = { crc: file.readUInt32LE(offset + 14), compressedSize: file.readUInt32LE(offset + 18), size: file.readUInt32LE(offset + 22) };
		const start = offset + 30 + file.readUInt16LE(offset + 26) + file.readUInt16LE(offset + 28);
		const data = file.subarray(start, start + central.compressedSize);
		let end = start + central.compressedSize;
		let descriptor;
		if (flags & 8) {
			expect(file.readUInt32LE(end)).toBe(0x08074b50);
			descriptor = { crc: file.readUInt32LE(end + 4), compressedSize: file.readUInt32LE(end + 8), size: file.readUInt32LE(end + 12) };
			end += 16;
		}
		entries.push({ name, flags, local, central, data, descriptor, end });
	}
	return entries;
}

/** Info-ZIP's and Python's own tests of the archive (CRC-32 and sizes of every entry), where they are installed. */
function archiveTests(file: Buffer): string[] {
	const dir = mkdtempSync(path.join(tmpdir(), 'sp-zip-'));
	const zipFile = path.join(dir, 'book.zip');
	writeFileSync(zipFile, file);
	const passed: string[] = [];
	try {
		const unzip = spawnSync('unzip', ['-tq', zipFile]);
		if (unzip.error === undefined) {
			expect(unzip.stdout.toString()).toMatch(/No errors detected/);
			passed.push('unzip');
		}
		const python = spawnSync('python3', ['-c', 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).testzip())', zipFile]);
		if (python.error === undefined && python.status === 0) {
			expect(python.stdout.toString().trim()).toBe('None');
			passed.push('python');
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	return passed;
}

/** Random bytes with the signature at a few places (DEFLATE stores random bytes as they are). */
function noiseWithSignatures(bytes: number): Buffer {
	const noise = randomBytes(bytes);
	for (const at of [0.2, 0.4, 0.6, 0.8]) SIGNATURE.copy(noise, Math.floor(at * bytes));
	return noise;
}

const ROWS = Array.from({ length: 50 }, (_, n) => [`id-${n}`, n * 7]);

/**
 * A workbook of one sheet (ROWS) whose archive holds, before the sheet, an entry of random bytes
 * with the signature in them; every entry held up to `holdBytes` of compressed bytes.
 */
async function workbookWithSignature(holdBytes?: number): Promise<{ file: Buffer; zip: ZipWriter }> {
	const zip = new ZipWriter({ holdBytes });
	const out = new Utf8Builder();
	zip.begin('xl/media/noise.bin');
	const noise = noiseWithSignatures(64_000);
	for (let at = 0; at < noise.length; at += 8000) await zip.data(noise.subarray(at, at + 8000), out);
	await zip.end(out);
	const rows = ROWS.map(([id, n], k) => `<row r="${k + 1}"><c r="A${k + 1}" t="inlineStr"><is><t>${id}</t></is></c><c r="B${k + 1}"><v>${n}</v></c></row>`).join('');
	await zip.entry('xl/worksheets/sheet1.xml', `${XML_DECLARATION}<worksheet xmlns="${NS}"><sheetData>${rows}</sheetData></worksheet>`, out);
	for (const [name, xml] of workbookParts(['Sheet'])) await zip.entry(name, XML_DECLARATION + xml, out);
	zip.finish(out);
	return { file: Buffer.from(out.take()), zip };
}

/** The rows of the first sheet as exceljs's whole-file reader reads them. */
async function wholeRows(file: Buffer): Promise<unknown[][]> {
	const workbook = new ExcelJS.Workbook();
	await workbook.xlsx.load(file as unknown as ArrayBuffer);
	const rows: unknown[][] = [];
	workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
	return rows;
}

/** What exceljs's streaming reader makes of `file` (stuck when it gives nothing for `stallMs`): its rows, or how it failed. */
async function streamingWithin(file: Buffer, stallMs: number): Promise<{ rows?: unknown[][]; failed?: string }> {
	return await readXlsxStreaming(file, stallMs).then(
		(sheets) => ({ rows: sheets[0]?.rows ?? [] }),
		(error: unknown) => ({ failed: `${error instanceof StreamingStalled ? 'stalled' : 'threw'}: ${(error as Error).message}` }),
	);
}

describe('the compressor: DEFLATE, with the CRC-32 and size of its gzip trailer', () => {
	it.each([
		['the check string', Buffer.from('123456789')],
		['random bytes (stored blocks)', randomBytes(200_000)],
		['text in several scripts', Buffer.from('São Paulo – 東京 😀 <c r="A1"/>'.repeat(20_000))],
		['nothing', Buffer.alloc(0)],
	])('%s, written in pieces: the DEFLATE stream inflates to it, its CRC-32 and size are the trailer\'s', async (_, bytes) => {
		const deflater = new Deflater();
		const chunks: Uint8Array[] = [];
		for (let at = 0; at < bytes.length; at += 70_001) {
			await deflater.write(bytes.subarray(at, at + 70_001));
			chunks.push(...deflater.take());
		}
		const end = await deflater.end();
		chunks.push(...end.chunks);
		expect(end.crc).toBe(crc32(bytes));
		expect(end.size).toBe(bytes.length);
		expect(inflateRawSync(Buffer.concat(chunks)).equals(bytes)).toBe(true);
	});
});

describe('the signature scan', () => {
	it('finds PK\\x07\\x08 anywhere, whole in a chunk or cut by the chunks\' boundaries at any place, chunks of one byte or empty too', () => {
		for (let at = 0; at <= 12; at++) {
			const stream = Buffer.alloc(16, 'x');
			SIGNATURE.copy(stream, at);
			for (let first = 0; first <= 16; first++) {
				for (let second = first; second <= 16; second++) {
					const scan = new SignatureScan();
					for (const piece of [stream.subarray(0, first), stream.subarray(first, second), stream.subarray(second)]) scan.scan(piece);
					expect([at, first, second, scan.found]).toEqual([at, first, second, true]);
				}
			}
			const bytewise = new SignatureScan();
			for (const byte of stream) bytewise.scan(Uint8Array.of(byte));
			expect(bytewise.found).toBe(true);
		}
	});

	it('does not find what only looks like it: PK\\x07 and \\x08 apart, PK\\x07\\x09, the signature\'s bytes in other streams', () => {
		const lookalikes = [Buffer.from('PK\x07xx\x08PK\x07\x09PK\x05\x06', 'latin1'), Buffer.from('PK\x07', 'latin1'), Buffer.from('\x08PK', 'latin1')];
		for (const bytes of lookalikes) {
			for (let cut = 0; cut <= bytes.length; cut++) {
				const scan = new SignatureScan();
				scan.scan(bytes.subarray(0, cut));
				scan.scan(bytes.subarray(cut));
				expect(scan.found).toBe(false);
			}
		}
	});
});

describe('the local header: sizes first when the entry fits the held bound, a data descriptor after it when not', () => {
	it('a small entry has its CRC-32 and sizes in its local header and no data descriptor; one past the bound has flag bit 3 and a descriptor; every reader agrees', async () => {
		const zip = new ZipWriter({ holdBytes: 4096 });
		const out = new Utf8Builder();
		const small = 'a small part, compressible; '.repeat(200);
		const large = randomBytes(64_000);
		await zip.entry('small.txt', small, out);
		zip.begin('large.bin');
		// Written in pieces: zlib gives out its bytes as it goes (past the bound before the end).
		for (let at = 0; at < large.length; at += 8000) await zip.data(large.subarray(at, at + 8000), out);
		await zip.end(out);
		zip.finish(out);
		const file = Buffer.from(out.take());
		const [first, second] = entriesOf(file);

		expect(first).toMatchObject({ name: 'small.txt', flags: 0x0800, descriptor: undefined });
		expect(first.local).toEqual({ crc: crc32(small), compressedSize: first.data.length, size: Buffer.byteLength(small) });
		expect(first.central).toEqual({ flags: 0x0800, ...first.local });
		// The next local header right after the data.
		expect(file.readUInt32LE(first.end)).toBe(0x04034b50);
		expect(inflateRawSync(first.data).toString()).toBe(small);

		expect(second).toMatchObject({ name: 'large.bin', flags: 0x0808 });
		expect(second.local).toEqual({ crc: 0, compressedSize: 0, size: 0 });
		expect(second.descriptor).toEqual({ crc: crc32(large), compressedSize: second.data.length, size: large.length });
		expect(second.central).toEqual({ flags: 0x0808, ...second.descriptor });
		expect(inflateRawSync(second.data).equals(large)).toBe(true);
		expect(zip.streamed).toEqual(['large.bin']);
		expect(unzipEntries(file).get('small.txt')?.toString()).toBe(small);
		archiveTests(file);
	});

	it('an entry that passes the bound gives its held bytes out a little at a time, never all at once', async () => {
		const holdBytes = 512 * 1024;
		const zip = new ZipWriter({ holdBytes });
		const given: number[] = [];
		let size = 0;
		const sink = { appendBytes: (bytes: Uint8Array) => (size += bytes.length) };
		zip.begin('large.bin');
		const content = randomBytes(2 * 1024 * 1024);
		for (let at = 0; at < content.length; at += 16 * 1024) {
			const before = size;
			await zip.data(content.subarray(at, at + 16 * 1024), sink);
			given.push(size - before);
		}
		await zip.end(sink);
		zip.finish(sink);
		// Nothing until the bound is passed, then at most the new bytes and 64 KiB of the held ones (plus a chunk) a call.
		expect(given.findIndex((bytes) => bytes > 0)).toBeGreaterThanOrEqual(holdBytes / (16 * 1024));
		expect(Math.max(...given)).toBeLessThan(16 * 1024 + 64 * 1024 + 32 * 1024);
		expect(given.at(-1)).toBeGreaterThan(0);
	});
});

describe('a data descriptor\'s signature inside the compressed bytes', () => {
	it('in a held entry (no descriptor): found by no reader; exceljs\'s streaming reader reads the workbook, and nothing is noted', async () => {
		const { file, zip } = await workbookWithSignature();
		const noise = entriesOf(file).find((entry) => entry.name === 'xl/media/noise.bin')!;
		// The signature is in the entry's data as written (DEFLATE stored the random bytes).
		expect(noise.data.includes(SIGNATURE)).toBe(true);
		expect(noise.flags & 8).toBe(0);
		expect(zip.streamed).toEqual([]);
		expect(zip.signatureIn).toEqual([]);
		expect(await streamingWithin(file, 20_000)).toEqual({ rows: ROWS });
		expect(await wholeRows(file)).toEqual(ROWS);
	});

	it('in a streamed entry: found and named; exceljs\'s streaming reader cannot read the file, the readers that use the central directory can', async () => {
		const { file, zip } = await workbookWithSignature(1024);
		const noise = entriesOf(file).find((entry) => entry.name === 'xl/media/noise.bin')!;
		expect(noise.data.includes(SIGNATURE)).toBe(true);
		expect(noise.flags & 8).toBe(8);
		expect(zip.signatureIn).toEqual(['xl/media/noise.bin']);
		// What the note says: the streaming reader fails (unzipper ends the entry at the signature) ...
		const streamed = await streamingWithin(file, 5_000);
		expect(streamed.rows).toBeUndefined();
		// (It throws here, where the cut entry ends the stream; on a sheet it waits for bytes that never come.)
		expect(streamed.failed).toMatch(/^(stalled|threw): /);
		// ... and these read every row.
		expect(await wholeRows(file)).toEqual(ROWS);
		archiveTests(file);
		const sheetjs = path.join(n8nCacheDir(), 'node_modules', 'xlsx');
		if (existsSync(sheetjs)) {
			// n8n's Extract From File reads a workbook with SheetJS (xlsx 0.18.5, in n8n-nodes-base).
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const XLSX = require(sheetjs) as { read: (data: Buffer, options: object) => { SheetNames: string[]; Sheets: Record<string, unknown> }; utils: { sheet_to_json: (sheet: unknown, options: object) => unknown[][] } };
			const book = XLSX.read(file, { type: 'buffer' });
			expect(XLSX.utils.sheet_to_json(book.Sheets[book.SheetNames[0]], { header: 1 })).toEqual(ROWS);
		}
		if (soffice.path) {
			const dir = mkdtempSync(path.join(tmpdir(), 'sp-zip-'));
			try {
				writeFileSync(path.join(dir, 'book.xlsx'), file);
				const sheets = await calcSheetsAsCsv(soffice.path, path.join(dir, 'book.xlsx'));
				expect([...sheets.values()][0].map((row) => row.map((cell) => cell.text))).toEqual(ROWS.map(([id, n]) => [id, String(n)]));
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		}
	}, 120_000);

	it('the summary names the sheets whose compressed bytes hold it, and the readers that cannot read the file and those that can', async () => {
		const signatureIn = jest.spyOn(ZipWriter.prototype, 'signatureIn', 'get').mockReturnValue(['xl/worksheets/sheet2.xml']);
		try {
			const writer = new XlsxWriter({ sheetName: 'Vendas', headerRow: true, decimalAmounts: false, maxRows: 3 });
			const out = new Utf8Builder();
			await writer.page(Array.from({ length: 5 }, (_, n) => ({ id: `r${n}` })), out);
			await writer.finish(out);
			expect(writer.summary().streamingReadersNote).toBe(
				"Streaming ZIP readers that end a part at the first data-descriptor signature they meet (exceljs's WorkbookReader) cannot read this file: " +
					'the compressed data of the sheet "Vendas (2)" happens to hold those 4 bytes. ' +
					"Readers that use the ZIP's central directory read it: LibreOffice, n8n's Extract From File and exceljs's whole-file reader were checked.",
			);
		} finally {
			signatureIn.mockRestore();
		}
		const writer = new XlsxWriter({ sheetName: 'Sheet', headerRow: true, decimalAmounts: false });
		await writer.page([{ id: 'a' }], new Utf8Builder());
		await writer.finish(new Utf8Builder());
		expect(writer.summary()).not.toHaveProperty('streamingReadersNote');
	});
});

describe('a workbook whose sheet passes the held bound', () => {
	it('the sheet streams (flag bit 3, a data descriptor), the small parts are held; exceljs (whole and streaming) and the archive tests read every row, and nothing is noted', async () => {
		const writer = new XlsxWriter({ sheetName: 'Sheet', headerRow: true, decimalAmounts: false, holdBytes: 4096 });
		const out = new Utf8Builder();
		const records = Array.from({ length: 3000 }, (_, n) => ({ id: `mov-${n}`, type: n % 3 ? 'credit' : 'debit', valueInCents: (n * 7919) % 100_003, memo: `pedido ${(n * 2654435761) % 1_000_003}` }));
		for (let at = 0; at < records.length; at += 500) await writer.page(records.slice(at, at + 500), out);
		await writer.finish(out);
		const file = Buffer.from(out.take());
		const entries = entriesOf(file);
		expect(entries.filter((entry) => entry.flags & 8).map((entry) => entry.name)).toEqual(['xl/worksheets/sheet1.xml']);
		for (const entry of entries) expect(entry.descriptor ?? entry.local).toEqual({ crc: entry.central.crc, compressedSize: entry.central.compressedSize, size: entry.central.size });
		expect(writer.summary()).not.toHaveProperty('streamingReadersNote');
		const [sheet] = await readXlsx(file);
		// (The last column, _extraFields, empty: every record has the first page's fields.)
		expect(sheet.rows).toEqual([['id', 'type', 'valueInCents', 'memo', '_extraFields'], ...records.map((record) => [record.id, record.type, record.valueInCents, record.memo, undefined])]);
		archiveTests(file);
	});
});

describe('a sheet foreseen past the held bound streams from its start', () => {
	it('the ZIP: an entry expected past 10 times the bound streams (nothing held), one expected within it is held', async () => {
		const zip = new ZipWriter({ holdBytes: 64 * 1024 });
		const out = new Utf8Builder();
		const content = randomBytes(20_000);
		for (const [name, expected] of [['large.bin', 10 * 64 * 1024 + 1], ['small.bin', 10 * 64 * 1024]] as const) {
			zip.begin(name);
			zip.expect(expected);
			await zip.data(content, out);
			await zip.end(out);
		}
		zip.finish(out);
		const file = Buffer.from(out.take());
		expect(zip.streamed).toEqual(['large.bin']);
		expect(entriesOf(file).map((entry) => [entry.name, entry.flags & 8])).toEqual([['large.bin', 8], ['small.bin', 0]]);
		archiveTests(file);
	});

	it('the sheet: its first rows times the list\'s size (within a sheet\'s rows) foresee it; without a size it is held', async () => {
		const records = Array.from({ length: 200 }, (_, n) => ({ id: `mov-${n}`, memo: `pedido ${n}` }));
		const write = async (listSize?: number, maxRows?: number) => {
			const writer = new XlsxWriter({ sheetName: 'Sheet', headerRow: true, decimalAmounts: false, holdBytes: 64 * 1024, maxRows });
			const out = new Utf8Builder();
			await writer.page(records, out, listSize);
			await writer.finish(out);
			const file = Buffer.from(out.take());
			const [sheet] = await readXlsx(file);
			expect(sheet.rows.slice(1).map((row) => row[0])).toEqual(records.map((record) => record.id).slice(0, maxRows === undefined ? undefined : maxRows - 1));
			return entriesOf(file).filter((entry) => entry.flags & 8).map((entry) => entry.name);
		};
		// About 60 bytes of XML a row: 200,000 rows foresee 12 MB, past 640 KiB.
		expect(await write(200_000)).toEqual(['xl/worksheets/sheet1.xml']);
		expect(await write(200)).toEqual([]);
		expect(await write(undefined)).toEqual([]);
		// A sheet holds at most maxRows: a list of 200,000 in sheets of 100 rows is no large sheet.
		expect(await write(200_000, 100)).toEqual([]);
	});
});

describe('the sheet\'s buffers', () => {
	it('a slice handed to the compressor is not written again until the next one was handed over (a page ending on a slice\'s end)', async () => {
		// What each write was handed, copied, checked when the next write or the end starts.
		let last: { live: Uint8Array; copy: Buffer } | undefined;
		const changed: string[] = [];
		const check = (when: string) => {
			if (last && !Buffer.from(last.live).equals(last.copy)) changed.push(when);
		};
		const write = Deflater.prototype.write;
		const spyWrite = jest.spyOn(Deflater.prototype, 'write').mockImplementation(async function (this: Deflater, bytes: Uint8Array) {
			check('a write');
			last = { live: bytes, copy: Buffer.from(bytes) };
			return await write.call(this, bytes);
		});
		const end = Deflater.prototype.end;
		const spyEnd = jest.spyOn(Deflater.prototype, 'end').mockImplementation(async function (this: Deflater) {
			check('the end');
			last = undefined;
			return await end.call(this);
		});
		try {
			const writer = new XlsxWriter({ sheetName: 'Sheet', headerRow: false, decimalAmounts: false });
			// Each page's second row takes the sheet's XML past a slice (64 KiB): the page ends with nothing left to hand over.
			const pages = Array.from({ length: 4 }, (_, n) => [
				{ id: `p${n}`, text: 'x'.repeat(32_767) },
				{ id: `q${n}`, text: 'y'.repeat(32_767) },
			]);
			const file = await xlsxOfPages(writer, pages);
			expect(changed).toEqual([]);
			const xml = unzipEntries(file).get('xl/worksheets/sheet1.xml')!.toString();
			expect([...xml.matchAll(/<t>([pq]\d)<\/t>/g)].map((m) => m[1])).toEqual(['p0', 'q0', 'p1', 'q1', 'p2', 'q2', 'p3', 'q3']);
		} finally {
			spyWrite.mockRestore();
			spyEnd.mockRestore();
		}
	});
});
