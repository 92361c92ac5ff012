/**
 * Return All and Limit on a platform that caps its page size (the spec shows no default or
 * maximum `limit`), for every list operation of the action node, through real executions by
 * n8n-core. The simulator's `cap` mode answers at most `cap` records whatever `limit` asks, with
 * the pagination fields the list has (docs with totals; webhooks with totals only; movements with
 * `count` only; payment links' page object), or with `bare: true` as a bare array without any.
 * The honest, uncapped Return All of the same simulator is the reference: under every cap each
 * list gives the same records in the same order, once each, asking every page after the first
 * at the answered size.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode, runNodes } from '../support/harness/n8n-core';
import { baselineParameters, listOperations } from '../support/helpers/operations';
import { growShortLists } from '../support/helpers/grow';
import { primaryRecords } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { PagingRule } from '../support/simulator/paging';

const SIZE = 1100;
const sim = useSimulator({ size: SIZE });
const CAPS = [30, 100, 500];

const LISTS = listOperations().filter((op) => op.operation === 'getMany');

let productId = '';
/** Record ids of each list's honest Return All. */
const honest = new Map<string, unknown[]>();

function parametersOf(resource: string, extra: INodeParameters): INodeParameters {
	const op = LISTS.find((o) => o.resource === resource)!;
	const base = baselineParameters(op);
	if (resource === 'offer') base.productId = { __rl: true, mode: 'id', value: productId };
	return { ...base, ...extra };
}

async function list(resource: string, extra: INodeParameters) {
	return await runNode({ parameters: parametersOf(resource, extra) }, { credentials: dataCredentials(sim()) });
}

function requestsOf(resource: string) {
	return sim().apiRequests.filter((r) => r.query.page !== undefined && (resource !== 'business' || r.path.startsWith('/business')));
}

beforeAll(async () => {
	// Lists the seed keeps short grow past the largest cap.
	await growShortLists(sim(), SIZE, { businesses: true });
	productId = String(
		primaryRecords(sim(), 'products').find((p) => sim().state.col('offers').filter((o) => o._productId === p.id || o.productId === p.id).length >= SIZE)?.id,
	);
	for (const op of LISTS) {
		const { items, error } = await list(op.resource, { returnAll: true });
		expect(error).toBeUndefined();
		honest.set(op.resource, items.map((i) => i.json.id));
	}
}, 120_000);

beforeEach(() => {
	sim().paging.clear();
	sim().clearRequests();
});

describe('the reference', () => {
	it.each(LISTS.map((op) => [op.resource]))('%s: the honest list is longer than the largest cap, every record once', (resource) => {
		const ids = honest.get(resource)!;
		expect(ids.length).toBeGreaterThan(Math.max(...CAPS));
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('all 13 list operations are covered', () => {
		expect(LISTS).toHaveLength(13);
	});
});

const CASES = LISTS.flatMap((op) => CAPS.flatMap((cap) => [false, true].map((bare) => [op.resource, cap, bare] as const)));

describe.each(CASES)('%s capped at %i records a page (bare array: %s)', (resource, cap, bare) => {
	const rule = (): PagingRule => ({ mode: 'cap', cap, bare });

	it('Return All gives every record once, in order; every page after the first asks the answered size', async () => {
		sim().paging.add(rule());
		const { items, error } = await list(resource, { returnAll: true });
		expect(error).toBeUndefined();
		const expected = honest.get(resource)!;
		expect(items.map((i) => i.json.id)).toEqual(expected);
		const asked = requestsOf(resource).map((r) => [Number(r.query.page), Number(r.query.limit)]);
		expect(asked[0]).toEqual([1, 1000]);
		expect(sim().paging.list()[0].applied).toBeGreaterThan(0);
		const later = asked.slice(1);
		expect(later.length).toBeGreaterThan(0);
		expect(later.every(([, limit]) => limit === cap)).toBe(true);
		const pages = later.map(([page]) => page).sort((a, b) => a - b);
		expect(new Set(pages).size).toBe(pages.length);
		// Every page of the capped list, plus at most one empty page that confirms the end.
		const needed = Math.ceil(expected.length / cap);
		expect(pages.slice(0, needed - 1)).toEqual(Array.from({ length: needed - 1 }, (_, n) => n + 2));
		expect(pages.length - (needed - 1)).toBeLessThanOrEqual(1);
	});

	it('Limit gives exactly the first records, asking at most one page past them', async () => {
		sim().paging.add(rule());
		const limit = 2 * cap + 7;
		const { items, error } = await list(resource, { returnAll: false, limit });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.id)).toEqual(honest.get(resource)!.slice(0, limit));
		const asked = requestsOf(resource).map((r) => [Number(r.query.page), Number(r.query.limit)]);
		expect(asked).toEqual([
			[1, Math.min(limit, 1000)],
			[2, cap],
			[3, cap],
		]);
	});
});

describe('the learned size', () => {
	it('stays for the rest of the execution: the second item of a run asks the capped size at once', async () => {
		sim().paging.add({ mode: 'cap', cap: 100 });
		const { items, error } = await runNodes(
			[{ parameters: parametersOf('movement', { returnAll: true }) }],
			{ credentials: dataCredentials(sim()), input: [{ json: {} }, { json: {} }] },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2 * honest.get('movement')!.length);
		const limits = requestsOf('movement').map((r) => Number(r.query.limit));
		const perRun = Math.ceil(honest.get('movement')!.length / 100);
		expect(limits).toEqual([1000, ...Array<number>(2 * perRun - 1).fill(100)]);
	});

	it('a short first page whose total says it is the whole list ends it at once; a bare one is confirmed by one request', async () => {
		const hash = String(primaryRecords(sim(), 'movements')[5].hash);
		for (const bare of [false, true]) {
			sim().paging.clear();
			sim().clearRequests();
			sim().paging.add({ mode: 'cap', cap: 100, bare });
			const { items, error } = await list('movement', { returnAll: true, filters: { hash } });
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json.hash)).toEqual([hash]);
			expect(requestsOf('movement').map((r) => [r.query.page, r.query.limit])).toEqual(
				bare ? [['1', '1000'], ['2', '1']] : [['1', '1000']],
			);
		}
	});
});
