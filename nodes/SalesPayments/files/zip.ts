import { Deflater } from './deflate';

/**
 * The .xlsx's ZIP, written as a stream without node:zlib (why: docs/DEVELOPING.md, "The .xlsx
 * export"): each entry compressed (DEFLATE, deflate.ts) while it is written, the central directory
 * at the end. An entry whose compressed bytes fit HOLD_BYTES is held until its end and written with
 * its CRC-32 and sizes in its local header, as every ZIP reader reads it; a larger one streams, its
 * CRC-32 and sizes in a data descriptor after its data (flag bit 3), and the bytes it gives out are
 * scanned for the descriptor's signature (`signatureIn`: docs/exports.md, "Excel (.xlsx)"). Without
 * ZIP64, an archive or an entry (before compression) past 4 GiB makes `tooLarge` throw before any
 * byte crosses it.
 */

/** The most bytes a ZIP without ZIP64 may hold, less room for the central directory and the last entries. */
export const ZIP_MAX_BYTES = 0xffffffff - 1024 * 1024;

/**
 * The most compressed bytes of one entry held back to write its sizes in its local header: the
 * sheet of about 130,000 movements. Chosen by measurement (docs/exports.md): 1,000,000 movements'
 * peak RSS in n8n's filesystem mode stays within the noise of an export that holds nothing.
 */
export const HOLD_BYTES = 16 * 1024 * 1024;

/**
 * An entry expected to pass this many times HOLD_BYTES before compression streams from its start
 * (`expect`): DEFLATE makes a sheet's XML 4-8 times smaller (movements: 5.6), so such an entry
 * cannot fit, and holding its first bytes would only add them to a large export's peak memory.
 */
const SURELY_LARGER = 10;

/**
 * Held bytes given out per write once an entry streams (besides the new ones): its held bytes go
 * out over the next writes, so the output buffer never holds them all at once.
 */
const RELEASE_BYTES = 64 * 1024;

/**
 * A data descriptor's signature: a streaming reader that does not know an entry's size (exceljs's
 * WorkbookReader, through unzipper) cuts the entry at the first one it meets, also inside its data.
 */
const DESCRIPTOR_SIGNATURE = Buffer.from([0x50, 0x4b, 0x07, 0x08]);

/** Whether a stream of chunks holds DESCRIPTOR_SIGNATURE, also across the chunks' boundaries. */
export class SignatureScan {
	found = false;
	/** The last bytes scanned (up to 3). */
	private tail = Buffer.alloc(0);

	scan(chunk: Uint8Array): void {
		if (this.found) return;
		const keep = DESCRIPTOR_SIGNATURE.length - 1;
		const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
		this.found = bytes.includes(DESCRIPTOR_SIGNATURE) || Buffer.concat([this.tail, bytes.subarray(0, keep)]).includes(DESCRIPTOR_SIGNATURE);
		this.tail = bytes.length >= keep ? Buffer.from(bytes.subarray(bytes.length - keep)) : Buffer.concat([this.tail, bytes]).subarray(-keep);
	}
}

export class ZipTooLarge extends Error {}

/** What would pass ZIP_MAX_BYTES: the whole archive, or one entry before compression (its size is 32 bits too). */
export type TooLargePart = 'archive' | 'entry';

interface Entry {
	name: string;
	nameBytes: Buffer;
	offset: number;
	crc: number;
	/** Bytes of the entry's content, and of its DEFLATE stream. */
	size: number;
	compressedSize: number;
	deflater: Deflater;
	/** Streamed: the local header written with flag bit 3, CRC-32 and sizes in the data descriptor. */
	streams: boolean;
	/** The most compressed bytes held before it streams (0: it streams from its first). */
	holdBytes: number;
	/** Compressed bytes not given out yet (all of them while the entry is held), from `next` on. */
	held: Uint8Array[];
	next: number;
	heldBytes: number;
	/** The data descriptor's signature looked for in the bytes a streamed entry gives out. */
	signature: SignatureScan;
}

/** Where the archive's bytes go, in order. */
export interface ByteSink {
	appendBytes(bytes: Uint8Array): void;
}

/** Bit 3: sizes and CRC in a data descriptor after the data. */
const STREAMED = 0x0008;
/** Bit 11: the name is UTF-8. */
const UTF8 = 0x0800;
/** 2.0: DEFLATE. */
const VERSION = 20;
const DEFLATE = 8;

/**
 * The archive's bytes, entry by entry, into a sink: `begin(name)` an entry, `data(bytes)` its
 * content (compressed bytes are given out as the compressor makes them, once the entry streams),
 * `end()` the rest of its DEFLATE stream (with its local header first when it was held, else the
 * data descriptor after it), `finish()` the central directory.
 */
