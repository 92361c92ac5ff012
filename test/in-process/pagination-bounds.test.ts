/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * What one execution may hold, through real executions by n8n-core: the records of a Return All
 * (Pagination › Max Records), the bytes of one answer (64 MB after decompression, whatever the
 * platform sends: a decompression bomb, an endless body), a read that answers no record, and a
 * list whose total drops while it is read (records deleted mid-walk shift later records onto
 * pages already read: the walk reads it again rather than lose them).
 */
import type { INodeParameters } from 'n8n-workflow';

import { DEFAULT_MAX_RECORDS, MAX_PASSES } from '../../nodes/SalesPayments/paging/walk';
import { MAX_BODY_BYTES } from '../../nodes/SalesPayments/transport/transport';
import { runNode } from '../support/harness/n8n-core';
import { listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';

const sim = useSimulator({ size: 1000 });
const MOVEMENTS = '/movement/filter';
const CUSTOMERS = '/customers/list';

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
	sim().paging.clear();
	sim().onRequest = undefined;
});

async function run(parameters: INodeParameters, continueOnFail = false) {
	return await runNode({ parameters, continueOnFail }, { credentials: dataCredentials(sim()) });
}

const pagesAsked = (path: string) => sim().requestsTo(path === MOVEMENTS ? 'POST' : 'GET', path).length;

describe('the memory ceiling of Return All (Pagination › Max Records)', () => {
	it(`an endless list of full pages stops at the default ${DEFAULT_MAX_RECORDS.toLocaleString('en-US')} records with an error saying what to do`, async () => {
		sim().paging.add({ mode: 'hasNextForeverFresh', path: MOVEMENTS });
		const { items, error } = await run({ resource: 'movement', operation: 'getMany', returnAll: true });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(
			`POST ${MOVEMENTS} has more than 250,000 records, the most one run holds in memory (Pagination › Max Records)`,
		);
		expect(error?.description).toContain('Limit');
		expect(error?.description).toContain('Output › CSV File');
		// 250 full pages are held; the 251st would cross the ceiling (pages in flight at most the window more).
		expect(pagesAsked(MOVEMENTS)).toBeGreaterThanOrEqual(DEFAULT_MAX_RECORDS / 1000 + 1);
		expect(pagesAsked(MOVEMENTS)).toBeLessThanOrEqual(DEFAULT_MAX_RECORDS / 1000 + 9);
	}, 120_000);

	it('a smaller Max Records fails as soon as the list passes it; a list of exactly that many is read', async () => {
		const all = listed(sim(), 'movements');
		const over = await run({ resource: 'movement', operation: 'getMany', returnAll: true, pagination: { pageSize: 100, maxRecords: 250, maxConcurrency: 1 } });
		expect(over.error?.message).toBe(`POST ${MOVEMENTS} has more than 250 records, the most one run holds in memory (Pagination › Max Records)`);
		expect(pagesAsked(MOVEMENTS)).toBe(3);
		sim().clearRequests();
		const exact = await run({ resource: 'movement', operation: 'getMany', returnAll: true, pagination: { maxRecords: all.length } });
		expect(exact.error).toBeUndefined();
		expect(exact.items).toHaveLength(all.length);
	});

	it('Limit below the ceiling is never refused by it', async () => {
		const { items, error } = await run({ resource: 'movement', operation: 'getMany', limit: 300, pagination: { maxRecords: 300 } });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(300);
	});
});

