type Listener = (arg?: unknown) => void;

/**
 * A file output's bytes as n8n's prepareBinaryData reads a Node Readable, without node:stream
 * (checked in n8n-core 1.122.48, 2.8.1, 2.41.1). Filesystem mode iterates it (`writeFile`: one
 * chunk at a time); the other modes listen to 'data', 'end', 'error' (2.41 also 'close', off() and
 * destroy()) and buffer it all; the first 'data' listener starts the pages.
 */
export class ByteSource {
	/** The list's error, when reading it failed. */
	failure: unknown;
	private readonly listeners = new Map<string, Array<{ fn: Listener; once: boolean }>>();
	private chunks?: AsyncGenerator<Buffer>;
	private destroyed = false;

	/** `make(reuse)` makes the chunks once the consumer is known: only an iterating consumer lets chunks reuse memory. */
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
		// Stops reading the list (its pages in flight are settled); a failure here changes nothing.
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

	/** The next chunk; a failure is stored, to be thrown as the node's own. */
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
				// A throwing error listener must not become an unhandled rejection (pump runs
				// unawaited); the error stays in `failure` for exportList.
			}
		}
	}
}
