/**
 * Files a finance team can trust (issue 38), through n8n-core against the simulator: every
 * workbook opens in Excel whatever the records hold (read back by the strict XML 1.0 and
 * SpreadsheetML checks of test/support/helpers/ooxml.ts, and by exceljs), numbers with the decimal
 * separator of the file's locale, dates as dates in the workflow's time zone, and a summary that
 * says whether the file adds up to the platform's own totals. LibreOffice Calc reads the same
 * files in test/e2e/export-trust.test.ts; the date rule itself is test/in-process/export-dates.test.ts.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { XlsxWriter } from '../../nodes/SalesPayments/files/xlsx';
import { Utf8Builder } from '../../nodes/SalesPayments/files/utf8';
import { readBinary, useBinaryMode } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { parseCsv } from '../support/helpers/csv';
import { excelProblems, strictXmlProblem, zipOf } from '../support/helpers/ooxml';
import { listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { asCsvText, readXlsx } from '../support/helpers/xlsx';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 10 });

beforeAll(async () => {
	await useBinaryMode('filesystem');
});

afterAll(async () => {
	await useBinaryMode('default');
});

beforeEach(() => {
	sim().faults.clear();
	sim().onRequest = undefined;
});

async function run(parameters: INodeParameters, timezone = 'UTC') {
	const { items, error } = await runNode({ parameters: { returnAll: true, ...parameters } }, { credentials: dataCredentials(sim()), timezone });
	const binary = items[0]?.binary?.data;
	return { error, json: items[0]?.json ?? {}, bytes: binary ? await readBinary(binary) : Buffer.alloc(0) };
}

/** Customers created from `after` on (the records a test pushed), as a file. */
async function customers(after: string, output: string, fileOptions: INodeParameters = {}, extra: INodeParameters = {}) {
	return await run({ resource: 'customer', operation: 'getMany', output, filters: { createdAfter: after }, pagination: { pageSize: 3 }, fileOptions, ...extra });
}

function push(collection: string, records: IDataObject[]): void {
	sim().state.col(collection).push(...(records.map((r) => ({ ...r, _businessId: sim().credentials.businessId })) as unknown as JsonObject[]));
}

describe('the strict checks themselves', () => {
	it('refuse what XML 1.0 forbids and accept what it allows', () => {
		const ok = (xml: string) => strictXmlProblem(Buffer.from(xml, 'utf8'));
		expect(ok('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<a x="1" y=\'&amp;\'><b/>t&#x41;\t😀<c:d xmlns:c="u"/></a>')).toBeUndefined();
		expect(ok('<a>\uFFFF</a>')).toMatch(/U\+FFFF/);
		expect(ok('<a x="\uFFFE"/>')).toMatch(/U\+FFFE/);
		expect(ok('<a>\u0001</a>')).toMatch(/U\+0001/);
		expect(strictXmlProblem(Buffer.from([0x3c, 0x61, 0x3e, 0xed, 0xa0, 0x80, 0x3c, 0x2f, 0x61, 0x3e]))).toBe('not valid UTF-8');
		expect(ok('<a>&#1;</a>')).toMatch(/reference to U\+1/);
		expect(ok('<a>&nbsp;</a>')).toMatch(/bare &/);
		expect(ok('<a><b></a></b>')).toMatch(/closes nothing/);
		expect(ok('<a x="1" x="2"/>')).toMatch(/twice/);
		expect(ok('<a r:id="1"/>')).toMatch(/not declared/);
		expect(ok('<a/><b/>')).toMatch(/second root|outside/);
	});

	it('find what Excel repairs: a number that is no finite xsd:double, a cell past XFD, two sheets of one name', () => {
		const book = (sheets: string[], sheetXml: string) =>
			zipOf({
				'xl/workbook.xml': `<workbook>${sheets.map((s) => `<sheet name="${s}"/>`).join('')}</workbook>`,
				'xl/worksheets/sheet1.xml': `<worksheet><sheetData>${sheetXml}</sheetData></worksheet>`,
			});
		expect(excelProblems(book(['A'], '<row r="1"><c r="XFD1"><v>1.5e-7</v></c><c t="b"><v>1</v></c></row>'))).toEqual([
			'xl/worksheets/sheet1.xml: a cell in column 16385 of row 1, past XFD (16,384)',
		]);
		expect(excelProblems(book(['A'], '<row r="1"><c r="A1"><v>Infinity</v></c><c><v>-INF</v></c></row>'))).toEqual([
			'xl/worksheets/sheet1.xml: row 1 column 1: number "Infinity" is no finite xsd:double',
			'xl/worksheets/sheet1.xml: row 1 column 2: number "-INF" is no finite xsd:double',
		]);
		expect(excelProblems(book(['Vendas (2)', 'vendas (2)', 'a/b'], ''))).toEqual(['two sheets named "vendas (2)"', 'sheet name "a/b": a character Excel refuses']);
	});
});

