/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Issue 46, builds 2 and 3, through n8n-core against the simulator: File Options › Columns (the
 * columns finance chooses: in order, renamed, nested paths, a field no record has, Header Row off,
 * CSV and Excel, the editor's list of fields from the schema previews), and a file named for what
 * it is (the extension of every output, the MIME type and the binary's fileExtension agree).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { readBinary, useBinaryMode } from '../support/harness/binary';
import { parseCsv } from '../support/helpers/csv';
import { exportCustomersOf2030 } from '../support/helpers/export';
import { excelProblems } from '../support/helpers/ooxml';
import { runListSearch } from '../support/helpers/reads';
import { useSimulator } from '../support/helpers/sim';
import { readXlsx } from '../support/helpers/xlsx';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 4 });
const SCHEMAS = path.resolve(__dirname, '../../nodes/SalesPayments/__schema__/v1.0.0');

/** Customers created in 2030, newest first as listed; only the oldest has `vipSince` (on the last page). */
function seed(): JsonObject[] {
	const businessId = sim().credentials.businessId;
	const customers = [0, 1, 2, 3, 4, 5, 6].map((n) => ({
		id: `col-${n}`,
		name: n === 1 ? '=cmd' : `Cliente ${n}`,
		email: `c${n}@mail.example`,
		balanceInCents: 1000 * n + 5,
		document: { type: 'CPF', number: `000.000.00${n}-00` },
		address: { city: 'Rio', geo: { lat: -22.9 } },
		createdAt: new Date(Date.UTC(2030, 0, 20 - n, 15, 30)).toISOString(),
		...(n === 6 ? { vipSince: '2030-01-01' } : {}),
		_businessId: businessId,
	}));
	sim().state.col('customers').push(...(customers as unknown as JsonObject[]));
	return customers as unknown as JsonObject[];
}

let customers: JsonObject[] = [];

beforeAll(async () => {
	customers = seed();
	await useBinaryMode('filesystem');
});

afterAll(async () => {
	await useBinaryMode('default');
});

/** File Options › Columns as the editor saves it: a field from the list or typed by name, and a header name. */
function columns(...spec: Array<[string, string?] | [string, string, 'name']>): INodeParameters {
	return { column: spec.map(([field, header = '', mode = 'list']) => ({ field: { __rl: true, mode, value: field }, header })) };
}

async function exportOf(output: string, fileOptions: INodeParameters, extra: INodeParameters = {}) {
	const { items, error, file, bytes } = await exportCustomersOf2030(sim(), { output, fileOptions, ...extra });
	expect(error).toBeUndefined();
	return { json: items[0].json, file: file!, bytes };
}

const CHOSEN = columns(['createdAt', 'Data'], ['email'], ['document.number', 'CPF', 'name'], ['vipSince', 'VIP desde'], ['phone.number', 'Telefone'], ['balanceInCents', 'Saldo (centavos)']);
const HEADERS = ['Data', 'email', 'CPF', 'VIP desde', 'Telefone', 'Saldo (centavos)'];

