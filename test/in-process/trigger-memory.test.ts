/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The bounds of the trigger's memory of accepted deliveries (trigger/memory.ts, stores in
 * trigger/stores.ts), unit by unit: the newest 50,000 keys of the last 24 hours for all nodes
 * together, idle nodes dropped with their keys by any access, a copy waiting at most 10 s for n8n's
 * answer to its first copy, and static data that gets a key only once its request was answered 2xx,
 * keeping what it loaded (keys another process wrote) beside this process's.
 * (How n8n drives it is tested through the harness in trigger-burst.test.ts and trigger-keys.test.ts.)
 */
import { EventEmitter } from 'node:events';

import { PROCESS_STORES } from '../../nodes/SalesPayments/transport/boundedStore';
import { admit, forgetNode, pruneMemory, WAIT_FOR_FIRST_MS } from '../../nodes/SalesPayments/trigger/memory';
import type { RecentDeliveries } from '../../nodes/SalesPayments/trigger/stores';
import { deliveryKeyStore, deliveryNodeStore, failedActivationStore, MEMORY_MAX_AGE_MS, MEMORY_MAX_KEYS, MEMORY_MAX_NODES } from '../../nodes/SalesPayments/trigger/stores';

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

const where = (webhookId = 'hook-1', nodeId = 'node-1') => ({ workflowId: 'wf-memory', nodeId, webhookId });

afterEach(() => {
	for (const nodeId of ['node-1', 'node-2', 'node-3']) forgetNode('wf-memory', nodeId);
	jest.restoreAllMocks();
});

async function accept(key: string, data: RecentDeliveries = {}, status = 200, webhookId?: string, nodeId?: string) {
	const answer = new FakeAnswer();
	const verdict = await admit(where(webhookId, nodeId), key, data, answer, 200);
	if (verdict === 'accept') answer.answer(status);
	return verdict;
}

