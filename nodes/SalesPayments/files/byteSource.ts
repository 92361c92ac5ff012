/**
 * The bytes of a file output as n8n reads them (export.ts hands one to prepareBinaryData).
 */

type Listener = (arg?: unknown) => void;

/**
 * The file's bytes as n8n's binary data service reads a Node Readable, without node:stream
 * (shipped code may import only n8n-workflow and node:crypto). `prepareBinaryData` hands its
 * argument to BinaryDataService.store; read in n8n-core 1.122.48 (n8n 1.123.81), 2.8.1 (n8n 2.8.4)
 * and 2.41.1 (n8n 2.41.1):
 * - filesystem mode: `fs.promises.writeFile(path, source)`, which iterates any AsyncIterable
 *   (`Symbol.asyncIterator`), writing each chunk before it asks for the next: one page at a
 *   time. 2.41 writes to a temporary file renamed at the end and removed on failure; 1.x and
 *   2.8 leave the part written on failure, in the execution's binary data folder (n8n deletes it
 *   with the execution), and output no item that points to it.
 * - in-memory (`default`), database, S3 and Azure modes: `streamToBuffer(source)`, which listens
 *   to 'data', 'end' and once to 'error' (2.41 also to 'close', removes its listeners with off()
 *   and calls destroy() when no data comes for N8N_HTTP_RESPONSE_BODY_READ_TIMEOUT, 300 s by
 *   default), and buffers the whole file. The first 'data' listener starts the pages.
 * The in-process tests and the e2e test run both paths through n8n-core (test/in-process/export*.test.ts).
 */
export class ByteSource {
	/** The walk's error, when it failed. */
	failure: unknown;
	private readonly listeners = new Map<string, Array<{ fn: Listener; once: boolean }>>();
	private chunks?: AsyncGenerator<Buffer>;
	private destroyed = false;

	/**
	 * `make(reuse)` makes the chunks once the consumer is known: an iterating consumer is done
	 * with a chunk when it asks for the next (its memory may be reused); listeners keep them all.
	 */
	constructor(private readonly make: (reuse: boolean) => AsyncGenerator<Buffer>) {}

	[Symbol.asyncIterator](): AsyncIterator<Buffer> {
		const chunks = this.start(true);
		return { next: async () => await this.pull(), return: async () => await chunks.return(undefined) };
	}

	on(event: string, fn: Listener): this {
		this.listen(event, fn, false);
		if (event === 'data' && !this.chunks) {
			this.start(false);
			void this.pump();
		}
		return this;
	}

	once(event: string, fn: Listener): this {
		this.listen(event, fn, true);
		return this;
	}

	off(event: string, fn: Listener): this {
		this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l.fn !== fn));
		return this;
	}

	removeListener(event: string, fn: Listener): this {
		return this.off(event, fn);
	}

	destroy(): this {
		this.destroyed = true;
		// Ends the walk (its pages in flight are settled); a failure here changes nothing.
		this.chunks?.return(undefined).catch(() => undefined);
		return this;
	}

	/** n8n reads the source one way only, once. */
	private start(reuse: boolean): AsyncGenerator<Buffer> {
		this.chunks ??= this.make(reuse);
		return this.chunks;
	}

	private listen(event: string, fn: Listener, once: boolean): void {
		this.listeners.set(event, [...(this.listeners.get(event) ?? []), { fn, once }]);
	}

	private emit(event: string, arg?: unknown): void {
		const all = this.listeners.get(event) ?? [];
		this.listeners.set(event, all.filter((l) => !l.once));
		for (const { fn } of all) fn(arg);
	}

	/** The next chunk; the walk's error is kept, to be thrown as the node's own. */
	private async pull(): Promise<IteratorResult<Buffer>> {
		const next = (this.chunks as AsyncGenerator<Buffer>).next();
		next.catch((error: unknown) => {
			this.failure = error;
		});
		return await next;
	}

	private async pump(): Promise<void> {
		try {
			for (;;) {
				const { done, value } = await this.pull();
				if (this.destroyed) return;
				if (done) break;
				this.emit('data', value);
			}
			this.emit('end');
		} catch (error) {
			if (this.destroyed) return;
			try {
				this.emit('error', error);
			} catch {
				// A consumer's error listener that throws must not become an unhandled rejection
				// (pump runs unawaited); the walk's error stays in `failure` for exportList.
			}
		}
	}
}