describe('File Options › Columns, CSV', () => {
	it('the chosen fields in their order under their names; nested paths; no _extraFields; a field no record has is an empty column named once', async () => {
		const { json, bytes } = await exportOf('csvFile', { columns: CHOSEN });
		const [header, ...rows] = parseCsv(bytes.toString('utf8'));
		expect(header).toEqual(HEADERS);
		expect(rows).toEqual(
			customers.map((c) => [c.createdAt, c.email, (c.document as IDataObject).number, c.vipSince ?? '', '', String(c.balanceInCents)]),
		);
		expect(json).toMatchObject({
			records: customers.length,
			columns: ['createdAt', 'email', 'document.number', 'vipSince', 'phone.number', 'balanceInCents'],
			headers: HEADERS,
			fieldsNotFound: ['phone.number'],
			reconciled: true,
			reconciliation: { rows: customers.length, totalDocs: customers.length },
		});
		expect(json).not.toHaveProperty('extraFields');
		expect(json).not.toHaveProperty('recordsWithExtraFields');
	});

	it('Header Row off: the rows alone; names neutralized like every text; a path holding an object gives its JSON', async () => {
		const { bytes } = await exportOf('csvFile', { headerRow: false, columns: columns(['name', '+Nome'], ['address', 'Endereço']) });
		const rows = parseCsv(bytes.toString('utf8'));
		expect(rows).toEqual(customers.map((c) => [c.name === '=cmd' ? "'=cmd" : String(c.name), JSON.stringify(c.address)]));
		const { bytes: withHeader } = await exportOf('csvFile', { columns: columns(['name', '+Nome'], ['address.geo.lat']) });
		expect(parseCsv(withHeader.toString('utf8'))[0]).toEqual(["'+Nome", 'address.geo.lat']);
	});

	it('an empty list with chosen columns still has its header; with every field it stays empty', async () => {
		const { bytes, json } = await exportOf('csvFile', { columns: columns(['id', 'ID'], ['email']) }, { filters: { createdAfter: '2031-01-01T00:00:00Z' } });
		expect(bytes.toString('utf8')).toBe('ID,email\r\n');
		expect(json).toMatchObject({ records: 0, fieldsNotFound: ['id', 'email'] });
	});

	it.each([
		[columns(['', 'Empty']), 'Columns › Field of column 1 must name a field, e.g. createdAt or customer.email (got "")'],
		[columns(['email'], ['email', 'again', 'name']), 'Columns › Field "email" is chosen twice: give each field one column'],
	])('a column without a field, or a field chosen twice, is refused before any request', async (chosen, message) => {
		sim().clearRequests();
		const { error } = await exportCustomersOf2030(sim(), { output: 'csvFile', fileOptions: { columns: chosen } });
		expect(error?.message).toBe(message);
		expect(sim().requestsTo('GET', '/customers/list')).toHaveLength(0);
	});
});

describe('File Options › Columns, Excel', () => {
	it('the chosen columns, typed: a renamed date column is still a date; a valid workbook', async () => {
		const chosen = columns(['createdAt', 'Quando'], ['name', 'Nome'], ['balanceInCents', 'Saldo'], ['document.type', 'Doc'], ['phone.number', 'Telefone']);
		const { json, bytes } = await exportOf('xlsxFile', { columns: chosen });
		expect(excelProblems(bytes)).toEqual([]);
		const [sheet] = await readXlsx(bytes);
		expect(sheet.frozenRows).toBe(1);
		expect(sheet.rows[0]).toEqual(['Quando', 'Nome', 'Saldo', 'Doc', 'Telefone']);
		expect(sheet.rows.slice(1)).toEqual(customers.map((c) => [new Date(String(c.createdAt)), c.name, c.balanceInCents, 'CPF', undefined]));
		expect(json).toMatchObject({ columns: ['createdAt', 'name', 'balanceInCents', 'document.type', 'phone.number'], fieldsNotFound: ['phone.number'], reconciled: true });
	});

	it('movements: the decimal amount chosen alone (without valueInCents) is a number shown 0.00', async () => {
		const { items, error } = await exportCustomersOf2030(sim(), {
			resource: 'movement',
			filters: {},
			output: 'xlsxFile',
			decimalAmounts: true,
			fileOptions: { columns: columns(['createdAt', 'Data'], ['value', 'Valor (R$)'], ['type', 'Tipo']) },
		});
		expect(error).toBeUndefined();
		const { items: records } = await exportCustomersOf2030(sim(), { resource: 'movement', filters: {}, output: 'items', decimalAmounts: true });
		const [sheet] = await readXlsx(await readBinary(items[0].binary!.data));
		// Dates to the second (the workflow's zone is UTC here).
		const second = (iso: unknown) => new Date(String(iso).slice(0, 19) + 'Z');
		expect(sheet.rows).toEqual([['Data', 'Valor (R$)', 'Tipo'], ...records.map(({ json: m }) => [second(m.createdAt), m.value, m.type])]);
		expect(sheet.numFmts.slice(1).map((r) => r[1])).toEqual(records.map(() => '0.00'));
	});

	it('Header Row off: the rows alone, nothing frozen', async () => {
		const { bytes } = await exportOf('xlsxFile', { headerRow: false, columns: columns(['email', 'E-mail'], ['id']) });
		const [sheet] = await readXlsx(bytes);
		expect(sheet.frozenRows).toBe(0);
		expect(sheet.rows).toEqual(customers.map((c) => [c.email, c.id]));
	});

	it('an empty list with chosen columns: a sheet with the header only', async () => {
		const { bytes } = await exportOf('xlsxFile', { columns: columns(['id', 'ID'], ['email']) }, { filters: { createdAfter: '2031-01-01T00:00:00Z' } });
		expect(excelProblems(bytes)).toEqual([]);
		const [sheet] = await readXlsx(bytes);
		expect(sheet.rows).toEqual([['ID', 'email']]);
	});
});