describe('every workbook opens, whatever the content', () => {
	it.each([['\uFFFF'], ['a\uFFFEb'], ['a\uD800b'], ['\uDC00x'], ['😀\uD83D'], ['tab\there']])('Sheet Name %j is refused, naming the option, before any request', async (sheetName) => {
		sim().clearRequests();
		const { error } = await customers('2031-01-01T00:00:00Z', 'xlsxFile', { sheetName });
		expect(error?.message).toMatch(/^Sheet Name must be without /);
		expect(error?.message).toContain(`(got ${JSON.stringify(sheetName)})`);
		expect(sim().requests).toHaveLength(0);
	});

	it('texts with a lone surrogate, U+FFFE or U+FFFF: U+FFFD, named in the summary; control characters read back as typed; a text past 32,767 characters cut and named', async () => {
		push('customers', [
			{ id: 'odd-1', name: 'a\uD800b', note: 'x\uFFFEy\uFFFF', 'key\uDC00': 1, createdAt: '2031-01-03T00:00:00.000Z' },
			{ id: 'odd-2', name: '\uDC00', note: 'nul\u0000 unit\u001f end', createdAt: '2031-01-02T00:00:00.000Z' },
			{ id: 'odd-3', name: 'long', note: 'é'.repeat(40_000), createdAt: '2031-01-01T00:00:00.000Z' },
		]);
		const { error, json, bytes } = await customers('2031-01-01T00:00:00Z', 'xlsxFile');
		expect(error).toBeUndefined();
		expect(excelProblems(bytes)).toEqual([]);
		const [sheet] = await readXlsx(bytes);
		const [header, ...rows] = sheet.rows as [string[], ...unknown[][]];
		const cell = (id: string, name: string) => rows.find((row) => row[0] === id)![header.indexOf(name)];
		expect(header).toContain('key\uFFFD');
		expect([cell('odd-1', 'name'), cell('odd-1', 'note'), cell('odd-2', 'name')]).toEqual(['a\uFFFDb', 'x\uFFFDy\uFFFD', '\uFFFD']);
		expect(cell('odd-2', 'note')).toBe('nul\u0000 unit\u001f end');
		expect(cell('odd-3', 'note')).toBe('é'.repeat(32_767));
		expect(json).toMatchObject({
			textsCut: 1,
			textsCutIn: [{ id: 'odd-3', field: 'note' }],
			textsWithReplacedCharacters: 4,
			textsWithReplacedCharactersIn: [
				{ id: null, field: 'key\uDC00' },
				{ id: 'odd-1', field: 'name' },
				{ id: 'odd-1', field: 'note' },
				{ id: 'odd-2', field: 'name' },
			],
		});
	});

	it('numbers JSON.parse makes infinite (1e999, -1e999) are written as the CSV writes them, as text; numbers past 2^53 come rounded by JSON.parse, as in items', async () => {
		const body =
			'{"statusCode":200,"data":{"docs":[{"id":"inf","name":"x","balanceInCents":1e999,"score":-1e999,"big":12345678901234567,"createdAt":"2031-01-01T00:00:00.000Z"}],' +
			'"totalDocs":1,"totalPages":1,"currentPage":1,"limit":1000,"hasNext":false}}';
		sim().addFault({ kind: 'malformed', status: 200, body, path: '/customers/list' });
		const xlsx = await customers('2031-01-01T00:00:00Z', 'xlsxFile');
		sim().addFault({ kind: 'malformed', status: 200, body, path: '/customers/list' });
		const csv = await customers('2031-01-01T00:00:00Z', 'csvFile');
		expect([xlsx.error, csv.error]).toEqual([undefined, undefined]);
		expect(excelProblems(xlsx.bytes)).toEqual([]);
		const [[header, row]] = (await readXlsx(xlsx.bytes)).map((s) => s.rows);
		const at = (name: string) => (header as string[]).indexOf(name);
		expect([row[at('balanceInCents')], row[at('score')], row[at('big')]]).toEqual(['Infinity', '-Infinity', 12345678901234568]);
		const [csvHeader, csvRow] = parseCsv(csv.bytes.toString('utf8'));
		// The CSV's formula rule puts a ' before the - of a text that is not a plain number.
		expect([csvRow[csvHeader.indexOf('balanceInCents')], csvRow[csvHeader.indexOf('score')], csvRow[csvHeader.indexOf('big')]]).toEqual(['Infinity', "'-Infinity", '12345678901234568']);
	});

	it('a sheet name that already ends in " (2)", and one cut inside a surrogate pair: every sheet name unique, at most 31 characters, whole characters', async () => {
		const sheetsOf = async (sheetName: string) => {
			const writer = new XlsxWriter({ sheetName, headerRow: true, decimalAmounts: false, maxRows: 3 });
			const out = new Utf8Builder();
			await writer.page(Array.from({ length: 7 }, (_, n) => ({ id: `r${n}` })), out);
			await writer.finish(out);
			const file = out.take();
			expect(excelProblems(file)).toEqual([]);
			return (await readXlsx(file)).map((s) => s.name);
		};
		const june = 'Vendas de junho consolidado (2)';
		expect(june).toHaveLength(31);
		expect(await sheetsOf(june)).toEqual([june, 'Vendas de junho consolidado (3)', 'Vendas de junho consolidado (4)', 'Vendas de junho consolidado (5)']);
		const emoji = `${'x'.repeat(26)}😀yy`;
		expect(await sheetsOf(emoji)).toEqual([emoji, `${'x'.repeat(26)} (2)`, `${'x'.repeat(26)} (3)`, `${'x'.repeat(26)} (4)`]);
	});

	it('a record of 16,401 fields: columns up to XFD, the fields past it in _extraFields, counted and named; the CSV keeps every column', async () => {
		const fields = Object.fromEntries(Array.from({ length: 16_401 }, (_, k) => [`f${String(k).padStart(5, '0')}`, k]));
		push('customers', [{ id: 'wide', ...fields, createdAt: '2032-01-01T00:00:00.000Z' }]);
		const { error, json, bytes } = await customers('2032-01-01T00:00:00Z', 'xlsxFile');
		expect(error).toBeUndefined();
		expect(excelProblems(bytes)).toEqual([]);
		const [sheet] = await readXlsx(bytes);
		const [header, row] = sheet.rows as [string[], unknown[]];
		expect(header).toHaveLength(16_384);
		expect(header.at(-1)).toBe('_extraFields');
		const columns = json.columns as string[];
		expect(columns).toHaveLength(16_383);
		const past = [...Object.keys(fields), 'createdAt'].filter((name) => !columns.includes(name));
		expect(json.fieldsPastLastColumn).toBe(past.length);
		expect(json.extraFields).toEqual(past);
		expect(json.recordsWithExtraFields).toBe(1);
		const extra = JSON.parse(String(row.at(-1))) as IDataObject;
		expect(Object.keys(extra)).toEqual(past);
		expect(extra.f16400).toBe(16_400);
		const csv = await customers('2032-01-01T00:00:00Z', 'csvFile');
		expect(parseCsv(csv.bytes.toString('utf8'))[0]).toHaveLength(columns.length + past.length + 1);
	});
});

