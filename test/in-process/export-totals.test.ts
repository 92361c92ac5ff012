/**
 * Issue 46, problems 1 and 2: a file that does not add up never says `reconciled: true`, and its
 * reasons never mislead. Through n8n-core against the simulator, with the platform's answer
 * crafted: totals as numbers and as numeric texts read alike (as the page reader reads them), totals that
 * cannot be read, sums past 2^53 in any row order, figures that a rounded text would make look
 * equal. Also the money beside the cents with Add Decimal Amounts (issue 46, build 4).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useBinaryMode } from '../support/harness/binary';
import { runNode, takeLogged } from '../support/harness/n8n-core';
import { dataCredentials, useSimulator } from '../support/helpers/sim';

const sim = useSimulator({ size: 4 });
const OUTPUTS = ['csvFile', 'xlsxFile', 'jsonLinesFile'];

beforeAll(async () => {
	await useBinaryMode('filesystem');
});

beforeEach(() => {
	sim().faults.clear();
	takeLogged();
});

afterAll(async () => {
	await useBinaryMode('default');
});

/** The movements' answer, as the platform sends it (every page). */
const answer = (data: object) => sim().addFault({ kind: 'malformed', status: 200, body: JSON.stringify({ statusCode: 200, data }), path: '/movement/filter' });
/** The same, with the body's text as given (numbers JSON cannot keep as JavaScript reads them). */
const answerText = (data: string) => sim().addFault({ kind: 'malformed', status: 200, body: `{"statusCode":200,"data":${data}}`, path: '/movement/filter' });
const movement = (id: string, valueInCents: unknown) => ({ id, type: 'credit', valueInCents, createdAt: '2030-01-01T00:00:00.000Z' });
const fiveOf = (cents: number[]) => cents.map((c, n) => movement(`m${n + 1}`, c));

async function exportOf(output: string, extra: INodeParameters = {}) {
	const { items, error } = await runNode(
		{ parameters: { resource: 'movement', operation: 'getMany', returnAll: true, output, pagination: { pageSize: 10 }, ...extra } },
		{ credentials: dataCredentials(sim()) },
	);
	expect(error).toBeUndefined();
	return items[0].json as IDataObject & { reconciliation: IDataObject & { reasons: string[] } };
}

describe.each(OUTPUTS)('problem 1, %s: reconciled only when every total given was compared and matched', (output) => {
	it('totalValue as a numeric text ("2516990") while the rows add up to 2,516,890: not reconciled, the R$ 1,00 named, a warning logged', async () => {
		answer({ movements: [movement('a', 2_000_000), movement('b', 516_890)], count: 2, totalValue: '2516990' });
		const json = await exportOf(output);
		expect(json.reconciled).toBe(false);
		expect(json.reconciliation).toEqual({
			rows: 2,
			count: 2,
			valueInCents: 2_516_890,
			totalValue: 2_516_990,
			reasons: [
				"the valueInCents written add up to 2,516,890, the platform's totalValue is 2,516,990 (-100): records changed while the list was read, or rows the totals leave out",
			],
		});
		expect(takeLogged('warn')).toHaveLength(1);
	});

	it('a totalValue that is not a number is named with what came, never skipped', async () => {
		answer({ movements: [movement('a', 100)], count: 1, totalValue: '100 BRL' });
		const json = await exportOf(output);
		expect(json.reconciled).toBe(false);
		expect(json.reconciliation.reasons).toEqual([`the platform's totalValue is "100 BRL", not a number: the values written were not compared with it`]);
	});

	it('totalValue null: not reconciled on the count alone, the values said to be unchecked', async () => {
		answer({ movements: [movement('a', 100), movement('b', 200)], count: 2, totalValue: null });
		const json = await exportOf(output);
		expect(json.reconciled).toBe(false);
		expect(json.reconciliation).toMatchObject({ rows: 2, count: 2, valueInCents: 300, totalValue: null });
		expect(json.reconciliation.reasons).toEqual([`the platform's totalValue is null, not a number: the values written were not compared with it`]);
	});
});

