/**
 * Does the file add up? (issue 38) Through n8n-core against the simulator: the summary of every
 * file output holds the rows written and, for movements, the sum of the values written beside the
 * platform's own count, totalValue and totalDocs, and `reconciled`. A mismatch (Limit, a record
 * changed or removed while the list was read, a count the records do not match, no count at all)
 * is named, and logged as a warning through n8n's logger; the run never fails for it.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useBinaryMode } from '../support/harness/binary';
import { runNode, takeLogged } from '../support/harness/n8n-core';
import { listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator({ size: 10 });
const PAGE_SIZE = 5;
/** What the node warned of through n8n's logger (captured by the harness). */
const warned = () => takeLogged('warn');
let saved: JsonObject[] = [];

beforeAll(async () => {
	await useBinaryMode('filesystem');
	saved = [...sim().state.col('movements')];
});

beforeEach(() => {
	sim().faults.clear();
	sim().onRequest = undefined;
	sim().state.col('movements').splice(0, Infinity, ...saved.map((m) => ({ ...m })));
	takeLogged();
});

afterAll(async () => {
		await useBinaryMode('default');
});

async function exportOf(resource: string, output: string, extra: INodeParameters = {}) {
	const { items, error } = await runNode(
		{ parameters: { resource, operation: 'getMany', returnAll: true, output, pagination: { pageSize: PAGE_SIZE }, ...extra } },
		{ credentials: dataCredentials(sim()) },
	);
	expect(error).toBeUndefined();
	return items[0].json;
}

const movements = () => listed(sim(), 'movements');
const sum = (records: IDataObject[]) => records.reduce((total, m) => total + Number(m.valueInCents), 0);

/** Runs `change` once, when page `page` of the movements is first asked for. */
function onPage(page: number, change: () => void): void {
	let done = false;
	sim().onRequest = (request) => {
		if (done || request.path !== '/movement/filter' || request.query.page !== String(page)) return;
		done = true;
		change();
		// The simulator keeps its last answers by the collection's length and last id: a record of another business makes it look again.
		sim().state.col('movements').push({ id: `elsewhere-${Date.now()}-${Math.random()}`, _businessId: 'another-business', createdAt: new Date(0).toISOString() });
	};
}

describe.each(['csvFile', 'jsonLinesFile', 'xlsxFile'])('%s', (output) => {
	it('movements: the rows and the sum of the values written equal the platform\'s count and totalValue: reconciled, nothing logged', async () => {
		const all = movements();
		expect(all.length).toBeGreaterThan(2 * PAGE_SIZE);
		const json = await exportOf('movement', output);
		expect(json).toMatchObject({
			records: all.length,
			reconciled: true,
			reconciliation: { rows: all.length, count: all.length, valueInCents: sum(all), totalValue: sum(all), reasons: [] },
		});
		expect(warned()).toEqual([]);
	});

	it('customers: the rows equal the platform\'s totalDocs', async () => {
		const json = await exportOf('customer', output);
		const count = listed(sim(), 'customers').length;
		expect(json).toMatchObject({ reconciled: true, reconciliation: { rows: count, totalDocs: count, reasons: [] } });
	});

	it('Limit: not reconciled, Limit named, a warning logged; the file is still output', async () => {
		const all = movements();
		const json = await exportOf('movement', output, { returnAll: false, limit: 7 });
		expect(json).toMatchObject({ records: 7, reconciled: false });
		expect((json.reconciliation as IDataObject).reasons).toEqual([`Limit: 7 of the list's ${all.length} records written, and the platform's totals count them all`]);
		const warnings = warned();
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/^Sales & Payments: the file movements\.\w+ does not add up to the platform's totals: Limit: 7 of the list's/);
	});
});

