/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Issue 52, cases 1-5, through n8n-core against the simulator (n8n's filesystem binary mode): every
 * column and every figure right whatever the records hold. The CSVs are also opened by LibreOffice
 * Calc headless as a `;` locale opens them (pt-BR: what Excel in Brazil does with a double click;
 * test/support/libreoffice.ts), when it is installed.
 * 1. a chosen path inside another chosen path gets its own values (`buyer.address`, `buyer.address.city`);
 *    fields that differ only in case or surrounding spaces are refused, naming both;
 * 2. a record's own `__proto__` key is data: kept in every output, never an amount (Add Decimal Amounts);
 * 3. a figure with an exponent past ±400 or more than 40 digits is no number: no stall, reasons of at
 *    most 300 characters naming the figure and the record;
 * 4. a formula after a line break inside a quoted cell is neutralized (a `;` reader ends the row there);
 * 5. a file name gets one extension, the output's own; format characters (a right-to-left override) are refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { readBinary, useBinaryMode } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { parseCsv } from '../support/helpers/csv';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { readXlsx } from '../support/helpers/xlsx';
import type { CalcValue } from '../support/libreoffice';
import { calcSheetsAsFods, sofficeForTests } from '../support/libreoffice';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 4 });
const soffice = sofficeForTests();
/** pt-BR's CSV import: `;` (59), `"` (34), UTF-8 (76), from line 1, standard cell formats, language 1046 (pt-BR). */
const PT_BR_CSV = 'CSV:59,34,76,1,,1046';
const calc = soffice.path ? it : it.skip;
const calcNote = soffice.path ? '' : ` (LibreOffice skipped: ${soffice.reason})`;

beforeAll(async () => {
	await useBinaryMode('filesystem');
});

afterAll(async () => {
	await useBinaryMode('default');
});

beforeEach(() => {
	sim().faults.clear();
});

async function run(parameters: INodeParameters) {
	const { items, error } = await runNode({ parameters: { operation: 'getMany', returnAll: true, ...parameters } }, { credentials: dataCredentials(sim()) });
	const binary = items[0]?.binary?.data;
	const json = (items[0]?.json ?? {}) as IDataObject & { reconciliation: IDataObject & { reasons: string[] } };
	return { error, json, binary, bytes: binary ? await readBinary(binary) : Buffer.alloc(0) };
}

/** Customers created after `after` (the ones a test pushed), three a page. */
async function customers(after: string, output: string, fileOptions: INodeParameters = {}) {
	return await run({ resource: 'customer', output, filters: { createdAfter: after }, pagination: { pageSize: 3 }, fileOptions });
}

function push(records: IDataObject[]): void {
	sim().state.col('customers').push(...(records.map((r) => ({ ...r, _businessId: sim().credentials.businessId })) as unknown as JsonObject[]));
}

/** The movement list answers exactly `text` (the platform's JSON as it is: own `__proto__` keys, figures as texts). */
function answerMovements(text: string): void {
	sim().addFault({ kind: 'malformed', status: 200, body: `{"statusCode":200,"data":${text}}`, path: '/movement/filter' });
}

function columns(...spec: Array<[string, string?]>): INodeParameters {
	return { column: spec.map(([field, header = '']) => ({ field: { __rl: true, mode: 'name', value: field }, header })) };
}

