/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Return All against a platform whose pagination contradicts itself or whose answers have the wrong shape
 * (issue 12, parts 3 and 4), through real executions: for each hostile mode of the simulator
 * (test/support/simulator/paging.ts), the number of requests the platform received, that no
 * record is output twice, and the error (or clean end) n8n reports. Each mode runs one page
 * after another (exact request counts) and with the default automatic concurrency (at most the
 * in-flight window more).
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { NETWORK_MAX_CONCURRENCY } from '../../nodes/SalesPayments/transport/concurrency';
import { DEFAULT_MAX_PAGES, LOOKAHEAD } from '../../nodes/SalesPayments/paging/walk';
import { runNode } from '../support/harness/n8n-core';
import { jsonOf, listed } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { PagingMode, PagingRule } from '../support/simulator/paging';
import { PRIMARY_BUSINESS_COUNT } from '../support/simulator/routes/00-accounts';

/** The most pages an automatic walk asks for beyond the page it reads: twice the widest window. */
const AHEAD = LOOKAHEAD * NETWORK_MAX_CONCURRENCY;
const sim = useSimulator();

const BUSINESSES = '/business/list-businesses-by-owner';
const MOVEMENTS = '/movement/filter';
const LINKS = '/payment-links/list';

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
	sim().paging.clear();
	sim().resetInFlight();
});

interface Lister {
	resource: string;
	path: string;
	method: string;
	/** The records as the honest platform lists them. */
	all: () => Array<Record<string, unknown>>;
	pageSize: number;
}

const businesses: Lister = {
	resource: 'business',
	path: BUSINESSES,
	method: 'GET',
	all: () => sim().state.businesses.filter((b) => sim().state.accounts[0].businessIds.includes(String(b.id))),
	pageSize: 3,
};
const movements: Lister = { resource: 'movement', path: MOVEMENTS, method: 'POST', all: () => listed(sim(), 'movements'), pageSize: 10 };
const links: Lister = { resource: 'paymentLink', path: LINKS, method: 'GET', all: () => listed(sim(), 'paymentLinks'), pageSize: 10 };

async function returnAll(list: Lister, pagination: INodeParameters = {}, extra: INodeParameters = {}) {
	return await runNode(
		{ parameters: { resource: list.resource, operation: 'getMany', returnAll: true, pagination: { pageSize: list.pageSize, ...pagination }, ...extra } },
		{ credentials: dataCredentials(sim()) },
	);
}

function hostile(rule: PagingRule): void {
	sim().paging.add(rule);
}

const requestsTo = (list: Lister) => sim().requestsTo(list.method, list.path);
const pagesOf = (list: Lister) => requestsTo(list).map((r) => Number(r.query.page));

function expectNoRecordTwice(items: INodeExecutionData[]): void {
	const ids = items.map((i) => i.json.id);
	expect(new Set(ids).size).toBe(ids.length);
}

/** Sequential (1) and the default automatic concurrency (0). */
const MODES = [
	['one after another', 1],
	['auto concurrency', 0],
] as const;

describe('sanity: the honest platform', () => {
	it('businesses, movements and payment links span several pages at the test page sizes', () => {
		expect(PRIMARY_BUSINESS_COUNT).toBeGreaterThan(3 * businesses.pageSize);
		expect(businesses.all()).toHaveLength(PRIMARY_BUSINESS_COUNT);
		expect(movements.all().length).toBeGreaterThan(3 * movements.pageSize);
		expect(links.all().length).toBeGreaterThan(3 * links.pageSize);
	});

	it.each(MODES)('%s: every record once, in order, each page requested once', async (_label, maxConcurrency) => {
		for (const list of [businesses, movements, links]) {
			sim().clearRequests();
			const { items, error } = await returnAll(list, { maxConcurrency });
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json.id)).toEqual(list.all().map((r) => r.id));
			const pages = Math.ceil(list.all().length / list.pageSize);
			expect([...pagesOf(list)].sort((a, b) => a - b)).toEqual(Array.from({ length: pages }, (_, n) => n + 1));
		}
	});
});