export class ZipWriter {
	private readonly entries: Entry[] = [];
	private current?: Entry;
	/** Bytes of the archive so far, given out or held. */
	private offset = 0;
	private readonly time: number;
	private readonly date: number;
	private readonly maxBytes: number;
	private readonly holdBytes: number;
	private readonly tooLarge?: (part: TooLargePart) => never;

	/**
	 * `maxBytes` of the archive and of an entry before compression, `holdBytes` of an entry held
	 * (tests lower them); `tooLarge` throws the caller's own error past maxBytes (else ZipTooLarge).
	 */
	constructor(options: { now?: Date; maxBytes?: number; holdBytes?: number; tooLarge?: (part: TooLargePart) => never } = {}) {
		const now = options.now ?? new Date();
		this.maxBytes = options.maxBytes ?? ZIP_MAX_BYTES;
		this.holdBytes = options.holdBytes ?? HOLD_BYTES;
		this.tooLarge = options.tooLarge;
		// MS-DOS time and date, local fields without a zone: UTC.
		this.time = (now.getUTCHours() << 11) | (now.getUTCMinutes() << 5) | (now.getUTCSeconds() >> 1);
		this.date = ((Math.max(now.getUTCFullYear(), 1980) - 1980) << 9) | ((now.getUTCMonth() + 1) << 5) | now.getUTCDate();
	}

	/** The entries streamed whose data holds a data descriptor's signature, by name, in order. */
	get signatureIn(): string[] {
		return this.entries.filter((entry) => entry.signature.found).map((entry) => entry.name);
	}

	/** The entries written with a data descriptor (streamed), by name. */
	get streamed(): string[] {
		return this.entries.filter((entry) => entry.streams).map((entry) => entry.name);
	}

	begin(name: string): void {
		if (this.current) throw new Error(`zip: ${this.current.name} is not ended`);
		const nameBytes = Buffer.from(name, 'utf8');
		this.current = {
			name,
			nameBytes,
			offset: this.offset,
			crc: 0,
			size: 0,
			compressedSize: 0,
			deflater: new Deflater(),
			streams: false,
			holdBytes: this.holdBytes,
			held: [],
			next: 0,
			heldBytes: 0,
			signature: new SignatureScan(),
		};
		this.count(30 + nameBytes.length);
	}

	/**
	 * How many bytes the current entry is expected to hold before compression (a sheet: its rows so
	 * far, by the list's size): one that surely passes the held bound streams from its start.
	 */
	expect(bytes: number): void {
		const entry = this.currentEntry();
		if (entry.heldBytes === 0 && bytes > SURELY_LARGER * this.holdBytes) entry.holdBytes = 0;
	}

	/**
	 * The current entry's next bytes (the compressor's until the next `data` or `end` has returned:
	 * deflate.ts), and, once the entry streams, the compressed bytes made so far into the sink. Sizes
	 * are checked before any byte is given out.
	 */
	async data(bytes: Uint8Array, sink: ByteSink): Promise<void> {
		const entry = this.currentEntry();
		if (bytes.length === 0) return;
		if (entry.size + bytes.length > this.maxBytes) this.refuse('entry');
		entry.size += bytes.length;
		await entry.deflater.write(bytes);
		const made = this.hold(entry, entry.deflater.take());
		if (!entry.streams && (entry.holdBytes === 0 || entry.heldBytes > entry.holdBytes)) {
			// Too large to hold (or foreseen so: expect): the local header says the sizes follow the data.
			entry.streams = true;
			sink.appendBytes(this.localHeader(entry));
		}
		if (entry.streams) this.release(entry, sink, made + RELEASE_BYTES);
	}

	/** The entry's end: a held entry whole, its sizes in its local header; a streamed one's last bytes and its data descriptor. */
	async end(sink: ByteSink): Promise<void> {
		const entry = this.currentEntry();
		const { chunks, crc, size } = await entry.deflater.end();
		if (size !== entry.size % 2 ** 32) throw new Error(`zip: ${entry.name}: the compressor read ${size} bytes of ${entry.size}`);
		this.hold(entry, chunks);
		entry.crc = crc;
		if (!entry.streams) sink.appendBytes(this.localHeader(entry));
		this.release(entry, sink, Infinity);
		if (entry.streams) {
			const descriptor = Buffer.alloc(16);
			descriptor.writeUInt32LE(0x08074b50, 0);
			descriptor.writeUInt32LE(entry.crc, 4);
			descriptor.writeUInt32LE(entry.compressedSize, 8);
			descriptor.writeUInt32LE(entry.size, 12);
			this.count(descriptor.length);
			sink.appendBytes(descriptor);
		}
		this.current = undefined;
		this.entries.push(entry);
	}

