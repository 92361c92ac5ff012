/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Output › Excel File (.xlsx) (issue 32), through n8n-core in both binary data modes, read back
 * by exceljs (test/support/helpers/xlsx.ts): the same rows and columns as the CSV of the same
 * list, each cell typed (numbers as numbers, decimal amounts with two decimals, booleans as
 * booleans, texts as texts, even those a spreadsheet would run as a formula: no formula
 * anywhere), a frozen header row, Sheet Name, File Name and Header Row. The ZIP is checked by
 * its own reader too (`unzip -t`, when present). The LibreOffice round trip is
 * test/e2e/export-xlsx.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { BinaryMode } from '../support/harness/binary';
import { readBinary, useBinaryMode } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { parseCsv } from '../support/helpers/csv';
import { exportCustomersOf2030 } from '../support/helpers/export';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { HOSTILE_NAMES, seedHostileCustomers } from '../support/helpers/hostile';
import { asCsvText, readXlsx } from '../support/helpers/xlsx';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 10 });

let crafted: JsonObject[] = [];

beforeAll(() => {
	crafted = seedHostileCustomers(sim().credentials.businessId, (records) => sim().state.col('customers').push(...records));
});

afterAll(async () => {
	await useBinaryMode('default');
});

async function exportCustomers(extra: INodeParameters) {
	const { items, error, file, bytes } = await exportCustomersOf2030(sim(), extra);
	expect(error).toBeUndefined();
	expect(items).toHaveLength(1);
	return { json: items[0].json, file: file!, bytes };
}

describe.each<BinaryMode>(['filesystem', 'default'])('Output › Excel File, %s binary data mode', (mode) => {
	beforeAll(async () => {
		await useBinaryMode(mode);
	});

	it('holds the CSV\'s rows and columns, each cell typed; texts stay texts (no formula, no leading \'); a frozen header row', async () => {
		const xlsx = await exportCustomers({ output: 'xlsxFile' });
		// Dates: date-time cells in the workflow's zone (UTC here), as the CSV's date and time texts.
		const csv = await exportCustomers({ output: 'csvFile', fileOptions: { neutralizeFormulas: false, csvDates: 'workflowZoneText' } });
		expect(xlsx.file).toMatchObject({ fileName: 'customers.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', fileExtension: 'xlsx' });
		const sheets = await readXlsx(xlsx.bytes);
		expect(sheets.map((s) => [s.name, s.frozenRows, s.formulas])).toEqual([['Sheet', 1, []]]);
		// The ZIP is stored: the sheet's XML is in the file as it is; no formula element in it.
		expect(xlsx.bytes.includes('<f>') || xlsx.bytes.includes('<f ')).toBe(false);
		const [header, ...rows] = sheets[0].rows;
		const csvRows = parseCsv(csv.bytes.toString('utf8'));
		expect(header).toEqual(csvRows[0]);
		expect(rows).toHaveLength(HOSTILE_NAMES.length);
		expect(rows.map((row) => row.map(asCsvText))).toEqual(csvRows.slice(1));
		const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);
		expect(column('name')).toEqual(HOSTILE_NAMES);
		expect(column('balanceInCents')).toEqual(crafted.map((c) => c.balanceInCents));
		expect(column('score')).toEqual(crafted.map((c) => c.score));
		expect(column('vip')).toEqual(crafted.map((c) => c.vip));
		expect(column('tags')).toEqual(crafted.map(() => JSON.stringify(['vip', 'a,b;c'])));
		expect(column('note')).toEqual(crafted.map(() => undefined));
		// Late fields, named like built-in object members, kept exactly (`__proto__`: export-units.test.ts,
		// as the simulator keeps no field starting with _ in its answers).
		const late = JSON.parse(String(column('_extraFields').at(-1))) as IDataObject;
		expect(Object.keys(late)).toEqual(['constructor', 'valueOf', 'toString.x', '=late']);
		expect(Object.getOwnPropertyDescriptor(late, 'constructor')?.value).toBe('c');
		expect(xlsx.json).toMatchObject({
			fileName: 'customers.xlsx',
			records: HOSTILE_NAMES.length,
			pages: 4,
			columns: header.slice(0, -1),
			extraFields: ['constructor', 'valueOf', 'toString.x', '=late'],
			recordsWithExtraFields: 1,
			sheets: ['Sheet'],
		});
	});

	it('Sheet Name, File Name and Header Row off', async () => {
		const { file, bytes } = await exportCustomers({ output: 'xlsxFile', fileOptions: { sheetName: 'Clientes 2030', fileName: 'clientes.xlsx', headerRow: false } });
		expect(file).toMatchObject({ fileName: 'clientes.xlsx' });
		const [sheet] = await readXlsx(bytes);
		expect([sheet.name, sheet.frozenRows, sheet.rows.length]).toEqual(['Clientes 2030', 0, HOSTILE_NAMES.length]);
		expect(sheet.rows[0][0]).toBe('crafted-0');
	});
});

