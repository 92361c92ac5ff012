/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Files a finance team can trust (issue 38) in a real n8n 2.8.4 whose workflow's time zone is
 * America/Sao_Paulo, filesystem binary data mode, the files written to disk by Read/Write Files
 * from Disk and opened by LibreOffice Calc headless (installed by the global setup on first use;
 * SP_SKIP_LIBREOFFICE=1 skips that part, saying so), which keeps each cell's type in the flat
 * OpenDocument file it saves:
 * - the June movements to an .xlsx: a movement at 2025-06-30T23:30:00-03:00 is in the June rows as
 *   the date 2025-06-30 23:30:00, and every date cell is a date of June 2025;
 * - the same to a `;` CSV with Add Decimal Amounts, opened with the pt-BR locale: the amounts are
 *   numbers whose sum is the platform's totalValue (a `.` there is a thousands separator);
 * - a workbook of records no spreadsheet should choke on (1e999, lone surrogates, U+FFFE, NUL, a
 *   text past 32,767 characters, 16,401 fields): the strict checks find nothing, Calc opens it.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import { excelProblems } from '../support/helpers/ooxml';
import type { CalcValue } from '../support/libreoffice';
import { calcSheetsAsFods, sofficeForTests } from '../support/libreoffice';
import type { ExecutedRun } from '../support/n8n-process';
import { nodeOutput } from '../support/n8n-process';
import type { E2eSession } from './setup';
import { closeSession, dataCredential, INSTALL_TIMEOUT, openSession } from './setup';

let ctx: E2eSession;
/** A folder of this file's in the one n8n's file nodes may write to (set once the session is open). */
let filesDir = '';
const file = (name: string) => path.join(filesDir, name);
const soffice = sofficeForTests();
const JUNE = { initialDate: '2025-06-01T00:00:00', endDate: '2025-06-30T23:59:59' };
/** pt-BR's CSV import: `;` (59), `"` (34), UTF-8 (76), from line 1, standard cell formats, language 1046 (pt-BR). */
const PT_BR_CSV = 'CSV:59,34,76,1,,1046';

