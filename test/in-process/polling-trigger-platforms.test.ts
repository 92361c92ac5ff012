/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The polling trigger against platforms that fit the spec but differ where it says nothing
 * (issue 31), for every event, on a platform answering at most 10 records a page, over several
 * polls on the settable clock: dates as epoch numbers or mixed forms, records without a usable
 * date, a date filter ignored, a page order that flips between pages, and ties of 50 and 1,000
 * records on one millisecond. Each test asserts that every record is emitted exactly once (or the
 * poll fails naming what the platform did) and the requests of each poll: none above Max Requests
 * per Poll, and one or two for an idle poll of a cursor event.
 *
 * SP_POLL_FIGURES=<file> appends each scenario's figures (items and requests per poll) as JSON lines.
 */
import { appendFileSync } from 'node:fs';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEFAULT_MAX_REQUESTS } from '../../nodes/SalesPayments/SalesPaymentsPollingTrigger.node';
import { takeLogged } from '../support/harness/n8n-core';
import type { PollHarness } from '../support/harness/poll';
import { ids, pollingSetup } from '../support/helpers/polling';
import type { EventCase } from '../support/helpers/polling-events';
import { EVENT_CASES, eventOf } from '../support/helpers/polling-events';
import type { JsonObject } from '../support/simulator/core';
import { SimError } from '../support/simulator/core';
import type { PagingRule } from '../support/simulator/paging';

/** A poll of the base code that never ended is cut here (a 400 that fails it), so that its figures can be measured. */
const TEST_BOUND = 3_000;
const PAGE = 10;
/** What a record without a usable date holds instead (undefined: the field is missing). */
const UNUSABLE: Array<string | null | undefined> = [undefined, null, 'not a date', '2025-02-30'];

interface PollFigure {
	items: number;
	requests: number;
	error?: string;
}

interface Scenario {
	name: string;
	rule?: PagingRule;
	wholeSeconds?: boolean;
	maxRecords?: number;
	/** Records made before activation that must never be emitted (created events: new ones; status events: prepared ones left alone). */
	existing?: number;
	/** The seconds at which records are produced, one list per poll. */
	batches: number[][];
	/** Records produced without a usable date (their indexes in the flattened batches). */
	dateless?: number[];
	/** Records existing at activation without a usable date. */
	existingDateless?: number;
	idle: number;
}

function unusable(record: JsonObject, fields: string[], k: number): void {
	const value = UNUSABLE[k % UNUSABLE.length];
	for (const field of fields) {
		if (value === undefined) delete record[field];
		else record[field] = value;
	}
}

function figuresFile(): string | undefined {
	return process.env.SP_POLL_FIGURES;
}

