/**
 * The record set of the items output on its own (issue 33): SeenRecords must stay exact whatever
 * the ids look like (types, growth to 200,000, ids alike). Whole walks (repeats, caps, contradictions) run through n8n-core in the pagination-*.test.ts files.
 */
import { SeenRecords } from '../../nodes/SalesPayments/paging/walk';

describe('SeenRecords', () => {
	it('knows records by id with its type (1 and "1" differ), else by content whatever the key order', () => {
		const seen = new SeenRecords();
		expect(seen.add({ id: 1 })).toBe(true);
		expect(seen.add({ id: '1' })).toBe(true);
		expect(seen.add({ id: 1, other: 'field' })).toBe(false);
		expect(seen.add({ id: '1' })).toBe(false);
		expect(seen.add({ id: 2 ** 40 + 1 })).toBe(true);
		expect(seen.add({ id: 1 + 2 ** 41 })).toBe(true);
		expect(seen.add({ id: 2 ** 40 + 1 })).toBe(false);
		expect(seen.add({ a: 1, b: { c: 2 } })).toBe(true);
		expect(seen.add({ b: { c: 2 }, a: 1 })).toBe(false);
		expect(seen.add({ a: 1, b: { c: 3 } })).toBe(true);
	});

	it('adds 200,000 UUID-like ids each once, through its growth, and refuses each again', () => {
		const seen = new SeenRecords();
		const id = (n: number) => `${(n * 2654435761).toString(16).padStart(8, '0').slice(-8)}-4a1b-8c2d-${n.toString(16).padStart(12, '0')}`;
		let added = 0;
		for (let n = 0; n < 200_000; n++) if (seen.add({ id: id(n) })) added++;
		expect(added).toBe(200_000);
		let repeats = 0;
		for (let n = 0; n < 200_000; n += 7) if (!seen.add({ id: id(n) })) repeats++;
		expect(repeats).toBe(Math.ceil(200_000 / 7));
	});

	it('stays exact for ids alike but for a few characters, and for numbers beside the same digits as text', () => {
		const seen = new SeenRecords();
		// 40 characters that differ in characters 1-4 only.
		const alike = Array.from({ length: 500 }, (_, n) => `x${n.toString(36).padStart(4, '0')}${'y'.repeat(35)}`);
		expect(alike.every((id) => seen.add({ id }))).toBe(true);
		expect(alike.some((id) => seen.add({ id }))).toBe(false);
		expect(seen.add({ id: 'another-id' })).toBe(true);
		expect(seen.add({ id: 'another-id' })).toBe(false);
		expect(seen.add({ id: 7 })).toBe(true);
		expect(seen.add({ id: '7' })).toBe(true);
		expect(seen.add({ id: 7 })).toBe(false);
	});
});