describe('problem 2: reasons that state what came, exactly', () => {
	it('count "5", which the walk uses as the count, is the count: reconciled', async () => {
		answer({ movements: fiveOf([1, 2, 3, 4, 5]), count: '5', totalValue: '15' });
		const json = await exportOf('csvFile');
		expect(json).toMatchObject({ records: 5, reconciled: true, reconciliation: { rows: 5, count: 5, valueInCents: 15, totalValue: 15, reasons: [] } });
	});

	it.each([
		['in one order', [4e15, 4e15, 4e15]],
		['with a small value first', [1, 4e15, 4e15, 4e15 - 1]],
		['with a small value last', [4e15, 4e15, 4e15 - 1, 1]],
	])('rows of 4e15 cents, past 2^53 together, add up exactly to totalValue %s: reconciled', async (_order, cents) => {
		answer({ movements: fiveOf(cents), count: cents.length, totalValue: 12e15 });
		const json = await exportOf('csvFile');
		expect(json.reconciliation).toEqual({ rows: cents.length, count: cents.length, valueInCents: '12000000000000000', totalValue: 12e15, reasons: [] });
		expect(json.reconciled).toBe(true);
	});

	it('a sum past 2^53 that differs by one cent: both figures exact', async () => {
		answerText(`{"movements":${JSON.stringify(fiveOf([4e15, 4e15, 4e15]))},"count":3,"totalValue":"12000000000000001"}`);
		const json = await exportOf('csvFile');
		expect(json.reconciliation.reasons).toEqual([
			"the valueInCents written add up to 12,000,000,000,000,000, the platform's totalValue is 12,000,000,000,000,001 (-1): records changed while the list was read, or rows the totals leave out",
		]);
		expect(json.reconciliation).toMatchObject({ valueInCents: '12000000000000000', totalValue: '12000000000000001' });
	});

	it('totalValue 2516989.9999999995: not reconciled, and the reason does not show a rounded pair that looks equal', async () => {
		answerText(`{"movements":${JSON.stringify([movement('a', 2_516_000), movement('b', 990)])},"count":2,"totalValue":2516989.9999999995}`);
		const json = await exportOf('csvFile');
		expect(json.reconciled).toBe(false);
		expect(json.reconciliation.reasons).toEqual([
			"the platform's totalValue is 2,516,989.9999999995, not a whole number of cents: the valueInCents written add up to 2,516,990",
		]);
	});

	it('count 5.0000001: not a whole number of records, said so', async () => {
		answer({ movements: fiveOf([1, 2, 3, 4, 5]), count: 5.0000001, totalValue: 15 });
		const json = await exportOf('csvFile');
		expect(json.reconciled).toBe(false);
		expect(json.reconciliation.reasons).toEqual(["the platform's count is 5.0000001, not a whole number of records: 5 rows written"]);
	});

	it('a value that cannot be summed is named with its record and what came; a numeric text is summed like a number', async () => {
		answer({ movements: [movement('a', 100), movement('b', '250'), movement('c', 2.5), movement('d', null)], count: 4, totalValue: 350 });
		const json = await exportOf('csvFile');
		expect(json.reconciliation).toMatchObject({ valueInCents: null, totalValue: 350 });
		expect(json.reconciliation.reasons).toEqual([
			'2 rows whose valueInCents is not a whole number of cents (record c: 2.5; record d: null): the values were not added up, nor compared with totalValue',
		]);
		sim().faults.clear();
		answer({ movements: [movement('a', 100), movement('b', '250')], count: 2, totalValue: 350 });
		expect((await exportOf('csvFile')).reconciled).toBe(true);
	});

	it('a count that cannot be read is named; every count the list gives is compared', async () => {
		answer({ movements: fiveOf([1, 2]), count: 'two', totalValue: 3 });
		let json = await exportOf('csvFile');
		expect(json.reconciliation.reasons).toEqual([`the platform's count is "two", not a number: the rows were not compared with it`]);
		sim().faults.clear();
		answer({ movements: fiveOf([1, 2]), totalDocs: 2, count: 3, totalValue: 3 });
		json = await exportOf('csvFile');
		expect(json.reconciliation).toMatchObject({ rows: 2, totalDocs: 2, count: 3 });
		expect(json.reconciliation.reasons).toEqual(["2 rows of the list as it ended written, the platform's count is 3: records the platform counts were not listed"]);
	});

	it('the walk and the reconciliation read the same fields: a count beside the records in a page object is the count of both', async () => {
		answer({ movements: { docs: fiveOf([1, 2, 3]), count: 3, totalValue: 6 } });
		const json = await exportOf('csvFile');
		expect(json).toMatchObject({ records: 3, reconciled: true, reconciliation: { rows: 3, count: 3, valueInCents: 6, totalValue: 6, reasons: [] } });
	});
});

describe('build 4: money beside the cents with Add Decimal Amounts', () => {
	it('the totals and the reconciliation give the amounts in money too, exactly', async () => {
		answer({ movements: [movement('a', 2_000_000), movement('b', 516_990)], count: 2, totalValue: 2_516_990 });
		const json = await exportOf('csvFile', { decimalAmounts: true });
		expect(json.totals).toEqual({ count: 2, totalValue: 2_516_990, totalValueDecimal: 25_169.9 });
		expect(json.reconciliation).toEqual({ rows: 2, count: 2, valueInCents: 2_516_990, totalValue: 2_516_990, value: 25_169.9, totalValueDecimal: 25_169.9, reasons: [] });
		expect(json.reconciled).toBe(true);
	});

	it('exact where a division would not be, and as text past 2^53 cents', async () => {
		answer({ movements: [movement('a', 4e15), movement('b', 4e15), movement('c', 7)], count: 3, totalValue: '8000000000000007' });
		const json = await exportOf('xlsxFile', { decimalAmounts: true });
		// 80000000000000.07 has no JavaScript number that shows it (the nearest shows .06): the text.
		expect(json.reconciliation).toMatchObject({ valueInCents: 8_000_000_000_000_007, value: '80000000000000.07', totalValueDecimal: '80000000000000.07' });
		sim().faults.clear();
		answer({ movements: [movement('a', 99_999_999_999_999), movement('b', 10)], count: 2, totalValue: 100_000_000_000_009 });
		const fifteen = await exportOf('csvFile', { decimalAmounts: true });
		expect(fifteen.reconciliation).toMatchObject({ value: 1_000_000_000_000.09, totalValueDecimal: 1_000_000_000_000.09 });
		expect(String(fifteen.reconciliation.value)).toBe('1000000000000.09');
		sim().faults.clear();
		answer({ movements: fiveOf([6e15, 6e15, 1]), count: 3, totalValue: '12000000000000001' });
		const big = await exportOf('csvFile', { decimalAmounts: true });
		expect(big.reconciliation).toMatchObject({ valueInCents: '12000000000000001', value: '120000000000000.01', totalValueDecimal: '120000000000000.01' });
		expect(big.totals).toMatchObject({ totalValueDecimal: '120000000000000.01' });
	});

	it('without Add Decimal Amounts: cents only', async () => {
		answer({ movements: [movement('a', 150)], count: 1, totalValue: 150 });
		const json = await exportOf('jsonLinesFile');
		expect(json.totals).toEqual({ count: 1, totalValue: 150 });
		expect(json.reconciliation).not.toHaveProperty('value');
	});
});