describe('movements with chosen columns', () => {
	it('the reconciliation still counts and adds up every record, whatever the columns', async () => {
		const { items, error } = await exportCustomersOf2030(sim(), {
			resource: 'movement',
			filters: {},
			output: 'csvFile',
			fileOptions: { columns: columns(['createdAt'], ['description']) },
		});
		expect(error).toBeUndefined();
		const json = items[0].json as IDataObject & { reconciliation: IDataObject };
		expect(json.reconciled).toBe(true);
		expect(json.reconciliation.rows).toBe(json.records);
		expect(json.reconciliation.valueInCents).toBe(json.reconciliation.totalValue);
	});
});

/** The leaves of a schema as dot paths (the columns a record gives). */
function schemaLeaves(schema: IDataObject, prefix = ''): string[] {
	return Object.entries((schema.properties ?? {}) as Record<string, IDataObject>).flatMap(([key, value]) => {
		const name = prefix ? `${prefix}.${key}` : key;
		const types = ([] as unknown[]).concat(value.type);
		return value.properties && types.includes('object') ? schemaLeaves(value, name) : [name];
	});
}

describe("the editor's list of fields (Columns › Field › From List)", () => {
	const resources = ['business', 'commission', 'customer', 'movement', 'offer', 'paymentLink', 'pixel', 'product', 'refund', 'sale', 'subscription', 'webhook', 'withdrawRequest'];

	it.each(resources)('%s: the fields of its Get Many schema preview, in order', async (resource) => {
		const schema = JSON.parse(readFileSync(path.join(SCHEMAS, resource, 'getMany.json'), 'utf8')) as IDataObject;
		// Movement's schema also describes Output › Summary (count, totalValue): no record field.
		const expected = schemaLeaves(schema).filter((f) => resource !== 'movement' || (f !== 'count' && f !== 'totalValue'));
		const { results } = await runListSearch(sim(), 'searchFileColumns', undefined, undefined, { resource, operation: 'getMany', decimalAmounts: true });
		expect(results.map((r) => r.value)).toEqual(expected);
		expect(results.every((r) => r.name === r.value)).toBe(true);
	});

	it('without Add Decimal Amounts, not the decimals it adds; the typed text narrows the list', async () => {
		const all = await runListSearch(sim(), 'searchFileColumns', undefined, undefined, { resource: 'withdrawRequest', operation: 'getMany' });
		expect(all.results.map((r) => r.value)).not.toEqual(expect.arrayContaining(['value']));
		expect(all.results.map((r) => r.value)).toEqual(expect.arrayContaining(['valueInCents', 'feeInCents', 'bankAccount.pixKey']));
		expect(all.results.map((r) => r.value).filter((f) => ['value', 'fee', 'netValue'].includes(String(f)))).toEqual([]);
		const some = await runListSearch(sim(), 'searchFileColumns', 'BANK', undefined, { resource: 'withdrawRequest', operation: 'getMany' });
		expect(some.results.map((r) => r.value)).toEqual(['bankAccount.bankCode', 'bankAccount.agencyNumber', 'bankAccount.accountNumber', 'bankAccount.pixKey']);
	});
});