describe('Decimal Separator (CSV)', () => {
	async function movementsCsv(fileOptions: INodeParameters) {
		const { error, bytes, json } = await run({ resource: 'movement', operation: 'getMany', output: 'csvFile', decimalAmounts: true, fileOptions });
		expect(error).toBeUndefined();
		const [header, ...rows] = parseCsv(bytes.toString('utf8'), (fileOptions.delimiter as string) ?? ',');
		return { header, rows, json, text: bytes.toString('utf8') };
	}

	it('with Delimiter ; the decimal amounts have a decimal comma; the cents, ids and texts are as they were', async () => {
		const { header, rows } = await movementsCsv({ delimiter: ';' });
		const all = listed(sim(), 'movements');
		expect(rows).toHaveLength(all.length);
		const [value, cents, description] = ['value', 'valueInCents', 'description'].map((name) => header.indexOf(name));
		rows.forEach((row, n) => {
			const expected = String(Number(all[n].valueInCents) / 100).replace('.', ',');
			if (row[value] !== expected || row[cents] !== String(all[n].valueInCents) || row[description] !== all[n].description) {
				expect({ n, row: [row[value], row[cents], row[description]] }).toEqual({ n, row: [expected, String(all[n].valueInCents), all[n].description] });
			}
		});
		expect(rows.some((row) => row[value].includes(','))).toBe(true);
	});

	it('Point keeps the point with ; (workflows that want the old file); Comma with a comma delimiter quotes the number; the default with , is a point', async () => {
		const point = await movementsCsv({ delimiter: ';', decimalSeparator: 'point' });
		const comma = await movementsCsv({ delimiter: ',', decimalSeparator: 'comma' });
		const plain = await movementsCsv({});
		const value = (r: { header: string[]; rows: string[][] }) => r.rows.map((row) => row[r.header.indexOf('value')]);
		expect(value(point)).toEqual(value(plain));
		expect(value(plain).some((v) => v.includes('.'))).toBe(true);
		expect(value(comma)).toEqual(value(plain).map((v) => v.replace('.', ',')));
		expect(comma.text).toMatch(/,"-?\d+,\d+",/);
	});

	it('texts that look like numbers stay as they are; numbers of any field get the comma', async () => {
		push('customers', [{ id: 'looks', name: '12.50', note: '1.234,56', score: 0.25, balanceInCents: -150, createdAt: '2033-01-01T00:00:00.000Z' }]);
		const { bytes } = await customers('2033-01-01T00:00:00Z', 'csvFile', { delimiter: ';' });
		const [header, row] = parseCsv(bytes.toString('utf8'), ';');
		expect(['name', 'note', 'score', 'balanceInCents'].map((name) => row[header.indexOf(name)])).toEqual(['12.50', '1.234,56', '0,25', '-150']);
	});
});