describe('a platform that ignores `page`', () => {
	it.each(MODES)('%s, with `currentPage` (businesses): fails naming the page numbers, nothing output', async (_label, maxConcurrency) => {
		hostile({ mode: 'ignorePage', path: BUSINESSES });
		const { items, error } = await returnAll(businesses, { maxConcurrency });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(`The platform answered page 1 when asked for page 2 of GET ${BUSINESSES}`);
		expect(error?.description).toContain('The page number does not advance');
		const pages = pagesOf(businesses);
		if (maxConcurrency === 1) expect(pages).toEqual([1, 2]);
		else {
			// Page 1, then the window of 2 that the first quick page opened.
			expect(pages.slice(0, 2)).toEqual([1, 2]);
			expect(pages.length).toBeLessThanOrEqual(3);
		}
	});

	it.each(MODES)('%s, without `currentPage` (movements): a page of records already read fails the walk', async (_label, maxConcurrency) => {
		hostile({ mode: 'ignorePage', path: MOVEMENTS });
		const { items, error } = await returnAll(movements, { maxConcurrency });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(
			`Page 2 of POST ${MOVEMENTS} brought no record that earlier pages had not already brought, though the platform says more follow`,
		);
		expect(error?.description).toContain('The platform repeats its pages');
		const pages = pagesOf(movements);
		if (maxConcurrency === 1) expect(pages).toEqual([1, 2]);
		else expect(pages.length).toBeLessThanOrEqual(3);
	});

	it('that says nothing about pages: a clean end after the first page, each record once', async () => {
		hostile({
			mode: 'ignorePage',
			path: BUSINESSES,
			omit: ['currentPage', 'nextPage', 'totalPages', 'totalDocs', 'hasNext', 'limit'],
		});
		const { items, error } = await returnAll(businesses);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(businesses.pageSize);
		expectNoRecordTwice(items);
		// Without totals nothing is requested ahead: page 2 shows the platform repeats itself.
		expect(pagesOf(businesses)).toEqual([1, 2]);
	});
});

describe('a platform that repeats a page', () => {
	it.each(MODES)('%s (businesses): page 3 repeats page 2 while `currentPage` advances: fails, nothing output', async (_label, maxConcurrency) => {
		hostile({ mode: 'repeatPage', path: BUSINESSES, page: 2 });
		const { items, error } = await returnAll(businesses, { maxConcurrency });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(
			`Page 3 of GET ${BUSINESSES} brought no record that earlier pages had not already brought, though the platform says more follow`,
		);
		const pages = pagesOf(businesses);
		if (maxConcurrency === 1) expect(pages).toEqual([1, 2, 3]);
		// Never more than the walk asks ahead beyond the last page read in order (page 2).
		else expect(Math.max(...pages)).toBeLessThanOrEqual(2 + AHEAD);
		expect(new Set(pages).size).toBe(pages.length);
	});

	it.each(MODES)('%s (movements): fails at the repeated page', async (_label, maxConcurrency) => {
		hostile({ mode: 'repeatPage', path: MOVEMENTS, page: 2 });
		const { items, error } = await returnAll(movements, { maxConcurrency });
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(
			`Page 3 of POST ${MOVEMENTS} brought no record that earlier pages had not already brought, though the platform says more follow`,
		);
		if (maxConcurrency === 1) expect(pagesOf(movements)).toEqual([1, 2, 3]);
		else expect(Math.max(...pagesOf(movements))).toBeLessThanOrEqual(2 + AHEAD);
	});

	it.each(MODES)('%s: pages that overlap in part (records added at the head) give every record once, in order', async (_label, maxConcurrency) => {
		for (const list of [businesses, movements]) {
			sim().paging.clear();
			sim().clearRequests();
			hostile({ mode: 'overlap', path: list.path, shift: 2 });
			const { items, error } = await returnAll(list, { maxConcurrency });
			expect(error).toBeUndefined();
			const expected = list.all().map((r) => r.id);
			const ids = items.map((i) => i.json.id);
			expect(ids).toEqual(expected);
			expectNoRecordTwice(items);
			// Each shifted page holds pageSize records: one page more than the honest list.
			const pages = Math.ceil((expected.length + 2) / list.pageSize);
			const asked = pagesOf(list);
			expect(new Set(asked).size).toBe(asked.length);
			expect(asked.length).toBeGreaterThanOrEqual(pages);
			expect(asked.length).toBeLessThanOrEqual(pages + 1);
		}
	});
});

