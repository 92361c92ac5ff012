import { Deflater } from './deflate';

/**
 * The .xlsx's ZIP, written as a stream without node:zlib (why: docs/DEVELOPING.md, "The .xlsx
 * export"): each entry compressed (DEFLATE, deflate.ts) while it is written, its CRC-32 and sizes
 * in a data descriptor after its data (flag bit 3), the central directory at the end. Without
 * ZIP64, an archive or an entry (before compression) past 4 GiB makes `tooLarge` throw before any
 * byte crosses it.
 */

/** The most bytes a ZIP without ZIP64 may hold, less room for the central directory and the last entries. */
export const ZIP_MAX_BYTES = 0xffffffff - 1024 * 1024;

export class ZipTooLarge extends Error {}

/** What would pass ZIP_MAX_BYTES: the whole archive, or one entry before compression (its size is 32 bits too). */
export type TooLargePart = 'archive' | 'entry';

/**
 * Slicing-by-16: 16 tables of 256 entries in one array (16 KiB, fits the CPU's first cache); table t
 * is the CRC of a byte followed by t zero bytes. 16 bytes a step, read as four 32-bit words.
 */
const CRC_TABLE = crcTable();
/** Whether the machine is little-endian: the word reads hold the bytes in file order. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function crcTable(): Int32Array {
	const table = new Int32Array(16 * 256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c;
	}
	for (let n = 0; n < 256; n++) {
		for (let t = 1; t < 16; t++) table[t * 256 + n] = (table[(t - 1) * 256 + n] >>> 8) ^ table[table[(t - 1) * 256 + n] & 0xff];
	}
	return table;
}

/** CRC-32 (ISO-HDLC, as ZIP uses it) of `bytes`, continuing from `crc` (0 to start). */
export function crc32(bytes: Uint8Array, crc = 0): number {
	const t = CRC_TABLE;
	let c = ~crc;
	let k = 0;
	const length = bytes.length;
	if (LITTLE_ENDIAN) {
		// Byte by byte up to a 4-byte boundary, then 16 bytes a step through a 32-bit view.
		const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
		for (; k < head; k++) c = t[(c ^ bytes[k]) & 0xff] ^ (c >>> 8);
		const steps = (length - k) >>> 4;
		// (A view's start must be a multiple of 4 even when it is empty.)
		const words = steps > 0 ? new Int32Array(bytes.buffer, bytes.byteOffset + k, steps * 4) : new Int32Array(0);
		for (let w = 0; w < words.length; w += 4) {
			const a = c ^ words[w];
			const b = words[w + 1];
			const d = words[w + 2];
			const e = words[w + 3];
			c =
				t[3840 + (a & 0xff)] ^
				t[3584 + ((a >>> 8) & 0xff)] ^
				t[3328 + ((a >>> 16) & 0xff)] ^
				t[3072 + (a >>> 24)] ^
				t[2816 + (b & 0xff)] ^
				t[2560 + ((b >>> 8) & 0xff)] ^
				t[2304 + ((b >>> 16) & 0xff)] ^
				t[2048 + (b >>> 24)] ^
				t[1792 + (d & 0xff)] ^
				t[1536 + ((d >>> 8) & 0xff)] ^
				t[1280 + ((d >>> 16) & 0xff)] ^
				t[1024 + (d >>> 24)] ^
				t[768 + (e & 0xff)] ^
				t[512 + ((e >>> 8) & 0xff)] ^
				t[256 + ((e >>> 16) & 0xff)] ^
				t[e >>> 24];
		}
		k += steps * 16;
	}
	for (; k < length; k++) c = t[(c ^ bytes[k]) & 0xff] ^ (c >>> 8);
	return ~c >>> 0;
}

interface Entry {
	name: Buffer;
	offset: number;
	crc: number;
	/** Bytes of the entry's content, and of its DEFLATE stream. */
	size: number;
	compressedSize: number;
	deflater: Deflater;
}

/** Where the archive's bytes go, in order. */
export interface ByteSink {
	appendBytes(bytes: Uint8Array): void;
}

/** Bit 3: sizes and CRC in a data descriptor after the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
/** 2.0: DEFLATE. */
const VERSION = 20;
const DEFLATE = 8;

/**
 * The archive's bytes, entry by entry, into a sink: `begin(name)` the local header, `data(bytes)`
 * the entry's content (compressed bytes are given out as the compressor makes them), `end()` the
 * rest of its DEFLATE stream and the data descriptor, `finish()` the central directory.
 */
export class ZipWriter {
	private readonly entries: Entry[] = [];
	private current?: Entry;
	/** Bytes of the archive so far. */
	private offset = 0;
	private readonly time: number;
	private readonly date: number;
	private readonly maxBytes: number;
	private readonly tooLarge?: (part: TooLargePart) => never;

	/** `maxBytes` of the archive and of an entry before compression (tests lower it); `tooLarge` throws the caller's own error past it (else ZipTooLarge). */
	constructor(options: { now?: Date; maxBytes?: number; tooLarge?: (part: TooLargePart) => never } = {}) {
		const now = options.now ?? new Date();
		this.maxBytes = options.maxBytes ?? ZIP_MAX_BYTES;
		this.tooLarge = options.tooLarge;
		// MS-DOS time and date, local fields without a zone: UTC.
		this.time = (now.getUTCHours() << 11) | (now.getUTCMinutes() << 5) | (now.getUTCSeconds() >> 1);
		this.date = ((Math.max(now.getUTCFullYear(), 1980) - 1980) << 9) | ((now.getUTCMonth() + 1) << 5) | now.getUTCDate();
	}

