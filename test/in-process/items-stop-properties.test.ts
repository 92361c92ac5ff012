/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Seeded generative tests (issue 51) of a run's items side by side, on a simulated clock:
 *
 * - the scheduler alone (transport/items.ts): random keys (records, independent, ALONE), random
 *   durations and failures, limits that change; after every event, no free slot stays unused while
 *   an item may start (a waiting item never blocks items of other records), and every start keeps
 *   the rules (same record after the earlier item settled, ALONE alone, nothing after a stop);
 * - the whole action node (SalesPayments.execute, its lane, gate and transport) on jest's fake
 *   timers against a scripted platform: Voucher › Redeem items with random records and unreadable
 *   IDs, answers 200, 429 with Retry-After, 422, 500 and lost connections, random latencies, fixed
 *   and automatic lanes, with and without Continue On Fail. No request starts after the lane
 *   stopped for an earlier item (no first attempt, no retry after a pause); an item never starts
 *   before the earlier item of its record was answered; outputs keep the input order; no item
 *   runs twice; the error is the lowest failing item's and names each later item by what the
 *   platform did with it.
 *
 * The context handed to the node is a small fake of n8n's (the cases through n8n-core are in
 * items-stop.test.ts and items-side-by-side.test.ts).
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';

import { SalesPayments } from '../../nodes/SalesPayments/SalesPayments.node';
import { Lane } from '../../nodes/SalesPayments/transport/gate';
import type { ItemKey } from '../../nodes/SalesPayments/transport/items';
import { ALONE, INDEPENDENT, runItems } from '../../nodes/SalesPayments/transport/items';
import { rng } from '../support/simulator/state';

const SEEDS = Array.from({ length: 200 }, (_, n) => n + 1);

/** Lets every pending promise callback run (a real macrotask turn). */
const flush = async () => await new Promise<void>((resolve) => setImmediate(resolve));

/** What the scheduler's scenarios reached: an item passed while it waited for its record, an ALONE item, a stop. */
const passed = { overtaken: 0, alone: 0, stopped: 0 };

describe('the scheduler alone: work-conserving, chained, alone, stopped', () => {
	it.each(SEEDS)('seed %p', async (seed) => {
		const random = rng(seed * 7919);
		const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
		const count = int(1, 60);
		const records = int(1, 6);
		const pAlone = random() < 0.5 ? 0 : 0.08;
		const pIndependent = random() * 0.5;
		const keys: ItemKey[] = Array.from({ length: count }, () => {
			const r = random();
			if (r < pAlone) return ALONE;
			if (r < pAlone + pIndependent) return INDEPENDENT;
			return `r${int(1, records)}`;
		});
		const pFail = random() < 0.4 ? 0 : random() * 0.2;
		const fails = keys.map(() => random() < pFail);
		const durations = keys.map(() => int(1, 100));
		const stopOnFailure = random() < 0.6;
		let limit = int(1, 8);
		const varying = random() < 0.5;

		// The simulated clock: settling events in time order.
		let now = 0;
		const pending: Array<{ at: number; i: number; settle(): void }> = [];
		const started = new Set<number>();
		const settled = new Set<number>();
		const running = new Set<number>();
		let stopAfter = Infinity;
		const violations: string[] = [];

		/** Whether item j may start now, by the rules (not counting the limit). */
		const startable = (j: number): boolean => {
			if (started.has(j) || j > stopAfter) return false;
			if ([...running].some((r) => keys[r] === ALONE)) return false;
			for (let i = 0; i < j; i++) {
				if (settled.has(i)) continue;
				// An earlier item not settled: an ALONE one, or any one for an ALONE item, or one of the same record holds it back.
				if (keys[i] === ALONE || keys[j] === ALONE || (typeof keys[j] === 'string' && keys[i] === keys[j])) return false;
			}
			return true;
		};

		let overtaken = false;
		const run = async (i: number): Promise<number> => {
			// An earlier item not started yet, waiting for its record: this one passes it.
			if (keys.some((key, j) => j < i && !started.has(j) && typeof key === 'string' && key !== keys[i])) overtaken = true;
			if (started.has(i)) violations.push(`item ${i} started twice`);
			if (!startable(i)) violations.push(`item ${i} started against the rules at ${now}`);
			if (running.size >= limit) violations.push(`item ${i} started over the limit ${limit}`);
			started.add(i);
			running.add(i);
			return await new Promise<number>((resolve, reject) => {
				pending.push({
					at: now + durations[i],
					i,
					settle: () => {
						running.delete(i);
						settled.add(i);
						if (fails[i]) {
							if (stopOnFailure) stopAfter = Math.min(stopAfter, i);
							reject(new Error(`item ${i} failed`));
						} else resolve(i * 10);
					},
				});
			});
		};

		let outcomes: Awaited<ReturnType<typeof runItems<number>>> | undefined;
		const done = runItems({ count, keyOf: (i) => keys[i], limit: () => limit, run, stopOnFailure }).then((o) => (outcomes = o));
		for (let steps = 0; outcomes === undefined; steps++) {
			await flush();
			// After the scheduler had its turn: a free slot is never left while an item may start.
			if (running.size < limit) {
				const waiting = keys.findIndex((_, j) => startable(j));
				if (waiting >= 0) violations.push(`at ${now}: ${running.size} running of ${limit}, item ${waiting} could start`);
			}
			if (outcomes !== undefined || pending.length === 0 || steps > 10_000) break;
			pending.sort((a, b) => a.at - b.at || a.i - b.i);
			const event = pending.shift()!;
			now = event.at;
			if (varying) limit = int(1, 8);
			event.settle();
		}
		await done;
		if (overtaken) passed.overtaken++;
		if (keys.some((key, i) => key === ALONE && started.has(i))) passed.alone++;
		if (stopAfter < count - 1) passed.stopped++;
		expect(violations).toEqual([]);
		expect(outcomes).toBeDefined();
		const result = outcomes!;
		// Every item up to the stop ran, each once, its outcome at its index; none after it started.
		for (let i = 0; i < count; i++) {
			if (i <= stopAfter) {
				expect(started.has(i)).toBe(true);
				expect(result[i]).toEqual(fails[i] ? { ok: false, error: new Error(`item ${i} failed`) } : { ok: true, value: i * 10 });
			} else expect(result[i] === undefined || started.has(i)).toBe(true);
		}
		if (!stopOnFailure) expect(started.size).toBe(count);
	});

	it('the scenarios reach items passed while they wait for their record, ALONE items and stops', () => {
		expect(Math.min(passed.overtaken, passed.alone, passed.stopped)).toBeGreaterThan(20);
	});
});