describe('Output › Excel File of movements', () => {
	beforeAll(async () => {
		await useBinaryMode('filesystem');
	});

	it('Add Decimal Amounts: the decimal amount is a number shown with two decimals, the cents a whole number', async () => {
		const { items, error } = await runNode(
			{
				parameters: {
					resource: 'movement',
					operation: 'getMany',
					returnAll: true,
					decimalAmounts: true,
					output: 'xlsxFile',
					pagination: { pageSize: 4 },
				},
			},
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		const [sheet] = await readXlsx(await readBinary(items[0].binary!.data));
		const [header, ...rows] = sheet.rows;
		const cents = header.indexOf('valueInCents');
		const value = header.indexOf('value');
		expect(cents).toBeGreaterThanOrEqual(0);
		expect(rows.length).toBe(items[0].json.records);
		expect(rows.length).toBeGreaterThan(4);
		for (const [n, row] of rows.entries()) {
			expect(typeof row[cents]).toBe('number');
			expect(row[value]).toBe(Number(((row[cents] as number) / 100).toFixed(2)));
			expect(sheet.numFmts[n + 1][value]).toBe('0.00');
			expect(sheet.numFmts[n + 1][cents]).toBeUndefined();
		}
	});
});

describe('Output › Excel File: bad options and ZIP readers', () => {
	it.each([
		[{ sheetName: 'a/b' }, 'Sheet Name must be without [ ] : * ? / or \\ (got "a/b")'],
		[{ sheetName: 'x'.repeat(32) }, `Sheet Name must be at most 31 characters and not empty (got "${'x'.repeat(32)}")`],
		[{ sheetName: '' }, 'Sheet Name must be at most 31 characters and not empty (got "")'],
	])('%j: %s, before any request', async (fileOptions, message) => {
		sim().clearRequests();
		const { error } = await runNode(
			{ parameters: { resource: 'customer', operation: 'getMany', returnAll: true, output: 'xlsxFile', fileOptions } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(error?.message).toBe(message);
		expect(sim().requests).toHaveLength(0);
	});

	const unzip = ['/usr/bin/unzip', '/bin/unzip'].find((p) => existsSync(p));
	(unzip ? it : it.skip)('Info-ZIP\'s unzip -t finds every entry and its CRC right (skipped without unzip)', async () => {
		await useBinaryMode('filesystem');
		const { bytes } = await exportCustomers({ output: 'xlsxFile' });
		const dir = mkdtempSync(path.join(os.tmpdir(), 'sp-xlsx-'));
		try {
			writeFileSync(path.join(dir, 'c.xlsx'), bytes);
			const out = execFileSync(unzip!, ['-t', path.join(dir, 'c.xlsx')]).toString();
			expect(out).toContain('No errors detected');
			for (const part of ['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/worksheets/sheet1.xml']) {
				expect(out).toContain(`testing: ${part}`);
			}
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
