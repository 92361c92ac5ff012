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