// ---------------------------------------------------------------------------------------------
// The whole node against a scripted platform on jest's fake timers.

type Answer = { ms: number; status: number; retryAfter?: string } | { ms: number; reset: true };

interface Scenario {
	ids: string[];
	scripts: Answer[][];
	fixed: number | undefined;
	continueOnFail: boolean;
	maxRetries: number;
}

function scenarioOf(seed: number): Scenario {
	const random = rng(seed * 104729);
	const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
	const count = int(2, 40);
	const records = int(1, 8);
	const pAlone = random() < 0.7 ? 0 : 0.03;
	const p429 = 0.1 + random() * 0.5;
	const pFail = random() < 0.2 ? 0 : 0.02 + random() * 0.08;
	const ids = Array.from({ length: count }, () => (random() < pAlone ? '' : `v${int(1, records)}`));
	// Retry-After of seconds against answers of at most 300 ms: retries often wait while other items fail.
	const scripts = ids.map(() =>
		Array.from({ length: 5 }, (): Answer => {
			const ms = int(1, 300);
			const r = random();
			if (r < p429) return { ms, status: 429, retryAfter: String(int(1, 4)) };
			if (r < p429 + pFail) {
				// Failures come late: the items after them are sent, some refused and waiting to retry.
				const kind = int(0, 2);
				const late = ms + int(0, 900);
				return kind === 2 ? { ms: late, reset: true } : { ms: late, status: kind === 0 ? 422 : 500 };
			}
			return { ms, status: 200 };
		}),
	);
	const fixed = random() < 0.5 ? undefined : int(1, 8);
	return { ids, scripts, fixed, continueOnFail: random() < 0.2, maxRetries: random() < 0.1 ? 0 : int(1, 3) };
}

type Event = { kind: 'send'; item: number; seq: number; attempt: number } | { kind: 'answer'; item: number; seq: number; answer: Answer } | { kind: 'stop'; item: number; seq: number };

/** A platform that answers each item's attempts from its script, each after its latency. */
function platformFor(scenario: Scenario, log: Event[], next: () => number) {
	const attempts = scenario.ids.map(() => 0);
	return (options: IHttpRequestOptions) => {
		const item = Number((options.body as IDataObject).item);
		const attempt = attempts[item]++;
		log.push({ kind: 'send', item, seq: next(), attempt });
		const answer = scenario.scripts[item][attempt] ?? { ms: 1, status: 200 };
		return new Promise((resolve, reject) => {
			setTimeout(() => {
				log.push({ kind: 'answer', item, seq: next(), answer });
				if ('reset' in answer) return reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
				const voucherId = String(options.url).split('/').pop();
				const body =
					answer.status === 200
						? { statusCode: 200, data: { voucher: { id: voucherId, status: 'redeemed', item } } }
						: { statusCode: answer.status, message: `Refused ${answer.status}`, error: 'Refused' };
				resolve({ statusCode: answer.status, headers: answer.retryAfter === undefined ? {} : { 'retry-after': answer.retryAfter }, body });
			}, answer.ms);
		});
	};
}

