/**
 * One ZIP entry's DEFLATE stream (RFC 1951) and its CRC-32, made while the entry is written: the
 * web standard `CompressionStream('gzip')`, a global of Node 20.12+ (no import: shipped code may
 * import only n8n-workflow and node:crypto). Node runs it on zlib in its thread pool, whenever the
 * main thread waits (for the next page, for the disk). A gzip member (RFC 1952) is a 10-byte
 * header, the raw DEFLATE stream, then the CRC-32 and the size of the input: the header is dropped,
 * the trailer read, so zlib computes the CRC-32 in its thread (the main thread did, 2-4 s of CPU a
 * million movements). One chunk waits in it at most: a chunk handed to `write` is the compressor's
 * until the next `write` (or `end`) has returned, then free to reuse.
 */

/**
 * Chunks shorter than this are copied before they are handed over: Node's stream adapter takes in a
 * chunk below the stream's high-water mark (16 KiB in Node 20, 64 KiB in 22 and 24) at once, before
 * zlib has read it; a longer one only once zlib has read it (the sheet's slices: xlsx.ts SLICE_BYTES).
 */
export const COPY_BELOW = 64 * 1024;

/** The gzip header zlib writes (no name, comment or extra field): ID1, ID2, CM = 8 (deflate), FLG = 0, then MTIME, XFL, OS. */
const GZIP_HEADER = [0x1f, 0x8b, 0x08, 0x00];
const HEADER_BYTES = 10;
/** CRC-32 and ISIZE (the input's size modulo 2^32), little-endian. */
const TRAILER_BYTES = 8;

/** The end of an entry's stream: its last compressed bytes, and the CRC-32 and size of what was written. */
export interface DeflateEnd {
	chunks: Uint8Array[];
	crc: number;
	/** The input's size modulo 2^32, as the gzip trailer holds it. */
	size: number;
}

export class Deflater {
	private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
	/** Compressed bytes made and not yet taken (the gzip header left out). */
	private output: Uint8Array[] = [];
	/** Bytes of `output`. */
	private outputBytes = 0;
	/** Header bytes still to drop from the start of the stream. */
	private header = HEADER_BYTES;
	/** Reads the compressed bytes as they are made, to the stream's end. */
	private readonly reading: Promise<void>;
	/** The chunk handed over last, until zlib has read it. */
	private pending: Promise<void> = Promise.resolve();
	private failure?: { error: unknown };

	constructor() {
		const stream = new CompressionStream('gzip');
		this.writer = stream.writable.getWriter();
		const reader = (stream.readable as ReadableStream<Uint8Array>).getReader();
		this.reading = (async () => {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) return;
				this.made(value);
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

	/**
	 * The compressed bytes made so far, in order, but the last few: the stream's last 8 bytes are
	 * its trailer, not DEFLATE data, and only its end says which they are.
	 */
	take(): Uint8Array[] {
		let keep = this.output.length;
		let kept = 0;
		while (keep > 0 && kept < TRAILER_BYTES) kept += this.output[--keep].length;
		const made = this.output.slice(0, keep);
		this.output = this.output.slice(keep);
		this.outputBytes = kept;
		return made;
	}

	/** The stream's end: every compressed byte left, its last block final, and the trailer's CRC-32 and size. */
	async end(): Promise<DeflateEnd> {
		await this.pending;
		await this.writer.close().catch((error: unknown) => this.fail(error));
		await this.reading;
		this.check();
		if (this.header > 0 || this.outputBytes < TRAILER_BYTES) throw new Error('deflate: the compressed stream ended before its trailer');
		const rest = Buffer.concat(this.output, this.outputBytes);
		this.output = [];
		this.outputBytes = 0;
		const data = rest.length - TRAILER_BYTES;
		return { chunks: data > 0 ? [rest.subarray(0, data)] : [], crc: rest.readUInt32LE(data), size: rest.readUInt32LE(data + 4) };
	}

	/** Stops the compressor (an export that failed): zlib's memory is freed at once. */
	abort(): void {
		this.writer.abort().catch(() => undefined);
	}

	/** A chunk from the compressor: the gzip header's bytes dropped (checked), the rest kept. */
	private made(chunk: Uint8Array): void {
		let from = 0;
		while (this.header > 0 && from < chunk.length) {
			const at = HEADER_BYTES - this.header;
			if (at < GZIP_HEADER.length && chunk[from] !== GZIP_HEADER[at]) throw new Error('deflate: the compressor did not write the gzip header expected');
			from++;
			this.header--;
		}
		if (from === chunk.length) return;
		const data = from === 0 ? chunk : chunk.subarray(from);
		this.output.push(data);
		this.outputBytes += data.length;
	}

	private fail(error: unknown): void {
		this.failure ??= { error };
	}

	private check(): void {
		if (this.failure) throw this.failure.error;
	}
}
