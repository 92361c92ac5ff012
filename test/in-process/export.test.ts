/**
 * Output › CSV File and JSON Lines File of every list operation (issue 24), through real
 * executions by n8n-core, in n8n's in-memory binary data mode ("default", the file travels in
 * the item) and its filesystem mode (the file is written to disk page by page). The reference is
 * the same list output as items (Return All, same settings): the JSON Lines file holds exactly
 * those records, one per line, and the CSV file one row per record, each row the record's
 * fields by the documented column rule. Add Decimal Amounts and Simplify apply as for items.
 * Output › Excel File (issue 32) of every list holds the CSV's rows, each cell typed.
 */
import type { IBinaryData, IDataObject, INodeParameters } from 'n8n-workflow';

import type { BinaryMode } from '../support/harness/binary';
import { readBinary, useBinaryMode } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { csvRecords, parseCsv } from '../support/helpers/csv';
import { baselineParameters, listOperations } from '../support/helpers/operations';
import { growShortLists } from '../support/helpers/grow';
import { primaryRecords } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { asCsvText, readXlsx } from '../support/helpers/xlsx';

const sim = useSimulator();
const PAGE_SIZE = 7;
const LISTS = listOperations().filter((op) => op.operation === 'getMany');
const MODES: BinaryMode[] = ['default', 'filesystem'];
const FORMATS = ['csvFile', 'jsonLinesFile'] as const;

let productId = '';

function parametersOf(resource: string, extra: INodeParameters = {}): INodeParameters {
	const op = LISTS.find((o) => o.resource === resource)!;
	const base = baselineParameters(op);
	if (resource === 'offer') base.productId = { __rl: true, mode: 'id', value: productId };
	// Decimal amounts where the list has them: the file must carry them as the items do.
	if (op.properties.some((p) => p.name === 'decimalAmounts')) base.decimalAmounts = true;
	return { ...base, returnAll: true, pagination: { pageSize: PAGE_SIZE }, ...extra };
}

async function list(resource: string, extra: INodeParameters = {}) {
	return await runNode({ parameters: parametersOf(resource, extra) }, { credentials: dataCredentials(sim()) });
}

/** The leaves of a record as dot paths (the CSV's columns), written from the rule. */
function leaves(record: IDataObject, prefix = ''): Array<[string, unknown]> {
	return Object.entries(record).flatMap(([key, value]): Array<[string, unknown]> => {
		const name = prefix ? `${prefix}.${key}` : key;
		return value !== null && typeof value === 'object' && !Array.isArray(value) ? leaves(value as IDataObject, name) : [[name, value]];
	});
}