function contextFor(seed: number, scenario: Scenario, send: ReturnType<typeof platformFor>): IExecuteFunctions {
	const node = { id: 'n', name: 'Sales & Payments', type: 'n8n-nodes-sales-payments.salesPayments', typeVersion: 1, position: [0, 0], parameters: {}, credentials: { salesPaymentsApi: { id: 'c', name: 'c' } } };
	const parameters = (i: number): Record<string, unknown> => ({
		resource: 'voucher',
		operation: 'redeem',
		voucherId: scenario.ids[i],
		additionalFields: { extraFields: JSON.stringify({ item: i }) },
		requestOptions: { maxConcurrency: scenario.fixed ?? 0, maxRetries: scenario.maxRetries },
	});
	return {
		getInputData: () => scenario.ids.map((): INodeExecutionData => ({ json: {} })),
		getNodeParameter: (name: string, i: number, fallback?: unknown) => parameters(i)[name] ?? fallback,
		continueOnFail: () => scenario.continueOnFail,
		getNode: () => node,
		// A credential of its own per scenario: a gate of its own.
		getCredentials: async () => await Promise.resolve({ baseUrl: 'https://platform.test', apiKey: `key-${seed}`, apiSecret: 'secret-value', businessId: 'biz1' }),
		helpers: { httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => await send(options) },
	} as unknown as IExecuteFunctions;
}

/** Item indexes named by one sentence of the error's description ("Items 3-5, 8 were not sent."). */
function named(description: string, words: string): number[] {
	const found = new RegExp(`Items? ([0-9, -]+) ${words}`).exec(description)?.[1];
	if (found === undefined) return [];
	return found.split(', ').flatMap((part) => {
		const [from, to] = part.split('-').map(Number);
		return Array.from({ length: (to ?? from) - from + 1 }, (_, k) => from + k);
	});
}

/** What the scenarios reached, over every seed: the generator must reach the cases the rules are about. */
const reached = { stopped: 0, retryWaitingAtStop: 0, chained: 0, fixed: 0, automatic: 0, continued: 0 };

