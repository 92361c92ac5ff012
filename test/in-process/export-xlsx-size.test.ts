/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Issue 52, cases 6 and 7, through n8n-core against the simulator in n8n's filesystem binary mode:
 * - the workbook is compressed (each entry DEFLATE while it streams): 100,000 movements give a file
 *   within 1.3 times LibreOffice Calc's own save of the same workbook, read back by exceljs whole and
 *   streaming and by LibreOffice (its save holds what it read: every id and amount in order);
 * - every cell carries its reference (`r="B7"`), so exceljs's streaming reader (WorkbookReader),
 *   which needs it, reads every workbook: rows with gaps, an empty first cell, hostile texts.
 * (readXlsx of test/support/helpers/xlsx.ts reads every workbook of the tests with both readers.)
 */
import { readFileSync } from 'node:fs';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { binaryPath, readBinary, useBinaryMode } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { parseCsv } from '../support/helpers/csv';
import { recordFigures } from '../support/helpers/figures';
import { unzipEntries } from '../support/helpers/ooxml';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { readXlsx, readXlsxStreaming } from '../support/helpers/xlsx';
import { calcResavedXlsx, sofficeForTests } from '../support/libreoffice';
import { addMovements } from '../support/simulator/routes/financials';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 4 });
const soffice = sofficeForTests();
const MOVEMENTS = 100_000;

beforeAll(async () => {
	await useBinaryMode('filesystem');
});

afterAll(async () => {
	await useBinaryMode('default');
});

async function run(parameters: INodeParameters) {
	const { items, error } = await runNode({ parameters: { returnAll: true, ...parameters } }, { credentials: dataCredentials(sim()), timezone: 'America/Sao_Paulo' });
	expect(error).toBeUndefined();
	return { json: items[0].json, binary: items[0].binary!.data };
}

describe('an Excel file the size Excel writes (case 6)', () => {
	beforeAll(() => {
		const { businessId } = sim().credentials;
		const existing = sim().state.col('movements').filter((m) => m._businessId === businessId).length;
		addMovements(sim(), businessId, MOVEMENTS - existing);
	});

	it(`${MOVEMENTS.toLocaleString('en-US')} movements: every entry compressed, within 1.3x LibreOffice's own save; exceljs (whole and streaming) and LibreOffice read every row`, async () => {
		const movements = { resource: 'movement', operation: 'getMany', filters: {} };
		const ms: IDataObject = {};
		let at = performance.now();
		const lap = (name: string) => {
			ms[name] = Math.round(performance.now() - at);
			at = performance.now();
		};
		const xlsx = await run({ ...movements, output: 'xlsxFile' });
		lap('xlsxExport');
		const csv = await run({ ...movements, output: 'csvFile' });
		lap('csvExport');
		expect(xlsx.json).toMatchObject({ records: MOVEMENTS, reconciled: true });
		const file = await readBinary(xlsx.binary);
		const [header, ...rows] = parseCsv((await readBinary(csv.binary)).toString('utf8'));
		expect(rows).toHaveLength(MOVEMENTS);
		const column = (name: string) => header.indexOf(name);
		const expected = rows.map((row) => [row[column('id')], row[column('type')], Number(row[column('valueInCents')])]);
		const pick = (sheetRows: unknown[][], names: unknown[]) => sheetRows.map((row) => [row[names.indexOf('id')], row[names.indexOf('type')], row[names.indexOf('valueInCents')]]);

		// Every entry is DEFLATE and smaller than its XML (the sheet: about a fifth). What Excel would
		// repair is checked on compressed workbooks of hostile records (export-trust.test.ts).
		const sheetXml = unzipEntries(file).get('xl/worksheets/sheet1.xml')!;
		expect(file.length).toBeLessThan(sheetXml.length / 4);

		// exceljs: the whole-file reader, and the streaming reader (readXlsx compares the two).
		lap('checks');
		const [sheet] = await readXlsx(file);
		lap('exceljs');
		expect(sheet.rows[0]).toEqual(header);
		expect(pick(sheet.rows.slice(1), sheet.rows[0])).toEqual(expected);

		const figures: IDataObject = { movements: MOVEMENTS, xlsxBytes: file.length, sheetXmlBytes: sheetXml.length, csvBytes: csv.binary.bytes ?? null };
		if (soffice.path) {
			// LibreOffice opens the file and saves it as its own workbook: what it read is in that file.
			const resaved = await calcResavedXlsx(soffice.path, binaryPath(xlsx.binary));
			lap('libreOffice');
			figures.libreOfficeBytes = resaved.length;
			figures.ratio = Math.round((file.length / resaved.length) * 100) / 100;
			expect(file.length).toBeLessThanOrEqual(1.3 * resaved.length);
			const [calc] = await readXlsxStreaming(resaved);
			expect(pick(calc.rows.slice(1), calc.rows[0])).toEqual(expected);
		}
		recordFigures('issue 52: the Excel file of 100,000 movements', { ...figures, ms });
	}, 15 * 60_000);

	if (!soffice.path) it.skip(`LibreOffice's save of the workbook, its size and rows (skipped: ${soffice.reason ?? ''})`, () => undefined);
});

describe('every cell carries its reference: a streaming reader reads every workbook (case 7)', () => {
	/** Customers created in 2033 whose fields are missing here and there: rows with gaps, an empty first cell. */
	function seed(): JsonObject[] {
		const businessId = sim().credentials.businessId;
		const customers = [0, 1, 2, 3, 4, 5].map((n) => ({
			...(n === 2 ? {} : { id: `gap-${n}` }),
			...(n % 2 === 0 ? { name: `=Cliente ${n} & <b>` } : {}),
			email: n === 3 ? null : `g${n}@mail.example`,
			balanceInCents: n === 4 ? null : -150 * n,
			document: n === 1 ? { type: 'CPF' } : { type: 'CPF', number: `${n}` },
			vip: n % 3 === 0,
			createdAt: new Date(Date.UTC(2033, 0, 20 - n, 12)).toISOString(),
			_businessId: businessId,
		}));
		sim().state.col('customers').push(...(customers as unknown as JsonObject[]));
		return customers as unknown as JsonObject[];
	}

	it('rows with gaps and an empty first cell: every <c> has its r, and exceljs\'s streaming reader finds each value in its column', async () => {
		seed();
		const { binary } = await run({ resource: 'customer', operation: 'getMany', output: 'xlsxFile', filters: { createdAfter: '2033-01-01T00:00:00Z' }, pagination: { pageSize: 2 } });
		const file = readFileSync(binaryPath(binary));
		const xml = unzipEntries(file).get('xl/worksheets/sheet1.xml')!.toString('utf8');
		const cells = [...xml.matchAll(/<c\b[^>]*>/g)].map((m) => m[0]);
		expect(cells.length).toBeGreaterThan(30);
		expect(cells.filter((c) => !/^<c r="[A-Z]+\d+"/.test(c))).toEqual([]);
		const streamed = await readXlsxStreaming(file);
		const [whole] = await readXlsx(file);
		expect(streamed.map((s) => s.name)).toEqual(['Sheet']);
		const [header, ...rows] = whole.rows;
		expect(rows.map((row) => row[header.indexOf('id')])).toEqual(['gap-0', 'gap-1', undefined, 'gap-3', 'gap-4', 'gap-5']);
		const trimmed = (row: unknown[]) => {
			let end = row.length;
			while (end > 0 && row[end - 1] === undefined) end--;
			return row.slice(0, end);
		};
		expect(streamed[0].rows.map(trimmed)).toEqual(whole.rows.map(trimmed));
	});
});
