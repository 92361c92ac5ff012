/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The bounds of the trigger's memory of accepted deliveries (trigger/memory.ts), unit by unit:
 * the newest 10,000 keys of the last 24 hours per node, a copy waiting at most 10 s for n8n's
 * answer to its first copy, and static data that gets every key accepted while it is unanswered.
 * (How n8n drives it is tested through the harness in trigger-burst.test.ts.)
 */
import { EventEmitter } from 'node:events';

import { admit, forgetNode, MEMORY_MAX_AGE_MS, MEMORY_MAX_KEYS, WAIT_FOR_FIRST_MS } from '../../nodes/SalesPayments/trigger/memory';
import type { Window } from '../../nodes/SalesPayments/trigger/memory';

/** n8n's answer to one request: ended with a status when `answer()` is called. */
class FakeAnswer extends EventEmitter {
	writableEnded = false;
	statusCode = 200;

	answer(status: number): void {
		this.statusCode = status;
		this.writableEnded = true;
		this.emit('finish');
		this.emit('close');
	}
}

const where = (webhookId = 'hook-1') => ({ workflowId: 'wf-memory', nodeId: 'node-1', webhookId });

afterEach(() => {
	forgetNode('wf-memory', 'node-1');
	jest.restoreAllMocks();
});

async function accept(key: string, data: Window = {}, status = 200, webhookId?: string) {
	const answer = new FakeAnswer();
	const verdict = await admit(where(webhookId), key, data, answer, 200);
	if (verdict === 'accept') answer.answer(status);
	return verdict;
}

describe('the memory of accepted deliveries', () => {
	it(`keeps the newest ${MEMORY_MAX_KEYS.toLocaleString('en-US')} keys of a node`, async () => {
		for (let n = 0; n <= MEMORY_MAX_KEYS; n++) expect(await accept(`k${n}`)).toBe('accept');
		// k0 is the oldest of 10,001: forgotten; k1 is still held.
		expect(await accept('k1')).toBe('duplicate');
		expect(await accept('k0')).toBe('accept');
	});

	it('forgets keys older than 24 hours', async () => {
		let now = Date.UTC(2026, 10, 27);
		jest.spyOn(Date, 'now').mockImplementation(() => now);
		expect(await accept('old')).toBe('accept');
		now += MEMORY_MAX_AGE_MS - 1;
		expect(await accept('old')).toBe('duplicate');
		expect(await accept('younger')).toBe('accept');
		now += 2;
		expect(await accept('old')).toBe('accept');
		expect(await accept('younger')).toBe('duplicate');
	});

	it('a copy waits for the answer to its first copy: dropped after a 2xx, run after an error, answered busy after 10 s without one', async () => {
		const first = new FakeAnswer();
		expect(await admit(where(), 'k', {}, first, 200)).toBe('accept');
		const waiting = admit(where(), 'k', {}, new FakeAnswer(), 200);
		first.answer(200);
		expect(await waiting).toBe('duplicate');

		const failing = new FakeAnswer();
		expect(await admit(where(), 'f', {}, failing, 200)).toBe('accept');
		const takesOver = admit(where(), 'f', {}, new FakeAnswer(), 200);
		failing.answer(500);
		expect(await takesOver).toBe('accept');

		// n8n never answers the first copy (its client left and n8n is stuck): after 10 s, busy.
		let now = Date.now();
		jest.spyOn(Date, 'now').mockImplementation(() => (now += WAIT_FOR_FIRST_MS / 4));
		expect(await admit(where(), 'stuck', {}, new FakeAnswer(), 200)).toBe('accept');
		expect(await admit(where(), 'stuck', {}, new FakeAnswer(), 200)).toBe('busy');
	});

	it("each request's static data gets the keys accepted while it is unanswered, never a failed one; a new webhook starts empty", async () => {
		const a: Window = { recentDeliveries: ['saved-before'] };
		const answerA = new FakeAnswer();
		expect(await admit(where(), 'a', a, answerA, 200)).toBe('accept');
		const b: Window = { recentDeliveries: ['saved-before'] };
		const answerB = new FakeAnswer();
		expect(await admit(where(), 'b', b, answerB, 200)).toBe('accept');
		expect(await accept('c', {}, 500)).toBe('accept');
		expect(a.recentDeliveries).toEqual(['saved-before', 'a', 'b']);
		expect(b.recentDeliveries).toEqual(['saved-before', 'a', 'b']);
		answerA.answer(200);
		expect(await accept('d')).toBe('accept');
		// a was answered: it gets nothing more; b still does.
		expect(a.recentDeliveries).toEqual(['saved-before', 'a', 'b']);
		expect(b.recentDeliveries).toEqual(['saved-before', 'a', 'b', 'd']);
		answerB.answer(200);
		// The window is bounded (200 in static data).
		const big: Window = { recentDeliveries: Array.from({ length: 300 }, (_, n) => `s${n}`) };
		expect(await accept('e', big)).toBe('accept');
		expect(big.recentDeliveries).toHaveLength(200);
		expect(big.recentDeliveries?.slice(-4)).toEqual(['a', 'b', 'd', 'e']);
		// Another platform webhook (the workflow activated again): nothing remembered.
		expect(await accept('a', {}, 200, 'hook-2')).toBe('accept');
	});
});