describe('the whole node on a simulated clock: a stop is a stop, chains, order, once', () => {
	let stops: jest.SpyInstance;
	beforeEach(() => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate'] });
	});
	afterEach(() => {
		stops?.mockRestore();
		jest.useRealTimers();
	});

	it.each(SEEDS)('seed %p', async (seed) => {
		const scenario = scenarioOf(seed);
		const log: Event[] = [];
		let seq = 0;
		const next = () => ++seq;
		const stop = Lane.prototype.stop;
		stops = jest.spyOn(Lane.prototype, 'stop').mockImplementation(function (this: Lane, item: number) {
			log.push({ kind: 'stop', item, seq: next() });
			stop.call(this, item);
		});
		const context = contextFor(seed, scenario, platformFor(scenario, log, next));
		let result: { out?: INodeExecutionData[][]; error?: Error & { description?: string; context?: { itemIndex?: number } } } | undefined;
		void new SalesPayments().execute.call(context).then(
			(out) => (result = { out }),
			(error: Error) => (result = { error }),
		);
		for (let steps = 0; result === undefined; steps++) {
			if (steps > 20_000 || jest.getTimerCount() === 0) await flush();
			if (result !== undefined) break;
			if (steps > 20_000) throw new Error(`seed ${seed}: the run did not end`);
			await jest.advanceTimersToNextTimerAsync();
		}
		const { ids, scripts, maxRetries, continueOnFail } = scenario;
		const count = ids.length;
		const sends = log.filter((e): e is Extract<Event, { kind: 'send' }> => e.kind === 'send');
		const answers = log.filter((e): e is Extract<Event, { kind: 'answer' }> => e.kind === 'answer');

		const firstStop = log.find((e) => e.kind === 'stop');
		if (firstStop) {
			reached.stopped++;
			// A later item refused with 429 before the stop, not answered for good by then: its retry waited.
			const lastBeforeStop = (item: number) => answers.filter((a) => a.item === item && a.seq < firstStop.seq).at(-1)?.answer;
			const waiting = sends.some((s) => {
				const last = s.item > firstStop.item ? lastBeforeStop(s.item) : undefined;
				const tries = sends.filter((x) => x.item === s.item && x.seq < firstStop.seq).length;
				return last !== undefined && 'status' in last && last.status === 429 && tries <= scenario.maxRetries;
			});
			if (waiting) reached.retryWaitingAtStop++;
		}
		if (scenario.fixed === undefined) reached.automatic++;
		else reached.fixed++;
		if (continueOnFail) reached.continued++;
		if (ids.some((id, j) => id !== '' && ids.indexOf(id) < j && sends.some((s) => s.item === j))) reached.chained++;
		// The run ends once every request sent was answered: none is left behind in flight.
		expect(answers).toHaveLength(sends.length);
		// No request starts after the lane stopped for an earlier item: no first attempt, no retry.
		for (const s of sends) {
			const before = log.find((e) => e.kind === 'stop' && e.seq < s.seq && e.item < s.item);
			if (before) throw new Error(`seed ${seed}: item ${s.item} attempt ${s.attempt} sent after the stop at item ${before.item}`);
		}
		if (continueOnFail) expect(log.filter((e) => e.kind === 'stop')).toEqual([]);
		// An unreadable ID runs alone and fails before any request: without Continue On Fail, no later item is sent.
		const alone = ids.indexOf('');
		if (!continueOnFail && alone >= 0) expect(sends.filter((s) => s.item > alone)).toEqual([]);

		// Each item: its attempts in order, a retry only after a 429, at most Max Retries of them.
		for (let i = 0; i < count; i++) {
			const mine = sends.filter((s) => s.item === i);
			expect(mine.map((s) => s.attempt)).toEqual(mine.map((_, k) => k));
			expect(mine.length).toBeLessThanOrEqual(maxRetries + 1);
			for (let k = 0; k + 1 < mine.length; k++) expect(scripts[i][k]).toMatchObject({ status: 429 });
		}

		// Chains: an item's first attempt comes after the last answer of every earlier item of its record.
		for (let j = 0; j < count; j++) {
			const first = sends.find((s) => s.item === j);
			if (first === undefined || ids[j] === '') continue;
			for (let i = 0; i < j; i++) {
				if (ids[i] !== ids[j]) continue;
				const lastAnswer = answers.filter((a) => a.item === i).at(-1);
				if (lastAnswer !== undefined && lastAnswer.seq > first.seq) throw new Error(`seed ${seed}: item ${j} sent before item ${i} of its record was answered`);
			}
		}

		// What each item ended with, from the platform's side.
		const final = (i: number) => {
			const mine = answers.filter((a) => a.item === i);
			return mine.at(-1)?.answer;
		};
		const succeeded = (i: number) => {
			const last = final(i);
			return last !== undefined && 'status' in last && last.status === 200;
		};
		if (result!.error === undefined) {
			// Outputs: one per item, in input order, each the answer to its own item (or its error item).
			const out = result!.out![0];
			expect(out.map((o) => (o.pairedItem as { item: number }).item)).toEqual(ids.map((_, i) => i));
			for (let i = 0; i < count; i++) {
				if (succeeded(i)) expect(out[i].json).toMatchObject({ id: ids[i], item: i });
				else expect(continueOnFail).toBe(true);
			}
			return;
		}
		expect(continueOnFail).toBe(false);
		const error = result!.error;
		const failed = error.context?.itemIndex as number;
		// The error is the lowest item that failed; every item before it succeeded.
		for (let i = 0; i < failed; i++) expect(succeeded(i)).toBe(true);
		expect(ids[failed] === '' || !succeeded(failed)).toBe(true);
		// Every later item is named once, by what the platform did with it.
		const description = error.description ?? '';
		const done = named(description, 'w(?:as|ere) carried out');
		const unsure = named(description, 'may have been carried out');
		const refused = named(description, 'w(?:as|ere) refused');
		const notSent = named(description, 'w(?:as|ere) not sent');
		const expected = { done: [] as number[], unsure: [] as number[], refused: [] as number[], notSent: [] as number[] };
		for (let j = failed + 1; j < count; j++) {
			const got = answers.filter((a) => a.item === j).map((a) => a.answer);
			if (got.some((a) => 'status' in a && a.status === 200)) expected.done.push(j);
			else if (got.some((a) => 'reset' in a || a.status >= 500)) expected.unsure.push(j);
			else if (got.length > 0) expected.refused.push(j);
			else expected.notSent.push(j);
		}
		expect({ done, unsure, refused, notSent }).toEqual(expected);
		expect(description).not.toContain('secret-value');
	});

	it('the scenarios reach a stop while later retries wait, chains, fixed and automatic lanes, Continue On Fail', () => {
		expect(reached.stopped).toBeGreaterThan(SEEDS.length / 3);
		expect(reached.retryWaitingAtStop).toBeGreaterThan(15);
		expect(reached.chained).toBeGreaterThan(SEEDS.length / 2);
		expect(Math.min(reached.fixed, reached.automatic, reached.continued)).toBeGreaterThan(15);
	});
});