describe('Dates: date-time cells in the workflow\'s time zone', () => {
	const JUNE = { initialDate: '2025-06-01T00:00:00', endDate: '2025-06-30T23:59:59' };
	beforeAll(() => {
		// 23:30 on June 30 in São Paulo is 02:30 on July 1 in UTC; 00:30 on July 1 there is July.
		push('movements', [
			{ id: 'sp-june-30', type: 'credit', valueInCents: 1250, subject: 'Sale', description: 'Late sale', createdAt: '2025-07-01T02:30:00.000Z' },
			{ id: 'sp-july-1', type: 'credit', valueInCents: 990, subject: 'Sale', description: 'Early sale', createdAt: '2025-07-01T03:30:00.000Z' },
		]);
	});

	async function june(output: string, fileOptions: INodeParameters = {}) {
		const result = await run({ resource: 'movement', operation: 'getMany', output, filters: JUNE, fileOptions }, 'America/Sao_Paulo');
		expect(result.error).toBeUndefined();
		return result;
	}

	it('a movement at 2025-06-30T23:30:00-03:00 lands in the June rows as 2025-06-30 23:30:00, a date-time cell (yyyy-mm-dd hh:mm:ss)', async () => {
		const { bytes } = await june('xlsxFile');
		expect(excelProblems(bytes)).toEqual([]);
		const [sheet] = await readXlsx(bytes);
		const [header, ...rows] = sheet.rows as [string[], ...unknown[][]];
		const ids = rows.map((row) => row[header.indexOf('id')]);
		expect(ids).toContain('sp-june-30');
		expect(ids).not.toContain('sp-july-1');
		const createdAt = header.indexOf('createdAt');
		const row = rows.findIndex((r) => r[header.indexOf('id')] === 'sp-june-30');
		expect(rows[row][createdAt]).toBeInstanceOf(Date);
		expect(asCsvText(rows[row][createdAt])).toBe('2025-06-30 23:30:00');
		expect(sheet.numFmts[row + 1][createdAt]).toBe('yyyy-mm-dd hh:mm:ss');
		// Every row of the file is a June row in São Paulo.
		for (const r of rows) expect(asCsvText(r[createdAt]).slice(0, 7)).toBe('2025-06');
	});

	it("a workflow's time zone this runtime does not know: the Excel file fails before any request, saying so; ISO text needs no zone", async () => {
		sim().clearRequests();
		const bad = await run({ resource: 'movement', operation: 'getMany', output: 'xlsxFile', filters: JUNE }, 'Mars/Olympus');
		expect(bad.error?.message).toBe('The workflow\'s time zone "Mars/Olympus" is not one this n8n knows, so dates cannot be written in it');
		expect(sim().requests).toHaveLength(0);
		const iso = await run({ resource: 'movement', operation: 'getMany', output: 'xlsxFile', filters: { initialDate: '2025-06-01T00:00:00Z' }, fileOptions: { excelDates: 'isoText' } }, 'Mars/Olympus');
		expect(iso.error).toBeUndefined();
	});

	it('CSV: ISO text by default, as the platform wrote it; Date and Time in the Workflow\'s Time Zone gives 2025-06-30 23:30:00; the .xlsx with ISO Text keeps texts', async () => {
		const line = (bytes: Buffer) => {
			const [header, ...rows] = parseCsv(bytes.toString('utf8'));
			return rows.find((r) => r[header.indexOf('id')] === 'sp-june-30')![header.indexOf('createdAt')];
		};
		expect(line((await june('csvFile')).bytes)).toBe('2025-07-01T02:30:00.000Z');
		expect(line((await june('csvFile', { csvDates: 'workflowZoneText' })).bytes)).toBe('2025-06-30 23:30:00');
		const [sheet] = await readXlsx((await june('xlsxFile', { excelDates: 'isoText' })).bytes);
		const header = sheet.rows[0] as string[];
		expect(sheet.rows.find((r) => r[header.indexOf('id')] === 'sp-june-30')![header.indexOf('createdAt')]).toBe('2025-07-01T02:30:00.000Z');
	});
});