/** The CSV as LibreOffice Calc opens it in pt-BR (split on `;`): its cells, with the formulas Calc would run. */
async function calcOpens(bytes: Buffer): Promise<CalcValue[][]> {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'sp-odd-'));
	try {
		writeFileSync(path.join(dir, 'export.csv'), bytes);
		return [...(await calcSheetsAsFods(soffice.path!, path.join(dir, 'export.csv'), PT_BR_CSV)).values()][0];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const formulas = (rows: CalcValue[][]) => rows.flatMap((row) => row.filter((cell) => cell.formula !== undefined).map((cell) => cell.formula));

describe('case 1: a chosen path inside another chosen path', () => {
	const AFTER = '2034-01-01T00:00:00Z';
	const records = [0, 1, 2, 3].map((n) => ({
		id: `nest-${n}`,
		buyer: { name: `Comprador ${n}`, address: { city: n % 2 ? 'Rio' : 'Recife', zip: `5000${n}` } },
		obj: { x: n, y: { z: 'deep' } },
		createdAt: new Date(Date.UTC(2034, 0, 20 - n)).toISOString(),
	}));
	const chosen = columns(['id'], ['buyer.address', 'Endereço'], ['buyer.address.city', 'Cidade'], ['obj'], ['obj.x'], ['obj.y.z']);
	const expected = records.map((r) => [r.id, JSON.stringify(r.buyer.address), r.buyer.address.city, JSON.stringify(r.obj), r.obj.x, 'deep']);

	beforeAll(() => push(records));

	it(`CSV (;) and Excel: the parent's JSON and each inner path's own values; nothing named not found${calcNote}`, async () => {
		const csv = await customers(AFTER, 'csvFile', { delimiter: ';', columns: chosen });
		expect(csv.error).toBeUndefined();
		expect(csv.json).toMatchObject({ columns: ['id', 'buyer.address', 'buyer.address.city', 'obj', 'obj.x', 'obj.y.z'], fieldsNotFound: [] });
		const [header, ...rows] = parseCsv(csv.bytes.toString('utf8'), ';');
		expect(header).toEqual(['id', 'Endereço', 'Cidade', 'obj', 'obj.x', 'obj.y.z']);
		expect(rows).toEqual(expected.map((row) => row.map(String)));
		const xlsx = await customers(AFTER, 'xlsxFile', { columns: chosen });
		expect(xlsx.json).toMatchObject({ fieldsNotFound: [] });
		const [sheet] = await readXlsx(xlsx.bytes);
		expect(sheet.rows.slice(1)).toEqual(expected);
		if (soffice.path) {
			const cells = await calcOpens(csv.bytes);
			expect(cells.slice(1).map((row) => [row[2].value, row[4].type, row[4].value])).toEqual(records.map((r) => [r.buyer.address.city, 'float', String(r.obj.x)]));
		}
	});

	it.each([
		[columns(['id'], [' id']), 'Columns › Fields "id" and " id" differ only in case or surrounding spaces: choose the field once, spelled as the records spell it'],
		[columns(['ID'], ['email'], ['id']), 'Columns › Fields "ID" and "id" differ only in case or surrounding spaces: choose the field once, spelled as the records spell it'],
		[columns(['Buyer.Address.City '], ['buyer.address.city']), 'Columns › Fields "Buyer.Address.City " and "buyer.address.city" differ only in case or surrounding spaces: choose the field once, spelled as the records spell it'],
		[columns(['id'], ['id']), 'Columns › Field "id" is chosen twice: give each field one column'],
	])('fields that differ only in case or spaces are refused before any request, naming both (%#)', async (chosen, message) => {
		sim().clearRequests();
		const { error } = await customers(AFTER, 'csvFile', { columns: chosen });
		expect(error?.message).toBe(message);
		expect(sim().requests).toHaveLength(0);
	});

	it('a field with spaces around it is the field: " id " fills the id column', async () => {
		const { json, bytes } = await customers(AFTER, 'csvFile', { columns: columns([' id ', 'ID']) });
		expect(json).toMatchObject({ columns: ['id'], headers: ['ID'], fieldsNotFound: [] });
		expect(parseCsv(bytes.toString('utf8'))).toEqual([['ID'], ...records.map((r) => [r.id])]);
	});
});

describe('case 2: a record\'s own __proto__ key, with Add Decimal Amounts', () => {
	const at = '2035-01-01T00:00:00.000Z';
	// p1 has its own amount and a `__proto__` object; p2 has none of its own, only one inside `__proto__`.
	const ANSWER =
		'{"movements":[' +
		`{"id":"p1","type":"credit","valueInCents":1000,"__proto__":{"valueInCents":500,"x":"proto-x"},"createdAt":"${at}"},` +
		`{"id":"p2","type":"credit","__proto__":{"valueInCents":500},"createdAt":"${at}"},` +
		`{"id":"p3","type":"credit","valueInCents":200,"constructor":"c","prototype":{"valueInCents":7},"createdAt":"${at}"}` +
		'],"count":3,"totalValue":1700}';
	const movements = (output: string, fileOptions: INodeParameters = {}) => {
		answerMovements(ANSWER);
		return run({ resource: 'movement', output, decimalAmounts: true, fileOptions });
	};

	it(`kept as data in the CSV (;), the items, JSON Lines and a chosen __proto__.x column; never counted as an amount${calcNote}`, async () => {
		const csv = await movements('csvFile', { delimiter: ';' });
		expect(csv.error).toBeUndefined();
		const [header, ...rows] = parseCsv(csv.bytes.toString('utf8'), ';');
		expect(header).toEqual(expect.arrayContaining(['__proto__.valueInCents', '__proto__.x', '__proto__.value', 'constructor', 'prototype.valueInCents', 'prototype.value']));
		const cell = (row: string[], name: string) => row[header.indexOf(name)];
		expect(rows.map((row) => [cell(row, 'id'), cell(row, 'valueInCents'), cell(row, 'value'), cell(row, '__proto__.valueInCents'), cell(row, '__proto__.value')])).toEqual([
			['p1', '1000', '10', '500', '5'],
			['p2', '', '', '500', '5'],
			['p3', '200', '2', '', ''],
		]);
		// p2 has no amount of its own: not added up, named; the file does not claim to add up.
		expect(csv.json.reconciled).toBe(false);
		expect(csv.json.reconciliation.reasons).toEqual([
			'1 row whose valueInCents is not a whole number of cents (record p2: missing): the values were not added up, nor compared with totalValue',
		]);
		answerMovements(ANSWER);
		const { items } = await runNode({ parameters: { resource: 'movement', operation: 'getMany', returnAll: true, decimalAmounts: true } }, { credentials: dataCredentials(sim()) });
		expect(items[1].json).toEqual({ id: 'p2', type: 'credit', ['__proto__']: { valueInCents: 500, value: 5 }, createdAt: at });
		const lines = (await movements('jsonLinesFile')).bytes.toString('utf8').trim().split('\n');
		expect(lines[1]).toBe(`{"id":"p2","type":"credit","__proto__":{"valueInCents":500,"value":5},"createdAt":"${at}"}`);
		const chosen = await movements('csvFile', { columns: columns(['id'], ['__proto__.x'], ['valueInCents']) });
		expect(chosen.json).toMatchObject({ fieldsNotFound: [] });
		expect(parseCsv(chosen.bytes.toString('utf8'))).toEqual([['id', '__proto__.x', 'valueInCents'], ['p1', 'proto-x', '1000'], ['p2', '', ''], ['p3', '', '200']]);
		if (soffice.path) {
			const cells = await calcOpens(csv.bytes);
			const names = cells[0].map((c) => c.value);
			expect(cells.slice(1).map((row) => row[names.indexOf('__proto__.x')]?.value ?? '')).toEqual(['proto-x', '', '']);
		}
	});

	it('a __proto__ key beside the totals is kept as data: no count is read through it', async () => {
		// No count of its own; one inside `__proto__`, which an assignment would have made the totals' prototype.
		answerMovements(`{"movements":[{"id":"q1","type":"credit","valueInCents":5,"createdAt":"${at}"}],"totalValue":5,"__proto__":{"count":1,"totalValueInCents":5}}`);
		const { json, error } = await run({ resource: 'movement', output: 'csvFile', decimalAmounts: true });
		expect(error).toBeUndefined();
		expect(json.totals).toEqual({ totalValue: 5, totalValueDecimal: 0.05, ['__proto__']: { count: 1, totalValueInCents: 5 } });
		expect(Object.getPrototypeOf(json.totals)).toBe(Object.prototype);
		expect(json.reconciled).toBe(false);
		expect(json.reconciliation.reasons).toEqual(['the platform gave no count of the list (totalDocs, count or total) to compare the rows with']);
	});
});

describe('case 3: one figure never stalls the process', () => {
	const at = '2036-01-01T00:00:00.000Z';
	const movement = (id: string, valueInCents: string | number) => `{"id":"${id}","type":"credit","valueInCents":${JSON.stringify(valueInCents)},"createdAt":"${at}"}`;

	it('amounts with an exponent past ±400 are no number: not added up (no stall), named with their records', async () => {
		const list = [movement('e1', '0e8000000'), ...Array.from({ length: 6 }, (_, n) => movement(`z${n}`, '0e8000000')), movement('ok', 100)];
		answerMovements(`{"movements":[${list.join(',')}],"count":8,"totalValue":100}`);
		const { json, error } = await run({ resource: 'movement', output: 'csvFile' });
		expect(error).toBeUndefined();
		expect(json.reconciled).toBe(false);
		expect(json.reconciliation.reasons).toEqual([
			'7 rows whose valueInCents is not a whole number of cents (record e1: "0e8000000"; record z0: "0e8000000"; record z1: "0e8000000", ...): the values were not added up, nor compared with totalValue',
		]);
		expect(json.reconciliation).toMatchObject({ valueInCents: null, totalValue: 100 });
	});

	it('a total of 1e-20000000 is no number: a reason of a few words, not of 20 million digits', async () => {
		answerMovements(`{"movements":[${movement('t0', 100)}],"count":1,"totalValue":"1e-20000000"}`);
		const { json, error } = await run({ resource: 'movement', output: 'csvFile' });
		expect(error).toBeUndefined();
		expect(json.reconciliation.reasons).toEqual(['the platform\'s totalValue is "1e-20000000", not a number: the values written were not compared with it']);
		expect(json.reconciliation).toMatchObject({ valueInCents: 100, totalValue: '1e-20000000' });
	});

	it.each([
		['a total past the largest exponent', '"1e-2000000000"', 'the platform\'s totalValue is "1e-2000000000", not a number: the values written were not compared with it'],
		['a total of more than 40 digits', `"${'9'.repeat(41)}"`, `the platform's totalValue is "${'9'.repeat(41)}", not a number: the values written were not compared with it`],
		['a total past the largest double', '"15e399"', 'the platform\'s totalValue is "15e399", not a number: the values written were not compared with it'],
		['a tiny total, exact', '"1e-399"', 'the platform\'s totalValue is 1e-399, not a whole number of cents: the valueInCents written add up to 100'],
		[
			'a huge total: its difference cut, marked',
			'"1e300"',
			`the valueInCents written add up to 100, the platform's totalValue is 1e+300 (-9.${'9'.repeat(19)}…e+299): records changed while the list was read, or rows the totals leave out`,
		],
	])('%s: said, never thrown', async (_what, total, reason) => {
		answerMovements(`{"movements":[${movement('t1', 100)}],"count":1,"totalValue":${total}}`);
		const { json, error } = await run({ resource: 'movement', output: 'csvFile' });
		expect(error).toBeUndefined();
		expect(json.reconciliation.reasons).toEqual([reason]);
	});

	it('a record id and a value of 10,000 characters: the reason stays within 300 characters and names the record', async () => {
		const id = `r${'x'.repeat(9_999)}`;
		answerMovements(`{"movements":[${movement(id, 'y'.repeat(10_000))},${movement('second', 2.5)}],"count":2,"totalValue":2}`);
		const { json } = await run({ resource: 'movement', output: 'csvFile' });
		const [reason] = json.reconciliation.reasons;
		expect(reason.length).toBeLessThanOrEqual(300);
		expect(reason).toMatch(/^2 rows whose valueInCents is not a whole number of cents \(record rxxxx/);
	});
});

describe('case 4: a formula after a line break inside a quoted cell', () => {
	const AFTER = '2037-01-01T00:00:00Z';
	const NAMES = ['Obrigado!\n=1+2;', 'Linha\r\n+SUM(A1:A2)', 'ok\n-12,50', 'Tab\tand\n@cmd'];
	beforeAll(() =>
		push(NAMES.map((name, n) => ({ id: `br-${n}`, name, email: `br${n}@mail.example`, createdAt: new Date(Date.UTC(2037, 0, 20 - n)).toISOString() }))),
	);

	it.each([
		[',', 'comma'],
		['\t', 'tab'],
	])(`a %j (%s) CSV: the part after each line break neutralized; the ; locale runs no formula${calcNote}`, async (delimiter) => {
		const { bytes, error } = await customers(AFTER, 'csvFile', { delimiter });
		expect(error).toBeUndefined();
		const [header, ...rows] = parseCsv(bytes.toString('utf8'), delimiter);
		expect(rows.map((row) => row[header.indexOf('name')])).toEqual(["Obrigado!\n'=1+2;", "Linha\r\n'+SUM(A1:A2)", 'ok\n-12,50', "Tab\tand\n'@cmd"]);
		if (soffice.path) expect(formulas(await calcOpens(bytes))).toEqual([]);
	});

	calc('without the rule, the ; locale runs the =1+2 after the line break (what the test looks for)', async () => {
		const old = Buffer.from('id,name\r\nbr-0,"Obrigado!\n=1+2;"\r\n', 'utf8');
		expect(formulas(await calcOpens(old))).toEqual(['of:=1+2']);
	});
});

describe('case 5: a file named with one extension, the output\'s own', () => {
	const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
	it.each([
		['xlsxFile', 'report.', 'report.xlsx', XLSX, 'File Name report. ends in a dot: an Excel file is written, named report.xlsx'],
		['xlsxFile', '.xlsx', 'customers.xlsx', XLSX, "File Name .xlsx is only an extension: an Excel file is written, named customers.xlsx, the list's name"],
		['csvFile', 'report.xlsx.', 'report.csv', 'text/csv', 'File Name report.xlsx. ends in .xlsx, the extension of an Excel file: a CSV file is written, named report.csv'],
		['xlsxFile', 'report..xlsx', 'report.xlsx', XLSX, 'File Name report..xlsx holds more than a name and one extension: an Excel file is written, named report.xlsx'],
		['xlsxFile', 'report.xlsx.csv', 'report.xlsx', XLSX, 'File Name report.xlsx.csv ends in .xlsx.csv, the extensions of an Excel file and a CSV file: an Excel file is written, named report.xlsx'],
		['jsonLinesFile', '.csv', 'customers.jsonl', 'application/x-ndjson', "File Name .csv is only an extension: a JSON Lines file is written, named customers.jsonl, the list's name"],
	])('%s named %j: %s', async (output, fileName, written, mimeType, note) => {
		const { json, error, binary } = await customers('2030-01-01T00:00:00Z', output, { fileName });
		expect(error).toBeUndefined();
		expect(json).toMatchObject({ fileName: written, fileNameGiven: fileName, fileNameNote: note });
		expect(binary).toMatchObject({ fileName: written, mimeType, fileExtension: written.slice(written.lastIndexOf('.') + 1) });
	});

	it.each([
		['a right-to-left override', 'report\u202Excsl.xlsx', 'U+202E at character 7'],
		['a zero-width space', '\u200Breport', 'U+200B at character 1'],
		['a byte order mark', 're\uFEFFport', 'U+FEFF at character 3'],
		['a left-to-right isolate', 'report\u2066x', 'U+2066 at character 7'],
		['a C1 control character (NEL)', 'report\u0085', 'U+0085 at character 7'],
	])('a name with %s is refused before any request', async (_what, fileName, where) => {
		sim().clearRequests();
		const { error } = await customers('2030-01-01T00:00:00Z', 'csvFile', { fileName });
		expect(error?.message).toBe(
			`File Name must be a file name without control or invisible format characters, which make a name display otherwise than it is (${where}) (got ${JSON.stringify(fileName)})`,
		);
		expect(sim().requests).toHaveLength(0);
	});
});