describe('a file named for what it is (build 3)', () => {
	const CSV = 'text/csv';
	const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
	const JSONL = 'application/x-ndjson';
	it.each([
		// [output, File Name, name written, MIME type, noted]
		['csvFile', '', 'customers.csv', CSV, false],
		['csvFile', 'clientes-2030', 'clientes-2030.csv', CSV, false],
		['csvFile', 'clientes.xlsx', 'clientes.csv', CSV, true],
		['csvFile', 'clientes.json', 'clientes.csv', CSV, true],
		['csvFile', 'clientes.jsonl', 'clientes.csv', CSV, true],
		['csvFile', 'clientes.CSV', 'clientes.CSV', CSV, false],
		['csvFile', 'clientes.tsv', 'clientes.tsv', 'text/tab-separated-values', false],
		['csvFile', 'clientes.pdf', 'clientes.pdf.csv', CSV, true],
		['csvFile', 'movements-2025.06', 'movements-2025.06.csv', CSV, false],
		['xlsxFile', '', 'customers.xlsx', XLSX, false],
		['xlsxFile', 'movements-2025-06.csv', 'movements-2025-06.xlsx', XLSX, true],
		['xlsxFile', 'movements-2025-06.xls', 'movements-2025-06.xlsx', XLSX, true],
		['xlsxFile', 'movements-2025-06.jsonl', 'movements-2025-06.xlsx', XLSX, true],
		['xlsxFile', 'movements-2025-06', 'movements-2025-06.xlsx', XLSX, false],
		['xlsxFile', 'Movimentos.XLSX', 'Movimentos.XLSX', XLSX, false],
		['jsonLinesFile', '', 'customers.jsonl', JSONL, false],
		['jsonLinesFile', 'clientes.json', 'clientes.jsonl', JSONL, true],
		['jsonLinesFile', 'clientes.csv', 'clientes.jsonl', JSONL, true],
		['jsonLinesFile', 'clientes.xlsx', 'clientes.jsonl', JSONL, true],
		['jsonLinesFile', 'clientes.ndjson', 'clientes.ndjson', JSONL, false],
		['jsonLinesFile', 'clientes', 'clientes.jsonl', JSONL, false],
	])('%s named %p: %s (%s)', async (output, fileName, written, mimeType, noted) => {
		const { json, file } = await exportOf(output, fileName === '' ? {} : { fileName });
		expect(json.fileName).toBe(written);
		expect({ fileName: file.fileName, mimeType: file.mimeType, fileExtension: file.fileExtension }).toEqual({
			fileName: written,
			mimeType,
			fileExtension: written.slice(written.lastIndexOf('.') + 1),
		});
		if (noted) {
			expect(json.fileNameGiven).toBe(fileName);
			expect(json.fileNameNote).toMatch(new RegExp(`^File Name ${fileName.replace(/\./g, '\\.')} ends in \\.\\w+.*: an? [A-Za-z ]+ file is written, named ${written.replace(/\./g, '\\.')}$`));
		} else {
			expect(json).not.toHaveProperty('fileNameGiven');
			expect(json).not.toHaveProperty('fileNameNote');
		}
	});

	it('says why: an Excel file given a .csv name', async () => {
		const { json } = await exportOf('xlsxFile', { fileName: 'movements-2025-06.csv' });
		expect(json.fileNameNote).toBe('File Name movements-2025-06.csv ends in .csv, the extension of a CSV file: an Excel file is written, named movements-2025-06.xlsx');
	});
});