	get bytes(): number {
		return this.offset;
	}

	begin(name: string, sink: ByteSink): void {
		if (this.current) throw new Error(`zip: ${this.current.name.toString()} is not ended`);
		const entry: Entry = { name: Buffer.from(name, 'utf8'), offset: this.offset, crc: 0, size: 0, compressedSize: 0, deflater: new Deflater() };
		const header = Buffer.alloc(30 + entry.name.length);
		header.writeUInt32LE(0x04034b50, 0);
		header.writeUInt16LE(VERSION, 4);
		header.writeUInt16LE(FLAGS, 6);
		header.writeUInt16LE(DEFLATE, 8);
		header.writeUInt16LE(this.time, 10);
		header.writeUInt16LE(this.date, 12);
		// CRC, sizes (14-25): 0, in the data descriptor.
		header.writeUInt16LE(entry.name.length, 26);
		header.writeUInt16LE(0, 28);
		entry.name.copy(header, 30);
		this.current = entry;
		this.give(header, sink);
	}

	/**
	 * The current entry's next bytes (the compressor reads them later: never reuse them), and the
	 * compressed bytes made so far into the sink. Sizes are checked before any byte is given out.
	 */
	async data(bytes: Uint8Array, sink: ByteSink): Promise<void> {
		const entry = this.currentEntry();
		if (bytes.length === 0) return;
		if (entry.size + bytes.length > this.maxBytes) this.refuse('entry');
		entry.crc = crc32(bytes, entry.crc);
		entry.size += bytes.length;
		await entry.deflater.write(bytes);
		this.compressed(entry, entry.deflater.take(), sink);
	}

	async end(sink: ByteSink): Promise<void> {
		const entry = this.currentEntry();
		this.compressed(entry, await entry.deflater.end(), sink);
		const descriptor = Buffer.alloc(16);
		descriptor.writeUInt32LE(0x08074b50, 0);
		descriptor.writeUInt32LE(entry.crc, 4);
		descriptor.writeUInt32LE(entry.compressedSize, 8);
		descriptor.writeUInt32LE(entry.size, 12);
		this.give(descriptor, sink);
		this.current = undefined;
		this.entries.push(entry);
	}

	/** One whole entry. */
	async entry(name: string, content: string, sink: ByteSink): Promise<void> {
		this.begin(name, sink);
		await this.data(Buffer.from(content, 'utf8'), sink);
		await this.end(sink);
	}

	/** Stops the entry being written (the export failed): its compressor is freed. */
	abort(): void {
		this.current?.deflater.abort();
		this.current = undefined;
	}

	/** The central directory and its end record. */
	finish(sink: ByteSink): void {
		if (this.current) throw new Error(`zip: ${this.current.name.toString()} is not ended`);
		const start = this.offset;
		const parts: Buffer[] = [];
		for (const entry of this.entries) {
			const record = Buffer.alloc(46 + entry.name.length);
			record.writeUInt32LE(0x02014b50, 0);
			record.writeUInt16LE(VERSION, 4);
			record.writeUInt16LE(VERSION, 6);
			record.writeUInt16LE(FLAGS, 8);
			record.writeUInt16LE(DEFLATE, 10);
			record.writeUInt16LE(this.time, 12);
			record.writeUInt16LE(this.date, 14);
			record.writeUInt32LE(entry.crc, 16);
			record.writeUInt32LE(entry.compressedSize, 20);
			record.writeUInt32LE(entry.size, 24);
			record.writeUInt16LE(entry.name.length, 28);
			// Extra field, comment, disk, attributes (30-41): 0.
			record.writeUInt32LE(entry.offset, 42);
			entry.name.copy(record, 46);
			parts.push(record);
		}
		const directory = Buffer.concat(parts);
		const last = Buffer.alloc(22);
		last.writeUInt32LE(0x06054b50, 0);
		last.writeUInt16LE(this.entries.length, 8);
		last.writeUInt16LE(this.entries.length, 10);
		last.writeUInt32LE(directory.length, 12);
		last.writeUInt32LE(start, 16);
		this.give(Buffer.concat([directory, last]), sink);
	}

	private currentEntry(): Entry {
		if (!this.current) throw new Error('zip: no entry begun');
		return this.current;
	}

	/** Compressed bytes of `entry` into the sink, counted. */
	private compressed(entry: Entry, chunks: Uint8Array[], sink: ByteSink): void {
		for (const chunk of chunks) {
			this.give(chunk, sink);
			entry.compressedSize += chunk.length;
		}
	}

	private give(bytes: Uint8Array, sink: ByteSink): void {
		if (this.offset + bytes.length > this.maxBytes) this.refuse('archive');
		this.offset += bytes.length;
		sink.appendBytes(bytes);
	}

	private refuse(part: TooLargePart): never {
		this.abort();
		this.tooLarge?.(part);
		const what = part === 'archive' ? 'the file' : 'a part of the file before compression';
		throw new ZipTooLarge(`${what} would pass ${this.maxBytes.toLocaleString('en-US')} bytes, the most a ZIP file without ZIP64 holds`);
	}
}
