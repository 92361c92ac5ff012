/** The one per-run cache (transport/cache.ts). */
import { newRun, runCache, runCacheSet } from '../../nodes/SalesPayments/transport/cache';

describe('runCache', () => {
	it('makes a value once per run; newRun() forgets it', () => {
		const ctx = {};
		let made = 0;
		const make = () => ++made;
		expect([runCache(ctx, 'k', make), runCache(ctx, 'k', make)]).toEqual([1, 1]);
		newRun(ctx);
		expect(runCache(ctx, 'k', make)).toBe(2);
		expect(runCache({}, 'k', make)).toBe(3);
	});

	it('drops a failed promise, so that the next call tries again', async () => {
		const ctx = {};
		const failed = runCache(ctx, 'k', () => Promise.reject(new Error('no')));
		await expect(failed).rejects.toThrow('no');
		await expect(runCache(ctx, 'k', () => Promise.resolve('again'))).resolves.toBe('again');
	});

	it('keeps a value set while a failed promise was pending (the failure does not remove it)', async () => {
		const ctx = {};
		let reject: (error: Error) => void = () => undefined;
		const pending = runCache(ctx, 'k', () => new Promise<string>((_resolve, no) => (reject = no)));
		runCacheSet(ctx, 'k', Promise.resolve('replacement'));
		reject(new Error('late failure'));
		await expect(pending).rejects.toThrow('late failure');
		await expect(runCache(ctx, 'k', () => Promise.resolve('made again'))).resolves.toBe('replacement');
	});
});

import { BoundedStore, PROCESS_STORES } from '../../nodes/SalesPayments/transport/boundedStore';

describe('BoundedStore (what a process keeps between executions)', () => {
	it('drops the oldest past maxEntries and the idle at the next access, and lists itself', () => {
		const dropped: string[] = [];
		const store = new BoundedStore<string, number>('test', { maxEntries: 2, idleMs: 100 }, (k) => dropped.push(k));
		expect(PROCESS_STORES).toContain(store);
		store.set('a', 1, 0);
		store.set('b', 2, 10);
		store.set('c', 3, 20);
		expect(store.entries()).toEqual([['b', 2], ['c', 3]]);
		expect(store.get('b', 111)).toBeUndefined();
		expect(store.get('c', 111)).toBe(3);
		expect(dropped).toEqual(['a', 'b']);
	});

	it('with touchOnRead, a read keeps an entry alive and makes it the newest', () => {
		const store = new BoundedStore<string, number>('touched', { maxEntries: 2, idleMs: 100, touchOnRead: true });
		store.set('a', 1, 0);
		store.set('b', 2, 10);
		expect(store.get('a', 50)).toBe(1);
		store.set('c', 3, 60);
		expect(store.entries().map(([k]) => k)).toEqual(['a', 'c']);
		expect(store.getOrCreate('a', () => 9, 140)).toBe(1);
		expect(store.getOrCreate('b', () => 9, 140)).toBe(9);
	});
});