describe('the memory of accepted deliveries', () => {
	it('its stores and their bounds are listed in one place', () => {
		const trigger = PROCESS_STORES.filter((store) => store.name.startsWith('trigger: '));
		expect(trigger.map((store) => [store.name, store.limits])).toEqual([
			['trigger: accepted delivery keys', { maxEntries: 50_000, idleMs: MEMORY_MAX_AGE_MS }],
			['trigger: nodes with accepted deliveries', { maxEntries: MEMORY_MAX_NODES, idleMs: MEMORY_MAX_AGE_MS, touchOnRead: true }],
			['trigger: notification id fallbacks logged', { maxEntries: MEMORY_MAX_NODES, idleMs: 365 * MEMORY_MAX_AGE_MS }],
			['trigger: failed activations', { maxEntries: 1_000, idleMs: 60_000 }],
		]);
		expect([deliveryKeyStore, deliveryNodeStore, failedActivationStore].every((store) => PROCESS_STORES.includes(store as never))).toBe(true);
	});

	it(`keeps the newest ${MEMORY_MAX_KEYS.toLocaleString('en-US')} keys of all nodes together, oldest out first`, async () => {
		// Three nodes share one bound: 50,001 keys in turn.
		for (let n = 0; n <= MEMORY_MAX_KEYS; n++) expect(await accept(`k${n}`, {}, 200, 'hook-1', `node-${(n % 3) + 1}`)).toBe('accept');
		expect(deliveryKeyStore.size).toBe(MEMORY_MAX_KEYS);
		// k0 (node-1) is the oldest: forgotten; k1 (node-2) and k3 (node-1) are still held.
		expect(await accept('k1', {}, 200, 'hook-1', 'node-2')).toBe('duplicate');
		expect(await accept('k3', {}, 200, 'hook-1', 'node-1')).toBe('duplicate');
		expect(await accept('k0', {}, 200, 'hook-1', 'node-1')).toBe('accept');
	});

	it('forgets keys older than 24 hours, and a node without deliveries for 24 hours whoever comes next', async () => {
		let now = Date.UTC(2026, 10, 27);
		jest.spyOn(Date, 'now').mockImplementation(() => now);
		expect(await accept('old')).toBe('accept');
		expect(await accept('quiet', {}, 200, 'hook-q', 'node-2')).toBe('accept');
		now += MEMORY_MAX_AGE_MS - 1;
		expect(await accept('old')).toBe('duplicate');
		expect(await accept('younger')).toBe('accept');
		now += 2;
		// node-2 (deactivated in another process, say) gets nothing more: another node's delivery prunes it.
		expect(await accept('old')).toBe('accept');
		expect(deliveryNodeStore.entries().map(([key]) => key)).toEqual(['wf-memory\u0000node-1']);
		expect(deliveryKeyStore.entries().map(([key]) => key.replace(/^\d+:/, ''))).toEqual(['younger', 'old']);
		// A prune with no delivery at all (n8n's hook calls run one).
		now += MEMORY_MAX_AGE_MS;
		pruneMemory();
		expect([deliveryNodeStore.size, deliveryKeyStore.size]).toEqual([0, 0]);
	});

	it('a new platform webhook (the workflow activated again) drops the keys of the old one', async () => {
		expect(await accept('a', {}, 200, 'hook-1')).toBe('accept');
		expect(await accept('b', {}, 200, 'hook-1')).toBe('accept');
		expect(deliveryKeyStore.size).toBe(2);
		expect(await accept('a', {}, 200, 'hook-2')).toBe('accept');
		expect(deliveryKeyStore.size).toBe(1);
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

	it("a request's static data gets another request's key only once n8n answered that one 2xx, never a failed one", async () => {
		const a: RecentDeliveries = { recentDeliveries: ['saved-before'] };
		const answerA = new FakeAnswer();
		expect(await admit(where(), 'a', a, answerA, 200)).toBe('accept');
		const b: RecentDeliveries = { recentDeliveries: ['saved-before'] };
		const answerB = new FakeAnswer();
		expect(await admit(where(), 'b', b, answerB, 200)).toBe('accept');
		// a is still unanswered: b's static data does not name it, nor a's b.
		expect(a.recentDeliveries).toEqual(['saved-before', 'a']);
		expect(b.recentDeliveries).toEqual(['saved-before', 'b']);
		// c fails (500): nobody gets it.
		expect(await accept('c', {}, 500)).toBe('accept');
		answerA.answer(200);
		// a answered 2xx: b, still unanswered, gets it; d, accepted now, too.
		expect(b.recentDeliveries).toEqual(['saved-before', 'b', 'a']);
		// d loaded static data that lacks a (another request wrote it before a was answered): a is newer
		// than what was saved without a stamp.
		const d: RecentDeliveries = { recentDeliveries: ['saved-before'] };
		const answerD = new FakeAnswer();
		expect(await admit(where(), 'd', d, answerD, 200)).toBe('accept');
		expect(d.recentDeliveries).toEqual(['saved-before', 'a', 'd']);
		answerB.answer(200);
		expect(a.recentDeliveries).toEqual(['saved-before', 'a']);
		expect(d.recentDeliveries).toEqual(['saved-before', 'a', 'd', 'b']);
		expect(d.recentDeliveryStamps).toEqual([...(d.recentDeliveryStamps ?? [])].sort((x, y) => x - y));
		answerD.answer(200);
		// The window is bounded (200 in static data). A saved `c` was answered 2xx by the process that
		// saved it (n8n saves nothing of a request it answers with an error): it stays, though it failed here.
		const big: RecentDeliveries = { recentDeliveries: [...Array.from({ length: 300 }, (_, n) => `s${n}`), 'c'] };
		expect(await accept('e', big)).toBe('accept');
		expect(big.recentDeliveries).toHaveLength(200);
		expect(big.recentDeliveries?.slice(-6)).toEqual(['s299', 'c', 'a', 'b', 'd', 'e']);
	});
});