describe('a list that changes while it is read', () => {
	it('a value changed on a page already written: the sum differs from totalValue by the change, named and logged', async () => {
		const first = movements()[1];
		const before = sum(movements());
		onPage(2, () => {
			const record = sim().state.col('movements').find((m) => m.id === first.id)!;
			record.valueInCents = Number(record.valueInCents) + 100;
		});
		const json = await exportOf('movement', 'csvFile');
		const reconciliation = json.reconciliation as IDataObject;
		expect(json.reconciled).toBe(false);
		expect(reconciliation).toMatchObject({ valueInCents: before, totalValue: before + 100 });
		expect(reconciliation.reasons).toEqual([
			`the valueInCents written add up to ${before.toLocaleString('en-US')}, the platform's totalValue is ${(before + 100).toLocaleString('en-US')} (-100): records changed while the list was read, or rows the totals leave out`,
		]);
		expect(warned()).toHaveLength(1);
	});

	it('records removed from a page already written: their rows are named (recordsRemovedWhileRead)', async () => {
		const victims = movements().slice(1, 3).map((m) => m.id);
		onPage(2, () => {
			const all = sim().state.col('movements');
			for (const id of victims) all.splice(all.findIndex((m) => m.id === id), 1);
		});
		const json = await exportOf('movement', 'xlsxFile');
		expect(json).toMatchObject({ recordsRemovedWhileRead: 2, reconciled: false });
		const reasons = (json.reconciliation as IDataObject).reasons as string[];
		expect(reasons[0]).toBe('2 rows of records removed from the list while it was read (recordsRemovedWhileRead)');
		// The rows of the list as it ended match the count; the removed ones' values are in the file.
		expect(reasons.slice(1).every((r) => r.startsWith('the valueInCents written add up to'))).toBe(true);
	});
});

describe('answers that do not add up', () => {
	const answer = (data: object) => sim().addFault({ kind: 'malformed', status: 200, body: JSON.stringify({ statusCode: 200, data }), path: '/movement/filter' });
	const movement = (id: string, valueInCents: number) => ({ id, type: 'credit', valueInCents, createdAt: '2030-01-01T00:00:00.000Z' });

	it('a count above the records listed: named', async () => {
		answer({ movements: [movement('a', 100), movement('b', 250)], count: 3, totalValue: 350 });
		const json = await exportOf('movement', 'csvFile');
		expect(json).toMatchObject({
			reconciled: false,
			reconciliation: { rows: 2, count: 3, valueInCents: 350, totalValue: 350, reasons: ["2 rows of the list as it ended written, the platform's count is 3: records the platform counts were not listed"] },
		});
	});

	it('records the count leaves out (a filter the platform ignored?): named, with the values', async () => {
		answer({ movements: [movement('a', 100), movement('b', 250), movement('c', -50)], count: 2, totalValue: 350 });
		const json = await exportOf('movement', 'jsonLinesFile');
		expect((json.reconciliation as IDataObject).reasons).toEqual([
			"3 rows of the list as it ended written, the platform's count is 2: the platform lists records its count leaves out (a filter it ignored?)",
			"the valueInCents written add up to 300, the platform's totalValue is 350 (-50): records changed while the list was read, or rows the totals leave out",
		]);
	});

	it('a value that is not a whole number of cents, and an answer with no count: not added up, named', async () => {
		answer({ movements: [movement('a', 100), { ...movement('b', 0), valueInCents: '2.50' }], count: 2, totalValue: 350 });
		let json = await exportOf('movement', 'csvFile');
		expect(json.reconciliation).toEqual({
			rows: 2,
			count: 2,
			valueInCents: null,
			totalValue: 350,
			reasons: ['1 row whose valueInCents is not a whole number of cents (record b: "2.50"): the values were not added up, nor compared with totalValue'],
		});
		sim().faults.clear();
		answer({ movements: [movement('a', 100)] });
		json = await exportOf('movement', 'csvFile');
		expect(json).toMatchObject({ reconciled: false, reconciliation: { rows: 1, reasons: ['the platform gave no count of the list (totalDocs, count or total) to compare the rows with'] } });
	});
});