describe.each(EVENT_CASES)('Polling trigger $event on platforms that differ', (c: EventCase) => {
	const plain = pollingSetup({ maxLimit: PAGE });
	const seconds = pollingSetup({ maxLimit: PAGE, wholeSeconds: true });
	const def = eventOf(c);
	const dateFields = [...new Set([...def.timeFields, ...(def.windowFields ?? []), ...(c.collection === 'refunds' ? ['requestAt'] : [])])];

	/** Runs a scenario; returns what each poll emitted and cost, and every id emitted. */
	async function run(t: ReturnType<typeof pollingSetup>, s: Scenario) {
		const produced = s.batches.flat().length;
		const status = !!c.prepare;
		const prepared = c.prepare?.(t, produced + (s.existing ?? 0) + (s.existingDateless ?? 0), -3600, true) ?? [];
		const store = (id: unknown) => t.sim().state.col(c.collection).find((r) => r.id === id) as JsonObject;
		// Records of the baseline: never emitted.
		const baseline: string[] = [];
		for (let k = 0; k < (s.existing ?? 0); k++) baseline.push(status ? String(prepared[produced + k].id) : c.produce(t, -100 - k, 0, []));
		for (let k = 0; k < (s.existingDateless ?? 0); k++) {
			const id = status ? String(prepared[produced + (s.existing ?? 0) + k].id) : c.produce(t, -50, 0, []);
			unusable(store(id), dateFields, k);
			baseline.push(id);
		}
		if (s.rule) t.sim().paging.add(s.rule);
		let pollRequests = 0;
		t.sim().onRequest = () => {
			if (++pollRequests > TEST_BOUND) throw new SimError(400, `Test bound: more than ${TEST_BOUND} requests in one poll`);
		};
		const polls: PollFigure[] = [];
		const emitted: unknown[] = [];
		let activation: PollFigure;
		let h: PollHarness | undefined;
		const parameters: INodeParameters = { event: c.event, ...c.parameters, options: s.maxRecords ? { maxRecordsPerPoll: s.maxRecords } : {} };
		try {
			h = await t.activate(parameters);
			activation = { items: h.executions.flat().length, requests: pollRequests };
			emitted.push(...h.executions.flat().map((i) => i.json.id));
		} catch (error) {
			activation = { items: 0, requests: pollRequests, error: (error as Error).message };
		}
		const made: string[] = [];
		let index = 0;
		const pollOnce = async () => {
			pollRequests = 0;
			const errorsBefore = h!.errors.length;
			const items = await h!.pollJson();
			emitted.push(...ids(items));
			const error = h!.errors.length > errorsBefore ? h!.errors.at(-1)!.message : undefined;
			polls.push({ items: items.length, requests: pollRequests, ...(error ? { error } : {}) });
		};
		if (h) {
			for (const batch of s.batches) {
				for (const at of batch) {
					const id = c.produce(t, at, index, prepared);
					if (s.dateless?.includes(index)) unusable(store(id), status ? ['updatedAt'] : dateFields, index);
					made.push(id);
					index++;
				}
				await pollOnce();
			}
			for (let k = 0; k < s.idle; k++) await pollOnce();
		}
		const counts = new Map<unknown, number>();
		for (const id of emitted) counts.set(id, (counts.get(id) ?? 0) + 1);
		const figures = {
			scenario: s.name,
			event: c.event,
			records: made.length,
			emitted: emitted.length,
			distinct: counts.size,
			missing: made.filter((id) => !counts.has(id)).length,
			baselineEmitted: baseline.filter((id) => counts.has(id)).length,
			activation,
			polls,
		};
		const file = figuresFile();
		if (file) appendFileSync(file, `${JSON.stringify(figures)}\n`);
		return { made, baseline, counts, activation, polls, figures };
	}

	function expectExactlyOnce(r: Awaited<ReturnType<typeof run>>): void {
		expect(r.activation.error).toBeUndefined();
		expect(r.polls.filter((p) => p.error)).toEqual([]);
		expect(r.made.filter((id) => r.counts.get(id) !== 1)).toEqual([]);
		expect([...r.counts.keys()].filter((id) => !r.made.includes(String(id)))).toEqual([]);
	}

	/** Every poll within Max Requests per Poll; an idle poll of a cursor event costs one or two requests. */
	function expectBounded(r: Awaited<ReturnType<typeof run>>, idle: number, idleMost = 2): void {
		for (const p of [r.activation, ...r.polls]) expect(p.requests).toBeLessThanOrEqual(DEFAULT_MAX_REQUESTS);
		const idlePolls = r.polls.slice(r.polls.length - idle);
		expect(idlePolls.map((p) => p.items)).toEqual(idlePolls.map(() => 0));
		if (c.cursor) expect(idlePolls.map((p) => p.requests).filter((n) => n > idleMost)).toEqual([]);
	}

	const spread = (from: number, n: number) => Array.from({ length: n }, (_, k) => from + k);

	it('dates as epoch milliseconds (numbers): each record emitted once', async () => {
		const r = await run(plain, { name: 'numeric dates', rule: { mode: 'dates', form: 'epochMs' }, batches: [spread(10, 7), spread(20, 6)], idle: 2, existing: 3 });
		expectExactlyOnce(r);
		expectBounded(r, 2);
	});

	it('dates in mixed forms (ISO, epoch seconds and ms as numbers and text, no zone, +00:00): each record emitted once', async () => {
		const r = await run(seconds, { name: 'mixed dates', rule: { mode: 'dates', form: 'mixed' }, batches: [spread(10, 7), spread(20, 6)], idle: 2, existing: 3 });
		expectExactlyOnce(r);
		expectBounded(r, 2);
	});

	it('records without a usable date: the ones of the baseline never, a new one once, and they never move the cursor', async () => {
		const r = await run(plain, {
			name: 'dateless records',
			batches: [spread(10, 6), spread(20, 6)],
			dateless: [0, 2, 4, 6, 8, 10],
			existingDateless: 4,
			idle: 2,
		});
		expectExactlyOnce(r);
		expectBounded(r, 2);
	});

	it('a platform that ignores the date filter: each record once, every poll bounded', async () => {
		takeLogged();
		const r = await run(plain, { name: 'date filter ignored', rule: { mode: 'ignoreDateFilter' }, batches: [spread(10, 7), spread(20, 6)], idle: 2, existing: 30 });
		expectExactlyOnce(r);
		// Said in n8n's log, once per poll that found it.
		const warnings = takeLogged('warn');
		expect(warnings.length).toBeGreaterThan(0);
		for (const line of warnings) expect(line).toMatch(/^Sales & Payments Polling Trigger: the platform ignored the date filter of \/\S+ \(records outside the dates asked\); the whole list is read page by page$/);
		// Read whole: the list (12 seeded, 30 before activation, 13 new) takes six pages of 10.
		expectBounded(r, 2, 8);
	});

	it('a page order that flips between pages: records on distinct dates are each emitted once', async () => {
		const r = await run(plain, { name: 'order flips (distinct dates)', rule: { mode: 'flipOrder' }, batches: [spread(10, 25)], idle: 2, maxRecords: 100 });
		expectExactlyOnce(r);
		expectBounded(r, 2);
	});

	it('a page order that flips between pages on 25 records of one millisecond: each once, or the poll fails naming it', async () => {
		const r = await run(plain, { name: 'order flips (one timestamp)', rule: { mode: 'flipOrder' }, batches: [Array(25).fill(30)], idle: 2 });
		const failed = [r.activation, ...r.polls].filter((p) => p.error);
		if (failed.length === 0) {
			expectExactlyOnce(r);
			return;
		}
		// Never silent: the error names the order; nothing emitted twice.
		for (const p of failed) expect(p.error).toMatch(/order/i);
		expect([...r.counts.values()].filter((n) => n > 1)).toEqual([]);
	});

	it.each([50, 1000])('a tie of %i records on one millisecond: each once, the idle polls after it cost one or two requests', async (n) => {
		const r = await run(plain, { name: `tie of ${n}`, batches: [Array(n).fill(30)], idle: 2, maxRecords: 1000 });
		expectExactlyOnce(r);
		expectBounded(r, 2);
		const figures = r.figures as IDataObject;
		expect(figures.records).toBe(n);
	});
});

