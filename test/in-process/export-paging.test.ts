/**
 * File exports follow Return All exactly (issue 24), through real executions by n8n-core: on a
 * platform that caps its page size (every list, `cap` and bare arrays) the file holds the
 * honest list; on a platform whose pages contradict themselves or have the wrong shape (the hostile modes of
 * test/support/simulator/paging.ts) each file output ends as the items output does: the same
 * records, or the same error, and then no file at all (with Continue On Fail: one error item,
 * without a file). Max Pages bounds a file; Max Records (a bound on items held in memory) does not.
 * CSV runs in n8n's filesystem binary mode, JSON Lines in its in-memory mode.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { FILE_AUTO_MAX_CONCURRENCY } from '../../nodes/SalesPayments/files/export';
import { readBinary, useBinaryMode } from '../support/harness/binary';
import { runNode } from '../support/harness/n8n-core';
import { csvRecords } from '../support/helpers/csv';
import { baselineParameters, listOperations } from '../support/helpers/operations';
import { growShortLists } from '../support/helpers/grow';
import { primaryRecords } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { PagingRule } from '../support/simulator/paging';

const SIZE = 150;
const sim = useSimulator({ size: SIZE });
const LISTS = listOperations().filter((op) => op.operation === 'getMany');
const FILES = [
	['csvFile', 'filesystem'],
	['jsonLinesFile', 'default'],
] as const;

let productId = '';
const honest = new Map<string, string[]>();

function parametersOf(resource: string, extra: INodeParameters): INodeParameters {
	const base = baselineParameters(LISTS.find((o) => o.resource === resource)!);
	if (resource === 'offer') base.productId = { __rl: true, mode: 'id', value: productId };
	return { ...base, returnAll: true, ...extra };
}

async function run(resource: string, extra: INodeParameters, continueOnFail = false) {
	return await runNode({ parameters: parametersOf(resource, extra), continueOnFail }, { credentials: dataCredentials(sim()) });
}

/** The record ids in the file of an export's output item. */
async function fileIds(item: INodeExecutionData): Promise<string[]> {
	const text = (await readBinary(item.binary!.data)).toString('utf8');
	if (item.binary!.data.mimeType === 'text/csv') return csvRecords(text).records.map((r) => r.id);
	return text.trim() === '' ? [] : text.trim().split('\n').map((line) => String((JSON.parse(line) as { id: unknown }).id));
}

beforeAll(async () => {
	await growShortLists(sim(), SIZE, { businesses: true });
	const offersOf = (id: unknown) => sim().state.col('offers').filter((o) => o._productId === id || o.productId === id).length;
	productId = String(primaryRecords(sim(), 'products').reduce((best, p) => (offersOf(p.id) > offersOf(best.id) ? p : best)).id);
	for (const op of LISTS) {
		const { items, error } = await run(op.resource, {});
		expect(error).toBeUndefined();
		honest.set(op.resource, items.map((i) => String(i.json.id)));
	}
}, 120_000);

beforeEach(() => {
	sim().paging.clear();
	sim().clearRequests();
});

afterAll(async () => {
	await useBinaryMode('default');
});

describe('a platform that caps its page size', () => {
	it('every list is longer than the cap', () => {
		expect(LISTS).toHaveLength(13);
		for (const [resource, ids] of honest) expect({ resource, long: ids.length > 90 }).toEqual({ resource, long: true });
	});

	const CASES = LISTS.flatMap((op) => [false, true].flatMap((bare) => FILES.map(([format, mode]) => [op.resource, bare, format, mode] as const)));

	it.each(CASES)('%s capped at 30 (bare array: %s) to %s (%s mode): the honest list, every later page asked at 30', async (resource, bare, format, mode) => {
		await useBinaryMode(mode);
		const rule: PagingRule = { mode: 'cap', cap: 30, bare };
		sim().paging.add(rule);
		const { items, error } = await run(resource, { output: format });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(await fileIds(items[0])).toEqual(honest.get(resource));
		expect(items[0].json.records).toBe(honest.get(resource)!.length);
		const asked = sim()
			.apiRequests.filter((r) => r.query.page !== undefined && (resource !== 'business' || r.path.startsWith('/business')))
			.map((r) => [Number(r.query.page), Number(r.query.limit)]);
		expect(asked[0]).toEqual([1, 1000]);
		expect(asked.slice(1).every(([, limit]) => limit === 30)).toBe(true);
		expect(new Set(asked.map(([page]) => page)).size).toBe(asked.length);
	});
});

const MOVEMENTS = '/movement/filter';
const BUSINESSES = '/business/list-businesses-by-owner';

