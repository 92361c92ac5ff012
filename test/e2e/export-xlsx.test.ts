/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Output › Excel File (issue 32) in a real n8n 2.8.4, filesystem binary data mode: Customer ›
 * Get Many of customers whose fields a buyer could have typed (formulas, NUL, numbers as text,
 * markup, late fields) and Movement › Get Many with Add Decimal Amounts, each to an .xlsx that
 * Read/Write Files from Disk writes to a folder and Extract From File (n8n's own reader) parses.
 * The files on disk are read by exceljs and converted to CSV by LibreOffice Calc headless
 * (installed by the global setup on first use; SP_SKIP_LIBREOFFICE=1 skips that part, saying so):
 * the same rows, the same values, numbers typed as numbers (Calc writes them unquoted, texts
 * quoted), no formula anywhere (a text Calc took for a formula would come out as its result).
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import { HOSTILE_NAMES, seedHostileCustomers } from '../support/helpers/hostile';
import { listed } from '../support/helpers/reads';
import type { SheetRead } from '../support/helpers/xlsx';
import { asCsvText, readXlsx } from '../support/helpers/xlsx';
import type { CalcCell } from '../support/libreoffice';
import { calcSheetsAsCsv, sofficeForTests } from '../support/libreoffice';
import type { ExecutedRun } from '../support/n8n-process';
import { nodeOutput } from '../support/n8n-process';
import type { E2eSession } from './setup';
import { closeSession, dataCredential, INSTALL_TIMEOUT, openSession } from './setup';

let ctx: E2eSession;
/** A folder of this file's in the one n8n's file nodes may write to (set once the session is open). */
let filesDir = '';
let customersFile = '';
let movementsFile = '';
const soffice = sofficeForTests();

function workflow() {
	const node = (id: string, name: string, type: string, typeVersion: number, x: number, y: number, parameters: Record<string, unknown>, extra = {}) => ({
		id,
		name,
		type,
		typeVersion,
		position: [x, y],
		parameters,
		...extra,
	});
	const credentials = { salesPaymentsApi: { id: 'spXlsx', name: 'Sales & Payments spXlsx' } };
	return {
		id: 'wfExportXlsx',
		name: 'e2e export to xlsx',
		active: false,
		nodes: [
			node('x1', 'Start', 'n8n-nodes-base.manualTrigger', 1, 0, 0, {}),
			node(
				'x2',
				'Customers',
				'n8n-nodes-sales-payments.salesPayments',
				1,
				200,
				0,
				{
					resource: 'customer',
					operation: 'getMany',
					output: 'xlsxFile',
					returnAll: true,
					filters: { createdAfter: '2030-01-01T00:00:00Z' },
					pagination: { pageSize: 3 },
					fileOptions: { fileName: 'clientes.xlsx', sheetName: 'Clientes' },
				},
				{ credentials },
			),
			node(
				'x3',
				'Movements',
				'n8n-nodes-sales-payments.salesPayments',
				1,
				200,
				200,
				{ resource: 'movement', operation: 'getMany', output: 'xlsxFile', returnAll: true, decimalAmounts: true, pagination: { pageSize: 50 } },
				{ credentials },
			),
			node('x4', 'Write Customers', 'n8n-nodes-base.readWriteFile', 1, 400, 0, { operation: 'write', fileName: customersFile, dataPropertyName: 'data', options: {} }),
			node('x5', 'Write Movements', 'n8n-nodes-base.readWriteFile', 1, 400, 200, { operation: 'write', fileName: movementsFile, dataPropertyName: 'data', options: {} }),
			node('x6', 'Extract', 'n8n-nodes-base.extractFromFile', 1.1, 400, 400, { operation: 'xlsx', binaryPropertyName: 'data', options: {} }),
		],
		connections: {
			Start: {
				main: [
					[
						{ node: 'Customers', type: 'main', index: 0 },
						{ node: 'Movements', type: 'main', index: 0 },
					],
				],
			},
			Customers: {
				main: [
					[
						{ node: 'Write Customers', type: 'main', index: 0 },
						{ node: 'Extract', type: 'main', index: 0 },
					],
				],
			},
			Movements: { main: [[{ node: 'Write Movements', type: 'main', index: 0 }]] },
		},
		// Dates are date-time cells of the workflow's time zone: UTC here, so that they read as the records' ISO texts.
		settings: { executionOrder: 'v1', timezone: 'UTC' },
	};
}

let run: ExecutedRun | undefined;

beforeAll(async () => {
	ctx = await openSession();
	filesDir = ctx.session.filesDir('sp-e2e-xlsx-');
	customersFile = path.join(filesDir, 'clientes.xlsx');
	movementsFile = path.join(filesDir, 'movements.xlsx');
	seedHostileCustomers(ctx.sim.credentials.businessId, (records) => ctx.sim.state.col('customers').push(...records));
	await ctx.session.addCredentials([dataCredential(ctx.sim, 'spXlsx')]);
	await ctx.session.addWorkflows([workflow()]);
	run = await ctx.session.runOk('wfExportXlsx', 10 * 60_000);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await closeSession(ctx);
	if (filesDir) rmSync(filesDir, { recursive: true, force: true });
}, 60_000);

/** The value a typed cell has in Calc's CSV, and whether Calc quotes it (texts only). */
function asCalc(value: unknown): CalcCell {
	if (value === undefined) return { text: '', quoted: false };
	if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE', quoted: false };
	if (typeof value === 'number') return { text: String(value), quoted: false };
	// A date cell: Calc writes it as its format shows it (yyyy-mm-dd hh:mm:ss), unquoted.
	if (value instanceof Date) return { text: asCsvText(value), quoted: false };
	// Calc keeps a line break of a cell as LF (a CR is dropped).
	return { text: String(value).replace(/\r/g, ''), quoted: true };
}

/** Calc's CSV holds each cell exceljs read: same text, a number unquoted and equal, a text quoted. */
function expectCalcMatches(sheet: SheetRead, calc: CalcCell[][]): void {
	expect(calc).toHaveLength(sheet.rows.length);
	sheet.rows.forEach((row, r) => {
		const width = Math.max(row.length, calc[r].length);
		for (let k = 0; k < width; k++) {
			const want = asCalc(row[k]);
			const got = calc[r][k] ?? { text: '', quoted: false };
			const same = typeof row[k] === 'number' ? !got.quoted && Number(got.text) === row[k] : got.quoted === want.quoted && got.text === want.text;
			if (!same) expect({ r, k, got }).toEqual({ r, k, got: want });
		}
	});
}

describe('Output › Excel File in real n8n 2.8.4, filesystem binary data mode', () => {
	it('writes one item per list, the file on disk, the summary', () => {
		const [customers] = nodeOutput(run, 'Customers');
		expect(customers).toMatchObject({ fileName: 'clientes.xlsx', records: HOSTILE_NAMES.length, sheets: ['Clientes'], recordsWithExtraFields: 1 });
		const [movements] = nodeOutput(run, 'Movements');
		expect(movements).toMatchObject({ fileName: 'movements.xlsx', records: listed(ctx.sim, 'movements').length, sheets: ['Sheet'] });
	});

	it('exceljs reads the customers: every value as the platform gave it, typed; no formula; a frozen header', async () => {
		const [sheet] = await readXlsx(readFileSync(customersFile));
		expect([sheet.name, sheet.frozenRows, sheet.formulas]).toEqual(['Clientes', 1, []]);
		const [header, ...rows] = sheet.rows as [string[], ...unknown[][]];
		const expected = listed(ctx.sim, 'customers').filter((c) => String(c.id).startsWith('crafted-'));
		expect(rows.map((row) => row[header.indexOf('id')])).toEqual(expected.map((c) => c.id));
		for (const name of ['name', 'email', 'balanceInCents', 'score', 'vip']) {
			expect({ name, cells: rows.map((row) => row[header.indexOf(name)]) }).toEqual({ name, cells: expected.map((c) => c[name]) });
		}
		// Dates: date-time cells, the wall time in the workflow's zone (UTC), to the second.
		expect(rows.map((row) => asCsvText(row[header.indexOf('createdAt')]))).toEqual(expected.map((c) => String(c.createdAt).slice(0, 19).replace('T', ' ')));
		expect(rows.map((row) => row[header.indexOf('name')])).toEqual(HOSTILE_NAMES);
	});

	it("n8n's own Extract From File parses the customers' file: the same names", () => {
		const rows = nodeOutput(run, 'Extract');
		expect(rows.map((row) => row.id)).toEqual(HOSTILE_NAMES.map((_, n) => `crafted-${n}`));
		// SheetJS gives NUL and the line break as they are; it decodes _xHHHH_ as exceljs's helper does.
		expect(rows.map((row) => row.name)).toEqual(HOSTILE_NAMES);
	});

	(soffice.path ? describe : describe.skip)(`LibreOffice Calc headless${soffice.path ? '' : ` (skipped: ${soffice.reason})`}`, () => {
		it('converts the customers to CSV: the same rows and values, numbers unquoted, texts quoted and never run as formulas', async () => {
			const [sheet] = await readXlsx(readFileSync(customersFile));
			const calc = await calcSheetsAsCsv(soffice.path!, customersFile);
			expect([...calc.keys()]).toEqual(['Clientes']);
			expectCalcMatches(sheet, calc.get('Clientes')!);
			// The texts that start like formulas, as texts.
			const names = calc.get('Clientes')!.slice(1).map((row) => row[1]);
			expect(names.slice(0, 5)).toEqual(HOSTILE_NAMES.slice(0, 5).map((text) => ({ text, quoted: true })));
		});

		it('converts the movements to CSV: amounts in cents and decimal amounts are numbers, equal to the records', async () => {
			const [sheet] = await readXlsx(readFileSync(movementsFile));
			const calc = (await calcSheetsAsCsv(soffice.path!, movementsFile)).get('Sheet')!;
			expectCalcMatches(sheet, calc);
			const header = calc[0].map((c) => c.text);
			const cents = header.indexOf('valueInCents');
			const value = header.indexOf('value');
			const all = listed(ctx.sim, 'movements');
			expect(calc.slice(1).map((row) => row[0].text)).toEqual(all.map((m) => m.id));
			calc.slice(1).forEach((row, n) => {
				const want = Number(all[n].valueInCents);
				if (row[cents].quoted || Number(row[cents].text) !== want || row[value].quoted || Number(row[value].text) !== Number((want / 100).toFixed(2))) {
					expect({ n, cents: row[cents], value: row[value] }).toEqual({ n, cents: { text: String(want), quoted: false }, value: { text: String(want / 100), quoted: false } });
				}
			});
			// Shown with two decimals in Calc (the cell's number format), whatever the value.
			expect(sheet.numFmts[1][value]).toBe('0.00');
		});
	});
});