describe('Polling trigger: a platform that ignores the date filter of a long list', () => {
	const t = pollingSetup({ maxLimit: 100 });

	it.each(['start', 'both'] as const)('5,000 records answered whatever the dates asked (ignored: %s; 100 a page): each poll reads the list once, new records once', async (ignored) => {
		for (let k = 0; k < 5000; k++) t.add('customers', -4000 + (k % 3000), { name: `Old ${k}` });
		t.clockAt(0);
		t.sim().paging.add({ mode: 'ignoreDateFilter', ...(ignored === 'start' ? { bound: 'start' as const } : {}) });
		let requests = 0;
		t.sim().onRequest = () => {
			if (++requests > TEST_BOUND) throw new SimError(400, `Test bound: more than ${TEST_BOUND} requests in one poll`);
		};
		const figures: PollFigure[] = [];
		const emitted: unknown[] = [];
		const made: string[] = [];
		let h: PollHarness | undefined;
		try {
			h = await t.activate({ event: 'customerCreated' });
			figures.push({ items: h.executions.flat().length, requests });
		} catch (error) {
			figures.push({ items: 0, requests, error: (error as Error).message });
		}
		for (let poll = 0; h && poll < 3; poll++) {
			if (poll < 2) made.push(...Array.from({ length: 5 }, (_, k) => String(t.add('customers', 10 * (poll + 1) + k).id)));
			requests = 0;
			const items = await h.pollJson();
			emitted.push(...ids(items));
			figures.push({ items: items.length, requests, ...(h.errors.length ? { error: h.errors.at(-1)!.message } : {}) });
		}
		const file = figuresFile();
		if (file) appendFileSync(file, `${JSON.stringify({ scenario: `date filter ignored (${ignored}), 5,000 records, 100 a page`, event: 'customerCreated', records: made.length, emitted: emitted.length, polls: figures })}\n`);
		expect(figures.filter((f) => f.error)).toEqual([]);
		expect(emitted.map(String).sort()).toEqual([...made].sort());
		// 5,012 records at 100 a page: 51 pages, plus the request that found the filter ignored (and the page sizes refused at activation).
		for (const f of figures) expect(f.requests).toBeLessThanOrEqual(60);
	});
});

