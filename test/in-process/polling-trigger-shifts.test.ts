/**
 * The polling trigger's guarantee, for every event, on the simulator's settable clock with a
 * platform that answers at most 10 records per page (so one poll takes many requests):
 * - a record deleted, inserted, or both (the list's total unchanged) while a poll reads is never
 *   lost, and nothing is reported twice;
 * - a record dated 3 hours ahead is reported once, and the records made after it with correct
 *   dates are reported too (the cursor stays behind the poll's own clock);
 * - n8n's clock 2 minutes ahead of or behind the platform's loses nothing.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollHarness } from '../support/harness/poll';
import { ids, pollingSetup } from '../support/helpers/polling';
import { EVENT_CASES as CASES } from '../support/helpers/polling-events';
import type { JsonObject } from '../support/simulator/core';
import { removeRecord } from '../support/simulator/routes/records';

/** The records of a list answer's data. */
function recordsOf(data: unknown): JsonObject[] {
	const d = (data ?? {}) as IDataObject;
	const list = d.docs ?? d.movements ?? (d.paymentLinks as IDataObject | undefined)?.docs;
	return Array.isArray(list) ? (list as JsonObject[]) : [];
}

/** Polls until a poll reports nothing (at most 8 polls); every id reported, in order. */
async function pollUntilQuiet(h: PollHarness): Promise<unknown[]> {
	const reported: unknown[] = [];
	for (let n = 0; n < 8; n++) {
		const items = await h.pollJson();
		if (items.length === 0) return reported;
		reported.push(...ids(items));
	}
	throw new Error('the trigger kept reporting records');
}

function countsOf(list: unknown[]): Map<unknown, number> {
	const counts = new Map<unknown, number>();
	for (const id of list) counts.set(id, (counts.get(id) ?? 0) + 1);
	return counts;
}

describe.each(CASES)('Polling trigger $event: the platform changes while a poll reads', (c) => {
	const t = pollingSetup({ maxLimit: 10 });
	const RECORDS = 25;

	/** Activation, then RECORDS records for the event one minute apart (25 minutes: more than the look-back window). */
	async function start(extra = 1): Promise<{ h: PollHarness; made: string[]; prepared: JsonObject[] }> {
		const prepared = c.prepare?.(t, RECORDS + extra) ?? [];
		const h = await t.activate({ event: c.event, ...c.parameters });
		const made = Array.from({ length: RECORDS }, (_, k) => c.produce(t, 60 * (k + 1), k, prepared));
		return { h, made, prepared };
	}

	/** After the first answer of the list that holds one of `made`, runs `change` once with that record. */
	function meanwhile(made: string[], change: (first: string) => void): () => boolean {
		let done = false;
		t.sim().onAnswer = (request, data) => {
			if (done || !request.path.startsWith(c.path)) return;
			const first = recordsOf(data).find((r) => made.includes(String(r.id)));
			if (!first) return;
			done = true;
			change(String(first.id));
		};
		return () => done;
	}

	function expectOnce(reported: unknown[], expected: string[], atMostOnce: string[] = []): void {
		const counts = countsOf(reported);
		expect(expected.filter((id) => counts.get(id) !== 1)).toEqual([]);
		expect([...counts.entries()].filter(([id, n]) => n > 1 || (!expected.includes(String(id)) && !atMostOnce.includes(String(id))))).toEqual([]);
	}

	it('a record deleted while a poll reads: every other record is reported once', async () => {
		const { h, made } = await start();
		let deleted = '';
		const happened = meanwhile(made, (id) => {
			deleted = id;
			removeRecord(t.sim(), c.collection, id);
		});
		const reported = await pollUntilQuiet(h);
		expect(happened()).toBe(true);
		expectOnce(reported, made.filter((id) => id !== deleted), [deleted]);
	});

	it('a record inserted while a poll reads is reported once, and every other record once', async () => {
		const { h, made, prepared } = await start();
		let inserted = '';
		const happened = meanwhile(made, () => {
			inserted = c.produce(t, 60 * RECORDS, RECORDS, prepared);
		});
		const reported = await pollUntilQuiet(h);
		expect(happened()).toBe(true);
		expectOnce(reported, [...made, inserted]);
	});

	it('a deletion and an insertion in one poll (the total unchanged): nothing lost, nothing twice', async () => {
		const { h, made, prepared } = await start();
		let deleted = '';
		let inserted = '';
		const happened = meanwhile(made, (id) => {
			deleted = id;
			removeRecord(t.sim(), c.collection, id);
			// Dated in the middle of the range (a record the platform shows late): it lands among
			// records not read yet whatever the list's order, and the total stays the same.
			inserted = c.produce(t, 60 * (RECORDS / 2) + 30, RECORDS, prepared);
			t.clockAt(60 * RECORDS);
		});
		const reported = await pollUntilQuiet(h);
		expect(happened()).toBe(true);
		// The late record is older than the look-back window when the poll ends: it may go unreported, never twice.
		expectOnce(reported, made.filter((id) => id !== deleted), [deleted, inserted]);
	});

	it('a deletion while a later poll reads makes nothing reported again', async () => {
		const { h, made } = await start();
		expectOnce(await pollUntilQuiet(h), made);
		const happened = meanwhile(made, (id) => removeRecord(t.sim(), c.collection, id));
		expect(await h.pollJson()).toEqual([]);
		expect(happened()).toBe(true);
		expect(await pollUntilQuiet(h)).toEqual([]);
	});
});

