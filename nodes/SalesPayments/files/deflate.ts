/**
 * One ZIP entry's DEFLATE stream (RFC 1951), made while the entry is written: the web standard
 * `CompressionStream('deflate-raw')`, a global of Node 20.12+ (no import: shipped code may import
 * only n8n-workflow and node:crypto). Node runs it on zlib in its thread pool, whenever the main
 * thread waits (for the next page, for the disk). One chunk waits in it at most: a chunk handed to
 * `write` is the compressor's until the next `write` (or `end`) has returned, then free to reuse.
 */

/**
 * Chunks shorter than this are copied before they are handed over: Node's stream adapter takes in a
 * chunk below the stream's high-water mark (16 KiB in Node 20, 64 KiB in 22 and 24) at once, before
 * zlib has read it; a longer one only once zlib has read it (the sheet's slices: xlsx.ts SLICE_BYTES).
 */
export const COPY_BELOW = 64 * 1024;
export class Deflater {
	private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
	/** Compressed bytes made and not yet taken. */
	private output: Uint8Array[] = [];
	/** Reads the compressed bytes as they are made, to the stream's end. */
	private readonly reading: Promise<void>;
	/** The chunk handed over last, until zlib has read it. */
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

	/** Hands `bytes` to the compressor once it has read the chunk before (free to reuse when this returns). */
	async write(bytes: Uint8Array): Promise<void> {
		await this.pending;
		this.check();
		// Caught here (a failure is thrown by the next call): an export that fails meanwhile never leaves it unhandled.
		this.pending = this.writer.write(bytes.length < COPY_BELOW ? new Uint8Array(bytes) : bytes).catch((error: unknown) => this.fail(error));
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