describe('`hasNext: true` forever', () => {
	it.each(MODES)('%s, fresh ids on every page: stops at Max Pages with an error naming the option', async (_label, maxConcurrency) => {
		hostile({ mode: 'hasNextForeverFresh', path: BUSINESSES });
		const { items, error } = await returnAll(businesses, { maxConcurrency, maxPages: 12 });
		expect(items).toHaveLength(0);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(`Return All stopped after 12 pages of GET ${BUSINESSES}: the platform says more follow`);
		expect(error?.description).toContain('Raise Pagination › Max Pages (now 12)');
		// Exactly the bound, whatever the concurrency.
		expect(pagesOf(businesses)).toHaveLength(12);
		expect(new Set(pagesOf(businesses)).size).toBe(12);
	});

	it(`the default bound is ${DEFAULT_MAX_PAGES} pages, and the README says so`, async () => {
		const { readFileSync } = await import('node:fs');
		const readme = readFileSync(`${__dirname}/../../README.md`, 'utf8');
		expect(readme).toContain(`**Max Pages** (default ${DEFAULT_MAX_PAGES.toLocaleString('en-US')})`);
	});

	it.each(MODES)('%s, the same ids again after the last page: fails, nothing output', async (_label, maxConcurrency) => {
		hostile({ mode: 'hasNextForeverSame', path: BUSINESSES });
		const { items, error } = await returnAll(businesses, { maxConcurrency });
		const lastPage = Math.ceil(PRIMARY_BUSINESS_COUNT / businesses.pageSize);
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(
			`Page ${lastPage + 1} of GET ${BUSINESSES} brought no record that earlier pages had not already brought, though the platform says more follow`,
		);
		const pages = pagesOf(businesses);
		if (maxConcurrency === 1) expect(pages).toEqual(Array.from({ length: lastPage + 1 }, (_, n) => n + 1));
		else expect(Math.max(...pages)).toBeLessThanOrEqual(lastPage + AHEAD);
	});
});

describe('absurd totals', () => {
	it.each(MODES)('%s, with an honest `hasNext` (businesses): every record once, pages end the walk', async (_label, maxConcurrency) => {
		hostile({ mode: 'absurdTotals', path: BUSINESSES });
		const { items, error } = await returnAll(businesses, { maxConcurrency });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(PRIMARY_BUSINESS_COUNT);
		expectNoRecordTwice(items);
		const lastPage = Math.ceil(PRIMARY_BUSINESS_COUNT / businesses.pageSize);
		const pages = pagesOf(businesses);
		if (maxConcurrency === 1) expect(pages).toEqual(Array.from({ length: lastPage }, (_, n) => n + 1));
		// Pages past the end only within the window (those requested before the last page came back).
		else expect(pages.length - lastPage).toBeLessThanOrEqual(AHEAD - 1);
	});

	it.each(MODES)('%s, without `hasNext`/`nextPage` (businesses): a short page does not end a list whose totals say more; the empty page after it does', async (_label, maxConcurrency) => {
		hostile({ mode: 'absurdTotals', path: BUSINESSES, omit: ['hasNext', 'nextPage'] });
		const { items, error } = await returnAll(businesses, { maxConcurrency });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(PRIMARY_BUSINESS_COUNT);
		expectNoRecordTwice(items);
		expect(PRIMARY_BUSINESS_COUNT % businesses.pageSize).not.toBe(0);
		// The totals say 10^9: the short last page may be a capped page, so one more page is asked.
		const lastPage = Math.ceil(PRIMARY_BUSINESS_COUNT / businesses.pageSize) + 1;
		const pages = pagesOf(businesses);
		if (maxConcurrency === 1) expect(pages).toEqual(Array.from({ length: lastPage }, (_, n) => n + 1));
		else expect(pages.length - lastPage).toBeLessThanOrEqual(AHEAD - 1);
	});

	it.each(MODES)('%s (movements, `count` of 10^9): the records there are, once each', async (_label, maxConcurrency) => {
		hostile({ mode: 'absurdTotals', path: MOVEMENTS });
		const { items, error } = await returnAll(movements, { maxConcurrency });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(movements.all());
		const full = Math.ceil(movements.all().length / movements.pageSize);
		// A full last page needs one empty page to end the list.
		const honest = movements.all().length % movements.pageSize === 0 ? full + 1 : full;
		const pages = pagesOf(movements);
		if (maxConcurrency === 1) expect(pages).toEqual(Array.from({ length: honest }, (_, n) => n + 1));
		else expect(pages.length - honest).toBeLessThanOrEqual(AHEAD - 1);
		expect(new Set(pages).size).toBe(pages.length);
	});
});