/** Peak RSS growth (bytes) while `work` runs, sampled every 5 ms. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ value: T; growth: number }> {
	(globalThis as { gc?: () => void }).gc?.();
	const before = process.memoryUsage.rss();
	let peak = before;
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
	try {
		const value = await work();
		peak = Math.max(peak, process.memoryUsage.rss());
		return { value, growth: peak - before };
	} finally {
		clearInterval(timer);
	}
}

describe(`answers are read up to ${MAX_BODY_BYTES / 1048576} MB after decompression`, () => {
	it.each([
		['a decompression bomb (gzip that inflates to 1 GiB)', true, 1024 ** 3],
		['an endless plain body (256 MB sent)', false, 256 * 1024 ** 2],
	])('%s fails cleanly, naming the limit and the request, and memory stays bounded', async (_label, gzip, bytes) => {
		sim().addFault({ kind: 'huge', gzip, bytes, path: '/business/balance' });
		const { value, growth } = await peakGrowth(() => run({ resource: 'business', operation: 'getBalance' }));
		expect(value.error?.name).toBe('NodeApiError');
		expect(value.error?.message).toBe('The platform\'s answer to GET /business/balance is larger than 64 MB');
		expect(value.error?.description).toContain(`${MAX_BODY_BYTES} bytes (after decompression)`);
		expect(value.error?.message).not.toMatch(/did not answer within/);
		// A size over the limit is the same on a second try: never repeated.
		expect(sim().requestsTo('GET', '/business/balance')).toHaveLength(1);
		expect(growth).toBeLessThan(2 * MAX_BODY_BYTES);
	}, 60_000);

	it('a list page over the limit fails the list, nothing output', async () => {
		sim().addFault({ kind: 'huge', gzip: true, bytes: 512 * 1024 ** 2, path: MOVEMENTS, nth: [2] });
		const { items, error } = await run({ resource: 'movement', operation: 'getMany', returnAll: true, pagination: { pageSize: 100, maxConcurrency: 1 } });
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(`The platform's answer to POST ${MOVEMENTS} is larger than 64 MB`);
	}, 60_000);
});

describe('a read that answers no record is an error, never an empty item', () => {
	it.each([
		['{}', '{}', 'has no `data`'],
		['{"statusCode":200,"data":null}', 'data: null', 'has null as its data, not an object'],
		['{"statusCode":200,"data":{}}', 'data: {}', 'has an empty `data`'],
		['{"statusCode":200}', 'no data', 'has no `data`'],
	])('Get Balance answered %s', async (body, _label, words) => {
		sim().addFault({ kind: 'malformed', status: 200, body, path: '/business/balance' });
		const { items, error } = await run({ resource: 'business', operation: 'getBalance' });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(`The platform's answer has an unexpected shape: it ${words}`);
		expect(error?.description).toContain('(business.getBalance)');
	});

	it('with Continue On Fail it is an error item', async () => {
		sim().addFault({ kind: 'malformed', status: 200, body: '{}', path: '/business/balance' });
		const { items, error } = await run({ resource: 'business', operation: 'getBalance' }, true);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.error)).toEqual(["The platform's answer has an unexpected shape: it has no `data`"]);
	});
});

describe('a list whose total drops while it is read', () => {
	const customers = () => listed(sim(), 'customers');

	/** Deletes the `index`th customer of the list when page 2 is asked (`times` times at most). */
	function deleteOnPage2(index: number, times: number): void {
		let done = 0;
		sim().onRequest = (request) => {
			if (request.path !== CUSTOMERS || request.query.page !== '2' || done >= times) return;
			done++;
			const victim = customers()[index];
			const all = sim().state.col('customers');
			all.splice(all.findIndex((c) => c.id === victim.id), 1);
		};
	}

	it.each([
		['one after another', 1],
		['auto concurrency', 0],
	])('%s: a record deleted from page 1 while page 2 is read loses no other record', async (_label, maxConcurrency) => {
		deleteOnPage2(3, 1);
		const { items, error } = await run({ resource: 'customer', operation: 'getMany', returnAll: true, pagination: { pageSize: 10, maxConcurrency } });
		expect(error).toBeUndefined();
		// Every record of the list at the end, once, in its order (the deleted one, read before it went, is not: items are the reading that finished).
		expect(items.map((i) => i.json.id)).toEqual(customers().map((c) => c.id));
		// The list was read a second time from page 1.
		expect(sim().requestsTo('GET', CUSTOMERS).filter((r) => r.query.page === '1')).toHaveLength(2);
	});

	it(`a total that keeps dropping fails after ${MAX_PASSES} readings, nothing output`, async () => {
		deleteOnPage2(0, 10);
		const { items, error } = await run({ resource: 'customer', operation: 'getMany', returnAll: true, pagination: { pageSize: 10, maxConcurrency: 1 } });
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(new RegExp(`^The list GET /customers/list kept changing while it was read: its total dropped from \\d+ to \\d+$`));
		expect(error?.description).toContain(`It was read ${MAX_PASSES} times`);
		expect(sim().requestsTo('GET', CUSTOMERS).filter((r) => r.query.page === '1')).toHaveLength(MAX_PASSES);
	});
});