function workflow() {
	const credentials = { salesPaymentsApi: { id: 'spTrust', name: 'Sales & Payments spTrust' } };
	const node = (name: string, y: number, parameters: Record<string, unknown>) => ({
		id: `t-${name}`,
		name,
		type: 'n8n-nodes-sales-payments.salesPayments',
		typeVersion: 1,
		position: [200, y],
		parameters,
		credentials,
	});
	const write = (name: string, y: number, fileName: string) => ({
		id: `t-${name}`,
		name,
		type: 'n8n-nodes-base.readWriteFile',
		typeVersion: 1,
		position: [400, y],
		parameters: { operation: 'write', fileName: file(fileName), dataPropertyName: 'data', options: {} },
	});
	const movements = { resource: 'movement', operation: 'getMany', returnAll: true, decimalAmounts: true, filters: JUNE, pagination: { pageSize: 20 } };
	return {
		id: 'wfExportTrust',
		name: 'e2e files a finance team can trust',
		active: false,
		nodes: [
			{ id: 't-start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			node('June xlsx', 0, { ...movements, output: 'xlsxFile', fileOptions: { fileName: 'june.xlsx', sheetName: 'Junho' } }),
			node('June csv', 200, { ...movements, output: 'csvFile', fileOptions: { fileName: 'june.csv', delimiter: ';', csvDates: 'workflowZoneText' } }),
			node('Odd xlsx', 400, {
				resource: 'customer',
				operation: 'getMany',
				returnAll: true,
				output: 'xlsxFile',
				filters: { createdAfter: '2031-01-01T00:00:00Z' },
				fileOptions: { fileName: 'odd.xlsx' },
			}),
			write('Write June xlsx', 0, 'june.xlsx'),
			write('Write June csv', 200, 'june.csv'),
			write('Write Odd xlsx', 400, 'odd.xlsx'),
		],
		connections: {
			Start: { main: [['June xlsx', 'June csv', 'Odd xlsx'].map((name) => ({ node: name, type: 'main', index: 0 }))] },
			'June xlsx': { main: [[{ node: 'Write June xlsx', type: 'main', index: 0 }]] },
			'June csv': { main: [[{ node: 'Write June csv', type: 'main', index: 0 }]] },
			'Odd xlsx': { main: [[{ node: 'Write Odd xlsx', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1', timezone: 'America/Sao_Paulo' },
	};
}

/** One answer of customers no spreadsheet should choke on (JSON text: 1e999 and escapes reach n8n as they are). */
function oddCustomers(): string {
	const wide = Object.fromEntries(Array.from({ length: 16_401 }, (_, k) => [`f${String(k).padStart(5, '0')}`, k]));
	const docs = [
		`{"id":"odd-1","name":"a\\ud800b","note":"x\\ufffey\\uffff","balanceInCents":1e999,"score":-1e999,"createdAt":"2031-01-03T00:00:00.000Z"}`,
		`{"id":"odd-2","name":"nul\\u0000 unit\\u001f","note":${JSON.stringify('é'.repeat(40_000))},"createdAt":"2031-01-02T00:00:00.000Z"}`,
		JSON.stringify({ id: 'wide', ...wide, createdAt: '2031-01-01T00:00:00.000Z' }),
	];
	return `{"statusCode":200,"data":{"docs":[${docs.join(',')}],"totalDocs":3,"totalPages":1,"currentPage":1,"limit":1000,"hasNext":false}}`;
}

let run: ExecutedRun | undefined;

beforeAll(async () => {
	ctx = await openSession();
	filesDir = ctx.session.filesDir('sp-e2e-trust-');
	const businessId = ctx.sim.credentials.businessId;
	ctx.sim.state.col('movements').push(
		{ id: 'sp-june-30', type: 'credit', valueInCents: 1250, subject: 'Sale', description: 'Late sale', createdAt: '2025-07-01T02:30:00.000Z', _businessId: businessId },
		{ id: 'sp-july-1', type: 'credit', valueInCents: 990, subject: 'Sale', description: 'Early sale', createdAt: '2025-07-01T03:30:00.000Z', _businessId: businessId },
	);
	ctx.sim.addFault({ kind: 'malformed', status: 200, body: oddCustomers(), path: '/customers/list' });
	await ctx.session.addCredentials([dataCredential(ctx.sim, 'spTrust')]);
	await ctx.session.addWorkflows([workflow()]);
	run = await ctx.session.runOk('wfExportTrust', 10 * 60_000);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await closeSession(ctx);
	if (filesDir) rmSync(filesDir, { recursive: true, force: true });
}, 60_000);

const column = (rows: CalcValue[][], name: string) => {
	const at = rows[0].findIndex((c) => c.value === name);
	expect(at).toBeGreaterThanOrEqual(0);
	return rows.slice(1).map((row) => row[at] ?? { type: '', value: '' });
};

describe('in a real n8n 2.8.4 whose time zone is America/Sao_Paulo', () => {
	it('the summaries: the June movements add up to the platform\'s totals; the odd workbook names what it changed', () => {
		for (const name of ['June xlsx', 'June csv']) {
			const [json] = nodeOutput(run, name);
			expect(json).toMatchObject({ reconciled: true, reconciliation: { reasons: [] } });
		}
		const [odd] = nodeOutput(run, 'Odd xlsx');
		expect(odd).toMatchObject({ records: 3, textsCut: 1, textsCutIn: [{ id: 'odd-2', field: 'note' }], textsWithReplacedCharacters: 2, fieldsPastLastColumn: 24 });
	});

	it('every workbook passes the strict XML 1.0 and SpreadsheetML checks', () => {
		expect(excelProblems(readFileSync(file('june.xlsx')))).toEqual([]);
		expect(excelProblems(readFileSync(file('odd.xlsx')))).toEqual([]);
	});

	(soffice.path ? describe : describe.skip)(`LibreOffice Calc headless${soffice.path ? '' : ` (skipped: ${soffice.reason})`}`, () => {
		it('reads the .xlsx: 2025-06-30T23:30:00-03:00 is the date 2025-06-30 23:30:00 in the June rows; every date is of June; amounts are numbers', async () => {
			const rows = (await calcSheetsAsFods(soffice.path!, file('june.xlsx'))).get('Junho')!;
			const ids = column(rows, 'id').map((c) => c.value);
			const createdAt = column(rows, 'createdAt');
			expect(createdAt[ids.indexOf('sp-june-30')]).toEqual({ type: 'date', value: '2025-06-30T23:30:00' });
			expect(ids).not.toContain('sp-july-1');
			for (const cell of createdAt) expect([cell.type, cell.value.slice(0, 7)]).toEqual(['date', '2025-06']);
			const [json] = nodeOutput(run, 'June xlsx');
			const cents = column(rows, 'valueInCents');
			expect(cents.every((c) => c.type === 'float')).toBe(true);
			expect(cents.reduce((sum, c) => sum + Number(c.value), 0)).toBe((json.totals as { totalValue: number }).totalValue);
		});

		it('opens the ; CSV in pt-BR: the decimal amounts are numbers whose SUM is the platform\'s totalValue; the dates are dates', async () => {
			const rows = [...(await calcSheetsAsFods(soffice.path!, file('june.csv'), PT_BR_CSV)).values()][0];
			const [json] = nodeOutput(run, 'June csv');
			const totalValue = (json.totals as { totalValue: number }).totalValue;
			const values = column(rows, 'value');
			expect(values.length).toBe(json.records);
			const notNumbers = values.filter((c) => c.type !== 'float');
			expect(notNumbers).toEqual([]);
			expect(Math.round(values.reduce((sum, c) => sum + Number(c.value), 0) * 100)).toBe(totalValue);
			const ids = column(rows, 'id').map((c) => c.value);
			expect(column(rows, 'createdAt')[ids.indexOf('sp-june-30')]).toEqual({ type: 'date', value: '2025-06-30T23:30:00' });
		});

		it('opens the odd workbook: the texts and numbers as the summary says, 16,384 columns', async () => {
			const rows = [...(await calcSheetsAsFods(soffice.path!, file('odd.xlsx'))).values()][0];
			expect(rows[0]).toHaveLength(16_384);
			const ids = column(rows, 'id').map((c) => c.value);
			const cell = (id: string, name: string) => column(rows, name)[ids.indexOf(id)];
			expect([cell('odd-1', 'name'), cell('odd-1', 'balanceInCents'), cell('odd-1', 'score')]).toEqual([
				{ type: 'string', value: 'a\uFFFDb' },
				{ type: 'string', value: 'Infinity' },
				{ type: 'string', value: '-Infinity' },
			]);
			expect(cell('odd-2', 'note').value).toHaveLength(32_767);
		});
	});
});
