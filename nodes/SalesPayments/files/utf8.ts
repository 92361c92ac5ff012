/** The file writers' output buffer (Utf8Builder), and tables of ASCII characters copied byte by byte (asciiExcept). */

/** The characters allowed by `allowed` (an `appendPlain` table): every ASCII one but those of `except`. */
export function asciiExcept(except: string): Uint8Array {
	const table = new Uint8Array(128).fill(1);
	for (const c of except) table[c.charCodeAt(0)] = 0;
	return table;
}

const ASCII = asciiExcept('');

/**
 * Text encoded straight into a Buffer, outside V8's heap: a page's text never becomes one large
 * string (large strings go to V8's old generation and stay there until a full collection).
 */
export class Utf8Builder {
	private buffer = Buffer.allocUnsafe(64 * 1024);
	private length = 0;

	append(text: string): void {
		// At most 3 bytes per UTF-16 unit.
		this.ensureSpace(3 * text.length);
		this.length += this.buffer.write(text, this.length, 'utf8');
	}

	/**
	 * Appends `text` byte by byte when it is ASCII allowed by `allowed` (128 entries, 1: allowed; unset:
	 * any ASCII); else appends nothing and returns false. Leaves no garbage, unlike a row built as a string.
	 */
	appendPlain(text: string, allowed: Uint8Array = ASCII): boolean {
		this.ensureSpace(text.length);
		const buffer = this.buffer;
		let at = this.length;
		for (let k = 0; k < text.length; k++) {
			const c = text.charCodeAt(k);
			if (c > 0x7f || allowed[c] === 0) return false;
			buffer[at++] = c;
		}
		this.length = at;
		return true;
	}

	/** Appends a few bytes (copied one by one: quicker than a native copy for a short piece). */
	appendShort(bytes: Uint8Array): void {
		this.ensureSpace(bytes.length);
		const buffer = this.buffer;
		let at = this.length;
		for (let k = 0; k < bytes.length; k++) buffer[at++] = bytes[k];
		this.length = at;
	}

	appendBytes(bytes: Uint8Array): void {
		this.ensureSpace(bytes.length);
		this.buffer.set(bytes, this.length);
		this.length += bytes.length;
	}

	/** Bytes written since the last take. */
	get size(): number {
		return this.length;
	}

	/**
	 * The bytes written since the last take. With `reuse` the next text overwrites them (the
	 * consumer must be done with them first); else they stay the caller's.
	 */
	take(reuse = false): Buffer {
		const bytes = this.buffer.subarray(0, this.length);
		if (!reuse) this.buffer = Buffer.allocUnsafe(this.buffer.length);
		this.length = 0;
		return bytes;
	}

	private ensureSpace(bytes: number): void {
		if (this.buffer.length - this.length >= bytes) return;
		const bigger = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.length + bytes));
		this.buffer.copy(bigger, 0, 0, this.length);
		this.buffer = bigger;
	}
}