describe('answers of the wrong shape', () => {
	const SHAPES: Array<[PagingMode, string, string]> = [
		['collectionString', '`movements` is a string ("oops"), not a list of records', '`docs` is a string ("oops"), not a list of records'],
		['collectionNumber', '`movements` is a number (42), not a list of records', '`docs` is a number (42), not a list of records'],
		['collectionObject', '`movements` is an object without a `docs` list of records', '`docs` is an object, not a list of records'],
		['nullRecord', 'record 2 of `movements` on page 1 is null, not an object', 'record 2 of `docs` on page 1 is null, not an object'],
		['numberRecord', 'record 2 of `movements` on page 1 is a number (7), not an object', 'record 2 of `docs` on page 1 is a number (7), not an object'],
		['stringRecord', 'record 2 of `movements` on page 1 is a string ("record"), not an object', 'record 2 of `docs` on page 1 is a string ("record"), not an object'],
		['arrayRecord', 'record 2 of `movements` on page 1 is an array, not an object', 'record 2 of `docs` on page 1 is an array, not an object'],
		['dataNull', '`data` is null, not a page of records', '`data` is null, not a page of records'],
	];

	it.each(SHAPES)('%s on the first page: a NodeApiError naming the operation and what was wrong', async (mode, onMovements, onBusinesses) => {
		for (const [list, words] of [
			[movements, onMovements],
			[businesses, onBusinesses],
		] as const) {
			sim().paging.clear();
			sim().clearRequests();
			hostile({ mode, path: list.path });
			const { items, error } = await returnAll(list);
			expect(items).toHaveLength(0);
			expect(error?.name).toBe('NodeApiError');
			expect(error?.message).toBe(`The platform's answer to ${list.method} ${list.path} (page 1) is not a list of records: ${words}`);
			expect(requestsTo(list)).toHaveLength(1);
		}
	});

	it.each(MODES)('%s: a wrong shape on page 3 fails the list; nothing of pages 1 and 2 is output', async (_label, maxConcurrency) => {
		hostile({ mode: 'nullRecord', path: MOVEMENTS, page: 3, index: 0 });
		const { items, error } = await returnAll(movements, { maxConcurrency });
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(
			`The platform's answer to POST ${MOVEMENTS} (page 3) is not a list of records: record 1 of \`movements\` on page 3 is null, not an object`,
		);
		const pages = pagesOf(movements);
		if (maxConcurrency === 1) expect(pages).toEqual([1, 2, 3]);
		else expect(Math.max(...pages)).toBeLessThanOrEqual(2 + AHEAD);
	});

	it('payment links (`paymentLinks` holds a page object): a string there is named', async () => {
		hostile({ mode: 'collectionString', path: LINKS });
		const { error } = await returnAll(links);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(`The platform's answer to GET ${LINKS} (page 1) is not a list of records: \`paymentLinks.docs\` is a string ("oops"), not a list of records`);
	});

	it('with Continue On Fail the wrong shape is an error item, not a crash', async () => {
		hostile({ mode: 'numberRecord', path: MOVEMENTS });
		const { items, error } = await runNode(
			{
				parameters: { resource: 'movement', operation: 'getMany', returnAll: true, pagination: { pageSize: 10 } },
				continueOnFail: true,
			},
			{ credentials: dataCredentials(sim()) },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.error).toBe(
			`The platform's answer to POST ${MOVEMENTS} (page 1) is not a list of records: record 2 of \`movements\` on page 1 is a number (7), not an object`,
		);
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('the hostile modes are also set through the control routes', async () => {
		const base = sim().url;
		const added = await fetch(`${base}/__sim/paging`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ mode: 'dataNull', path: MOVEMENTS }),
		});
		expect(added.status).toBe(200);
		const refused = await fetch(`${base}/__sim/paging`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ mode: 'nonsense' }),
		});
		expect(refused.status).toBe(400);
		const { error } = await returnAll(movements);
		expect(error?.message).toBe(`The platform's answer to POST ${MOVEMENTS} (page 1) is not a list of records: \`data\` is null, not a page of records`);
		const listedRules = (await (await fetch(`${base}/__sim/paging`)).json()) as { rules: Array<{ mode: string; applied: number }> };
		expect(listedRules.rules.map((r) => [r.mode, r.applied])).toEqual([['dataNull', 1]]);
		expect((await fetch(`${base}/__sim/paging`, { method: 'DELETE' })).status).toBe(200);
		expect(sim().paging.list()).toEqual([]);
	});
});