describe('Polling trigger: Max Requests per Poll', () => {
	const t = pollingSetup({ maxLimit: PAGE });

	it('no poll sends more; a busy range is read over several polls, each record once', async () => {
		// 12: the activation learns the page size (six sizes refused) within it.
		const h = await t.activate({ event: 'customerCreated', options: { maxRequestsPerPoll: 12 } });
		const made = Array.from({ length: 150 }, (_, k) => String(t.add('customers', 10 + k).id));
		const emitted: unknown[] = [];
		const costs: number[] = [];
		for (let poll = 0; poll < 12; poll++) {
			const before = t.sim().apiRequests.length;
			emitted.push(...ids(await h.pollJson()));
			costs.push(t.sim().apiRequests.length - before);
		}
		expect(h.errors).toEqual([]);
		expect(costs.filter((n) => n > 12)).toEqual([]);
		expect(emitted.map(String).sort()).toEqual([...made].sort());
		// Once everything is read, an idle poll is two requests again.
		expect(costs.slice(-2)).toEqual([2, 2]);
	});

	it('a tie larger than the requests left can page fails the poll naming the option; the cursor stays', async () => {
		const h = await t.activate({ event: 'customerCreated', options: { maxRequestsPerPoll: 12 } });
		Array.from({ length: 200 }, () => t.add('customers', 30));
		const state = JSON.stringify(h.nodeStaticData);
		const before = t.sim().apiRequests.length;
		expect(await h.poll()).toBeUndefined();
		expect(t.sim().apiRequests.length - before).toBeLessThanOrEqual(12);
		expect(h.errors.map((e) => e.message)).toEqual([expect.stringContaining('Max Requests per Poll (12) reached')]);
		expect(JSON.stringify(h.nodeStaticData)).toBe(state);
	});

	it('a value out of range is refused before any request, naming the field', async () => {
		await expect(t.activate({ event: 'customerCreated', options: { maxRequestsPerPoll: 1 } })).rejects.toThrow(
			'Max Requests per Poll must be a whole number from 2 to',
		);
		expect(t.sim().apiRequests).toHaveLength(0);
	});
});

describe('Polling trigger: pages that never add up to the total', () => {
	const t = pollingSetup({ maxLimit: PAGE });

	it('read again at smaller page sizes, still short: the poll fails naming the platform\'s order; nothing emitted, the cursor stays', async () => {
		const h = await t.activate({ event: 'customerCreated' });
		const tied = Array.from({ length: 25 }, () => String(t.add('customers', 30).id));
		// One record is counted in every total but shown on no page, whatever the page size.
		t.sim().onAnswer = (_request, data) => {
			const page = data as { docs?: Array<{ id?: unknown }> };
			if (Array.isArray(page.docs)) page.docs = page.docs.filter((r) => r.id !== tied[7]);
		};
		const state = JSON.stringify(h.nodeStaticData);
		const before = t.sim().apiRequests.length;
		expect(await h.poll()).toBeUndefined();
		expect(h.errors.map((e) => e.message)).toEqual([
			expect.stringMatching(/^The platform's order of GET \/customers\/list changes from page to page: 24 different records in \d+ pages, for a total of 25$/),
		]);
		// Bounded: three readings of the tied millisecond at smaller page sizes, and the windows before.
		expect(t.sim().apiRequests.length - before).toBeLessThan(60);
		expect(h.executions).toHaveLength(0);
		expect(JSON.stringify(h.nodeStaticData)).toBe(state);
	});
});