describe.each(CASES)('Polling trigger $event: dates ahead of the clock, and clocks that differ', (c) => {
	const t = pollingSetup();

	it('a record dated 3 hours ahead is reported once; the records made after it are reported too', async () => {
		const prepared = c.prepare?.(t, 6) ?? [];
		const h = await t.activate({ event: c.event, ...c.parameters });
		const ahead = c.produce(t, 3 * 3600, 0, prepared);
		t.clockAt(60);
		expect(ids(await h.pollJson())).toEqual([ahead]);
		const a = c.produce(t, 120, 1, prepared);
		expect(ids(await h.pollJson())).toEqual([a]);
		const b = c.produce(t, 180, 2, prepared);
		expect(ids(await h.pollJson())).toEqual([b]);
		expect(await h.pollJson()).toEqual([]);
		if (c.cursor) {
			// The cursor stays behind the poll's own clock (less one minute; n8n's clock ran a few ms during the poll).
			const state = h.nodeStaticData.pollState as IDataObject;
			expect(Number(state.ts)).toBeLessThanOrEqual(t.base() + (180 - 60 + 1) * 1000);
		}
		// Once the clock has passed that date, it is still not reported again.
		const later = c.produce(t, 3 * 3600 + 120, 3, prepared);
		expect(ids(await h.pollJson())).toEqual([later]);
		const last = c.produce(t, 3 * 3600 + 900, 4, prepared);
		expect(ids(await h.pollJson())).toEqual([last]);
		expect(await h.pollJson()).toEqual([]);
	});

	if (c.cursor) {
		it('a cursor left 3 hours ahead by an earlier version is brought back: records made since are reported', async () => {
			const prepared = c.prepare?.(t, 3) ?? [];
			const h = await t.activate({ event: c.event, ...c.parameters });
			// What the previous version saved after reading a record dated 3 hours ahead.
			const state = h.nodeStaticData.pollState as IDataObject;
			state.ts = t.base() + 3 * 3600 * 1000;
			const a = c.produce(t, 60, 0, prepared);
			const b = c.produce(t, 70, 1, prepared);
			expect(ids(await h.pollJson()).sort()).toEqual([a, b].sort());
			expect(Number((h.nodeStaticData.pollState as IDataObject).ts)).toBeLessThanOrEqual(t.base() + (70 - 60 + 1) * 1000);
			expect(await h.pollJson()).toEqual([]);
		});
	}

	it.each([120, -120])("n8n's clock %i s off the platform's: every record reported once", async (skew) => {
		t.skew(skew);
		const prepared = c.prepare?.(t, 4) ?? [];
		const h = await t.activate({ event: c.event, ...c.parameters });
		const a = c.produce(t, 30, 0, prepared);
		expect(ids(await h.pollJson())).toEqual([a]);
		const b = c.produce(t, 90, 1, prepared);
		const d = c.produce(t, 95, 2, prepared);
		expect(ids(await h.pollJson()).sort()).toEqual([b, d].sort());
		expect(await h.pollJson()).toEqual([]);
		await h.restart();
		expect(h.executions).toHaveLength(2);
		const e = c.produce(t, 400, 3, prepared);
		expect(ids(await h.pollJson())).toEqual([e]);
	});
});

describe('Polling trigger: a platform that ignores the end date of a window', () => {
	const t = pollingSetup({ maxLimit: 10 });

	it('is detected; the rest of the range is read page by page, and every record is reported once', async () => {
		const h = await t.activate({ event: 'customerCreated' });
		const made = Array.from({ length: 25 }, (_, k) => String(t.add('customers', 60 * (k + 1), { name: `Buyer ${k}` }).id));
		t.sim().onRequest = (request) => {
			delete request.query['createdAt[endsAt]'];
		};
		const reported = await pollUntilQuiet(h);
		expect(reported.map(String).sort()).toEqual([...made].sort());
		// The first window's answer held records after its end: the range was then paged (page 2 and on).
		const reads = t.sim().requestsTo('GET', '/customers/list').filter((r) => r.status === 200);
		expect(reads.some((r) => r.query.page === '2')).toBe(true);
	});
});