function cellOf(value: unknown): string {
	if (value === null || value === undefined) return '';
	return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A CSV row holds the record: each field in its column, or in `_extraFields`, nothing else. */
function expectRowHolds(header: string[], row: string[], record: IDataObject): void {
	const columns = header.slice(0, -1);
	const extra = row[header.length - 1] ? (JSON.parse(row[header.length - 1]) as IDataObject) : {};
	const seen = new Set<string>();
	for (const [name, value] of leaves(record)) {
		seen.add(name);
		const at = columns.indexOf(name);
		if (at === -1) {
			expect({ name, value: extra[name] }).toEqual({ name, value });
			continue;
		}
		const expected = cellOf(value);
		// A text a spreadsheet would run as a formula is neutralized with a leading '.
		if (row[at] !== expected) expect({ name, cell: row[at] }).toEqual({ name, cell: /^[=+\-@\t\r]/.test(expected) ? `'${expected}` : expected });
	}
	columns.forEach((name, at) => {
		if (!seen.has(name)) expect({ name, cell: row[at] }).toEqual({ name, cell: '' });
	});
	expect(Object.keys(extra).filter((name) => !seen.has(name))).toEqual([]);
}

/** Short lists of the seed grow to `SIZE` records by copies of their first one. */
const SIZE = 30;

/** Items of each list (the reference), by resource. */
const reference = new Map<string, IDataObject[]>();

beforeAll(async () => {
	await growShortLists(sim(), SIZE);
	productId = String(
		primaryRecords(sim(), 'products').find((p) => sim().state.col('offers').filter((o) => o._productId === p.id || o.productId === p.id).length > 2 * PAGE_SIZE)
			?.id,
	);
	for (const op of LISTS) {
		const { items, error } = await list(op.resource);
		expect(error).toBeUndefined();
		reference.set(op.resource, items.map((i) => i.json));
	}
}, 120_000);

afterAll(async () => {
	await useBinaryMode('default');
});

describe('the reference', () => {
	it('all 13 lists, each longer than two pages, every record once', () => {
		expect(LISTS.map((op) => op.resource).sort()).toEqual(
			['business', 'commission', 'customer', 'movement', 'offer', 'paymentLink', 'pixel', 'product', 'refund', 'sale', 'subscription', 'webhook', 'withdrawRequest'].sort(),
		);
		for (const [resource, records] of reference) {
			expect({ resource, long: records.length > 2 * PAGE_SIZE }).toEqual({ resource, long: true });
			expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
		}
	});
});

const CASES = LISTS.flatMap((op) => MODES.flatMap((mode) => FORMATS.map((format) => [op.resource, mode, format] as const)));

describe.each(CASES)('%s in %s mode to %s', (resource, mode, format) => {
	it('one item: the file holds exactly the records Return All outputs as items, in order', async () => {
		await useBinaryMode(mode);
		sim().clearRequests();
		const { items, error } = await list(resource, { output: format });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const expected = reference.get(resource)!;
		const [{ json, binary }] = items;
		const file = binary?.data as IBinaryData;
		const extension = format === 'csvFile' ? 'csv' : 'jsonl';
		const plural = resource === 'business' ? 'businesses' : `${resource}s`;
		expect(file).toMatchObject({ fileName: `${plural}.${extension}`, mimeType: format === 'csvFile' ? 'text/csv' : 'application/x-ndjson' });
		// In filesystem mode the item only points to the file.
		if (mode === 'filesystem') expect(file).toMatchObject({ data: 'filesystem-v2', id: expect.stringMatching(/^filesystem-v2:/) });
		else expect(file.id).toBeUndefined();
		const text = (await readBinary(file)).toString('utf8');
		expect(file.bytes).toBe(Buffer.byteLength(text));
		expect(json).toMatchObject({ fileName: file.fileName, records: expected.length, pages: Math.ceil(expected.length / PAGE_SIZE), repeatedRecordsSkipped: 0 });
		expect(typeof json.totals).toBe('object');

		if (format === 'jsonLinesFile') {
			expect(text.endsWith('\n')).toBe(true);
			expect(text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as unknown)).toEqual(expected);
			return;
		}
		const [header, ...rows] = parseCsv(text);
		expect(header.at(-1)).toBe('_extraFields');
		expect(header.slice(0, -1)).toEqual(json.columns);
		expect(rows).toHaveLength(expected.length);
		const ids = csvRecords(text).records.map((r) => r.id);
		expect(ids).toEqual(expected.map((r) => String(r.id)));
		expect(new Set(ids).size).toBe(ids.length);
		rows.forEach((row, n) => {
			expect(row).toHaveLength(header.length);
			expectRowHolds(header, row, expected[n]);
		});
		// Every record of the honest list has the first page's fields, or the summary names the others.
		const extra = rows.filter((row) => row.at(-1) !== '').length;
		expect(json.recordsWithExtraFields).toBe(extra);
		// Pages are requested as for items: each once.
		const pages = sim().apiRequests.map((r) => r.query.page).filter((p) => p !== undefined);
		expect(new Set(pages).size).toBe(pages.length);
	});
});

