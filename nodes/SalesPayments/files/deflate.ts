/**
 * One ZIP entry's DEFLATE stream (RFC 1951), made while the entry is written: the web standard
 * `CompressionStream('deflate-raw')`, a global of Node 20.12+ (no import: shipped code may import
 * only n8n-workflow and node:crypto). Node runs it on zlib in its thread pool, so a page is
 * compressed while the next one is written. Chunks handed to `write` must not be reused: the
 * compressor reads them later.
 */
export class Deflater {
	private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
	/** Compressed bytes made and not yet taken. */
	private output: Uint8Array[] = [];
	/** Reads the compressed bytes as they are made, to the stream's end. */
	private readonly reading: Promise<void>;
	/** The last chunk handed over: the next one waits for it, so at most one waits in the compressor. */
	private pending: Promise<void> = Promise.resolve();
	private failure?: { error: unknown };

	constructor() {
		const stream = new CompressionStream('deflate-raw');
		this.writer = stream.writable.getWriter();
		const reader = (stream.readable as ReadableStream<Uint8Array>).getReader();
		this.reading = (async () => {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) return;
				this.output.push(value);
			}
		})().catch((error: unknown) => this.fail(error));
	}

	/** Hands `bytes` to the compressor once the chunk before it was taken in. */
	async write(bytes: Uint8Array): Promise<void> {
		await this.pending;
		this.check();
		// Caught here (a failure is thrown by the next call): an export that fails meanwhile never leaves it unhandled.
		this.pending = this.writer.write(bytes).catch((error: unknown) => this.fail(error));
	}

	/** The compressed bytes made so far, in order. */
	take(): Uint8Array[] {
		const made = this.output;
		this.output = [];
		return made;
	}

	/** The stream's end: every compressed byte left, its last block final. */
	async end(): Promise<Uint8Array[]> {
		await this.pending;
		await this.writer.close().catch((error: unknown) => this.fail(error));
		await this.reading;
		this.check();
		return this.take();
	}

	/** Stops the compressor (an export that failed): zlib's memory is freed at once. */
	abort(): void {
		this.writer.abort().catch(() => undefined);
	}

	private fail(error: unknown): void {
		this.failure ??= { error };
	}

	private check(): void {
		if (this.failure) throw this.failure.error;
	}
}