	/** One whole entry. */
	async entry(name: string, content: string, sink: ByteSink): Promise<void> {
		this.begin(name);
		await this.data(Buffer.from(content, 'utf8'), sink);
		await this.end(sink);
	}

	/** Stops the entry being written (the export failed): its compressor and held bytes are freed. */
	abort(): void {
		this.current?.deflater.abort();
		this.current = undefined;
	}

	/** The central directory and its end record. */
	finish(sink: ByteSink): void {
		if (this.current) throw new Error(`zip: ${this.current.name} is not ended`);
		const start = this.offset;
		const parts: Buffer[] = [];
		for (const entry of this.entries) {
			const record = Buffer.alloc(46 + entry.nameBytes.length);
			record.writeUInt32LE(0x02014b50, 0);
			record.writeUInt16LE(VERSION, 4);
			record.writeUInt16LE(VERSION, 6);
			record.writeUInt16LE(entry.streams ? UTF8 | STREAMED : UTF8, 8);
			record.writeUInt16LE(DEFLATE, 10);
			record.writeUInt16LE(this.time, 12);
			record.writeUInt16LE(this.date, 14);
			record.writeUInt32LE(entry.crc, 16);
			record.writeUInt32LE(entry.compressedSize, 20);
			record.writeUInt32LE(entry.size, 24);
			record.writeUInt16LE(entry.nameBytes.length, 28);
			// Extra field, comment, disk, attributes (30-41): 0.
			record.writeUInt32LE(entry.offset, 42);
			entry.nameBytes.copy(record, 46);
			parts.push(record);
		}
		const directory = Buffer.concat(parts);
		const last = Buffer.alloc(22);
		last.writeUInt32LE(0x06054b50, 0);
		last.writeUInt16LE(this.entries.length, 8);
		last.writeUInt16LE(this.entries.length, 10);
		last.writeUInt32LE(directory.length, 12);
		last.writeUInt32LE(start, 16);
		this.count(directory.length + last.length);
		sink.appendBytes(Buffer.concat([directory, last]));
	}

	private currentEntry(): Entry {
		if (!this.current) throw new Error('zip: no entry begun');
		return this.current;
	}

	/** The entry's local header: a held entry's CRC-32 and sizes in it, a streamed one's in its data descriptor. */
	private localHeader(entry: Entry): Buffer {
		const header = Buffer.alloc(30 + entry.nameBytes.length);
		header.writeUInt32LE(0x04034b50, 0);
		header.writeUInt16LE(VERSION, 4);
		header.writeUInt16LE(entry.streams ? UTF8 | STREAMED : UTF8, 6);
		header.writeUInt16LE(DEFLATE, 8);
		header.writeUInt16LE(this.time, 10);
		header.writeUInt16LE(this.date, 12);
		if (!entry.streams) {
			header.writeUInt32LE(entry.crc, 14);
			header.writeUInt32LE(entry.compressedSize, 18);
			header.writeUInt32LE(entry.size, 22);
		}
		header.writeUInt16LE(entry.nameBytes.length, 26);
		header.writeUInt16LE(0, 28);
		entry.nameBytes.copy(header, 30);
		return header;
	}

	/** Compressed bytes of `entry`, counted into the archive's size, held until `release` gives them out; returns how many. */
	private hold(entry: Entry, chunks: Uint8Array[]): number {
		let bytes = 0;
		for (const chunk of chunks) {
			this.count(chunk.length);
			entry.held.push(chunk);
			bytes += chunk.length;
		}
		entry.heldBytes += bytes;
		entry.compressedSize += bytes;
		return bytes;
	}

	/**
	 * Gives out the entry's held bytes, in order, about `budget` of them; a streamed entry's are
	 * scanned for the data descriptor's signature on the way.
	 */
	private release(entry: Entry, sink: ByteSink, budget: number): void {
		let left = budget;
		while (entry.next < entry.held.length && left > 0) {
			const chunk = entry.held[entry.next++];
			if (entry.streams) entry.signature.scan(chunk);
			sink.appendBytes(chunk);
			entry.heldBytes -= chunk.length;
			left -= chunk.length;
		}
		if (entry.next === entry.held.length || entry.next > 1024) {
			entry.held = entry.held.slice(entry.next);
			entry.next = 0;
		}
	}

	/** Counts `bytes` more of the archive: past maxBytes, refused before any of them is given out. */
	private count(bytes: number): void {
		if (this.offset + bytes > this.maxBytes) this.refuse('archive');
		this.offset += bytes;
	}

	private refuse(part: TooLargePart): never {
		this.abort();
		this.tooLarge?.(part);
		const what = part === 'archive' ? 'the file' : 'a part of the file before compression';
		throw new ZipTooLarge(`${what} would pass ${this.maxBytes.toLocaleString('en-US')} bytes, the most a ZIP file without ZIP64 holds`);
	}
}