describe.each(LISTS.map((op) => op.resource))('%s to an Excel file (filesystem mode)', (resource) => {
	it("the CSV's rows and columns, each cell typed as the record has it; no formula; the CSV's summary", async () => {
		await useBinaryMode('filesystem');
		// Dates: date-time cells in the workflow's zone (UTC here), as the CSV's date and time texts.
		const csv = await list(resource, { output: 'csvFile', fileOptions: { neutralizeFormulas: false, csvDates: 'workflowZoneText' } });
		const xlsx = await list(resource, { output: 'xlsxFile' });
		expect([csv.error, xlsx.error]).toEqual([undefined, undefined]);
		const plural = resource === 'business' ? 'businesses' : `${resource}s`;
		expect(xlsx.items[0].binary?.data).toMatchObject({ fileName: `${plural}.xlsx`, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
		const [sheet, ...more] = await readXlsx(await readBinary(xlsx.items[0].binary!.data));
		expect([more.length, sheet.frozenRows, sheet.formulas]).toEqual([0, 1, []]);
		const csvRows = parseCsv((await readBinary(csv.items[0].binary!.data)).toString('utf8'));
		expect(sheet.rows.map((row) => csvRows[0].map((_, k) => asCsvText(row[k])))).toEqual(csvRows);
		const expected = reference.get(resource)!;
		const header = sheet.rows[0] as string[];
		sheet.rows.slice(1).forEach((row, n) => {
			for (const [k, name] of header.entries()) {
				const value = expected[n][name];
				if (typeof value === 'number' || typeof value === 'boolean') expect({ name, cell: row[k] }).toEqual({ name, cell: value });
			}
		});
		expect(xlsx.items[0].json).toEqual({ ...csv.items[0].json, fileName: `${plural}.xlsx`, sheets: ['Sheet'] });
	});
});

describe('Limit, the totals and the summary', () => {
	it.each(FORMATS)('Limit writes exactly the first records (%s)', async (format) => {
		await useBinaryMode('filesystem');
		for (const resource of ['movement', 'customer', 'webhook']) {
			const { items, error } = await list(resource, { output: format, returnAll: false, limit: PAGE_SIZE + 3 });
			expect(error).toBeUndefined();
			const text = (await readBinary(items[0].binary!.data)).toString('utf8');
			const ids = format === 'csvFile' ? csvRecords(text).records.map((r) => r.id) : text.trim().split('\n').map((l) => String((JSON.parse(l) as IDataObject).id));
			expect(ids).toEqual(reference.get(resource)!.slice(0, PAGE_SIZE + 3).map((r) => String(r.id)));
			expect(items[0].json).toMatchObject({ records: PAGE_SIZE + 3, pages: 2 });
		}
	});

	it("carries the list's own totals: movements' count and totalValue, docs lists' totalDocs", async () => {
		await useBinaryMode('default');
		const movements = await list('movement', { output: 'csvFile' });
		const all = reference.get('movement')!;
		const cents = all.reduce((sum, m) => sum + Number(m.valueInCents), 0);
		// With Add Decimal Amounts (on here, as the items have it), the total in money too.
		expect(movements.items[0].json.totals).toEqual({ count: all.length, totalValue: cents, totalValueDecimal: Number((cents / 100).toFixed(2)) });
		const customers = await list('customer', { output: 'jsonLinesFile' });
		expect(customers.items[0].json.totals).toEqual({ totalDocs: reference.get('customer')!.length });
	});

	it('puts the file in the chosen binary field, under the chosen name, with a byte order mark when asked', async () => {
		await useBinaryMode('filesystem');
		const { items, error } = await list('customer', {
			output: 'csvFile',
			binaryPropertyName: 'export',
			fileOptions: { fileName: 'clientes-junho.csv', bom: true },
		});
		expect(error).toBeUndefined();
		expect(Object.keys(items[0].binary ?? {})).toEqual(['export']);
		expect(items[0].binary!.export.fileName).toBe('clientes-junho.csv');
		const bytes = await readBinary(items[0].binary!.export);
		expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
		expect(bytes.subarray(3, 6).toString()).toBe('id,');
	});

	it('an empty list gives an empty file (only the byte order mark when asked for), 0 records, reconciled with the platform\'s total of 0', async () => {
		await useBinaryMode('filesystem');
		for (const [format, fileOptions, bytes] of [
			['csvFile', {}, 0],
			['csvFile', { bom: true }, 3],
			['jsonLinesFile', {}, 0],
		] as const) {
			const { items, error } = await list('customer', { output: format, filters: { createdAfter: '2099-01-01T00:00:00Z' }, fileOptions });
			expect(error).toBeUndefined();
			// The one page read, empty: its total is what the file adds up to.
			expect(items[0].json).toMatchObject({ records: 0, pages: 1, reconciled: true, reconciliation: { rows: 0, totalDocs: 0, reasons: [] } });
			expect(await readBinary(items[0].binary!.data)).toHaveLength(bytes);
		}
	});

	it("in n8n 2.x's combined binary mode (a workflow setting), n8n puts the file under `_files`", async () => {
		await useBinaryMode('filesystem');
		const { items, error } = await runNode(
			{ parameters: parametersOf('movement', { output: 'csvFile' }) },
			{ credentials: dataCredentials(sim()), settings: { binaryMode: 'combined' } },
		);
		expect(error).toBeUndefined();
		expect(items[0].binary).toBeUndefined();
		const file = (items[0].json._files as Record<string, IBinaryData>).data;
		expect(file).toMatchObject({ fileName: 'movements.csv', id: expect.stringMatching(/^filesystem-v2:/) });
		expect(csvRecords((await readBinary(file)).toString('utf8')).records).toHaveLength(reference.get('movement')!.length);
	});

	it('Movement › Output › Summary still reads count and totalValue with one smallest page', async () => {
		sim().clearRequests();
		const { items, error } = await list('movement', { output: 'summary' });
		expect(error).toBeUndefined();
		const all = reference.get('movement')!;
		expect(items.map((i) => i.json)).toEqual([{ count: all.length, totalValue: all.reduce((sum, m) => sum + Number(m.valueInCents), 0) }]);
		expect(sim().apiRequests.map((r) => [r.query.page, r.query.limit])).toEqual([['1', '1']]);
	});
});

describe('bad file settings are refused before any request, naming the field', () => {
	it.each([
		[{ binaryPropertyName: '   ' }, 'Put Output File in Field must name the binary field for the file, e.g. data (got "   ")'],
		[{ fileOptions: { fileName: '../movements.csv' } }, 'File Name must be a file name of at most 200 characters, without / or \\ (got "../movements.csv")'],
		[{ fileOptions: { fileName: 'a\\b.csv' } }, 'File Name must be a file name of at most 200 characters, without / or \\ (got "a\\\\b.csv")'],
		[{ fileOptions: { fileName: '..' } }, 'File Name must be a file name of at most 200 characters, without / or \\ (got "..")'],
		[
			{ fileOptions: { fileName: 'line\nbreak.csv' } },
			'File Name must be a file name without control or invisible format characters, which make a name display otherwise than it is (U+000A at character 5) (got "line\\nbreak.csv")',
		],
		[{ output: '={{ "pdfFile" }}' }, 'Output must be one of items, csvFile, jsonLinesFile, xlsxFile, summary (got "pdfFile")'],
	])('%j', async (extra, message) => {
		sim().clearRequests();
		const { items, error } = await list('movement', { output: 'csvFile', ...extra });
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(message);
		expect(sim().apiRequests).toHaveLength(0);
	});
});