/** Hostile rules, each on the list it concerns, with the pagination settings of its run. */
const HOSTILE: Array<[string, string, PagingRule, INodeParameters]> = [
	['ignorePage with currentPage', 'business', { mode: 'ignorePage', path: BUSINESSES }, { pageSize: 10 }],
	['ignorePage without currentPage', 'movement', { mode: 'ignorePage', path: MOVEMENTS }, { pageSize: 10 }],
	['repeatPage', 'movement', { mode: 'repeatPage', path: MOVEMENTS, page: 2 }, { pageSize: 10 }],
	['overlap', 'movement', { mode: 'overlap', path: MOVEMENTS, shift: 3 }, { pageSize: 10 }],
	['hasNextForeverFresh (Max Pages 12)', 'business', { mode: 'hasNextForeverFresh', path: BUSINESSES }, { pageSize: 10, maxPages: 12 }],
	['hasNextForeverSame', 'business', { mode: 'hasNextForeverSame', path: BUSINESSES }, { pageSize: 10 }],
	['absurdTotals', 'movement', { mode: 'absurdTotals', path: MOVEMENTS }, { pageSize: 10 }],
	['nullRecord on page 3', 'movement', { mode: 'nullRecord', path: MOVEMENTS, page: 3, index: 0 }, { pageSize: 10 }],
	['collectionString', 'paymentLink', { mode: 'collectionString', path: '/payment-links/list' }, { pageSize: 10 }],
	['dataNull on page 2', 'customer', { mode: 'dataNull', path: '/customers/list', page: 2 }, { pageSize: 10 }],
];

describe.each(HOSTILE)('hostile pages: %s', (_label, resource, rule, pagination) => {
	it.each(FILES)('to %s (%s mode): the records of the items output, or its error and no file', async (format, mode) => {
		await useBinaryMode(mode);
		sim().paging.add(rule);
		const asItems = await run(resource, { pagination });
		sim().paging.clear();
		sim().paging.add(rule);
		const asFile = await run(resource, { output: format, pagination });
		if (asItems.error) {
			expect(asFile.items).toHaveLength(0);
			expect(asFile.error?.name).toBe(asItems.error.name);
			expect(asFile.error?.message).toBe(asItems.error.message);
			expect(asFile.error?.description).toBe(asItems.error.description);
			// Continue On Fail: one error item, no file.
			sim().paging.clear();
			sim().paging.add(rule);
			const continued = await run(resource, { output: format, pagination }, true);
			expect(continued.error).toBeUndefined();
			expect(continued.items).toHaveLength(1);
			expect(continued.items[0].json.error).toBe(asItems.error.message);
			expect(continued.items[0].binary).toBeUndefined();
			return;
		}
		expect(asFile.error).toBeUndefined();
		const ids = asItems.items.map((i) => String(i.json.id));
		expect(await fileIds(asFile.items[0])).toEqual(ids);
		expect(new Set(ids).size).toBe(ids.length);
		if (rule.mode === 'overlap') expect(asFile.items[0].json.repeatedRecordsSkipped).toBeGreaterThan(0);
	});
});

describe('bounds', () => {
	it.each(FILES)('Max Records, the bound on items held in memory, does not bound a file (%s, %s mode)', async (format, mode) => {
		await useBinaryMode(mode);
		const items = await run('movement', { pagination: { pageSize: 10, maxRecords: 25 } });
		expect(items.error?.message).toBe(`POST ${MOVEMENTS} has more than 25 records, the most one run holds in memory (Pagination › Max Records)`);
		const file = await run('movement', { output: format, pagination: { pageSize: 10, maxRecords: 25 } });
		expect(file.error).toBeUndefined();
		expect(await fileIds(file.items[0])).toEqual(honest.get('movement'));
	});

	it.each(FILES)(`automatic concurrency keeps at most ${FILE_AUTO_MAX_CONCURRENCY} pages in flight for a file (%s, %s mode)`, async (format, mode) => {
		await useBinaryMode(mode);
		sim().resetInFlight();
		// Answers that take a while, so that requests overlap.
		sim().addFault({ kind: 'latency', latencyMs: 20, path: MOVEMENTS });
		try {
			const file = await run('movement', { output: format, pagination: { pageSize: 5 } });
			expect(file.error).toBeUndefined();
			expect(await fileIds(file.items[0])).toEqual(honest.get('movement'));
			expect(sim().maxInFlight).toBeLessThanOrEqual(FILE_AUTO_MAX_CONCURRENCY);
		} finally {
			sim().faults.clear();
		}
	});

	it.each(FILES)('Max Pages bounds a file as it bounds items (%s, %s mode)', async (format, mode) => {
		await useBinaryMode(mode);
		const file = await run('movement', { output: format, pagination: { pageSize: 10, maxPages: 3 } });
		expect(file.items).toHaveLength(0);
		expect(file.error?.message).toBe(`Return All stopped after 3 pages of POST ${MOVEMENTS}: the platform says more follow`);
	});
});
