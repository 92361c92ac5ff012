/**
 * Reading an answer within the request's deadline and a size bound (transport.ts): n8n's client
 * bounds only the time a connection stays silent, so the body is read here.
 */

/** The deadline of one attempt: a timer that does not keep n8n's process alive. */
export class DeadlinePassed extends Error {}

/** Something the HTTP client hands back as the body when asked for a stream. */
interface BodyStream {
	on(event: string, listener: (arg?: unknown) => void): unknown;
	destroy(error?: Error): unknown;
}

export function isStream(value: unknown): value is BodyStream {
	return typeof value === 'object' && value !== null && typeof (value as BodyStream).on === 'function' && typeof (value as BodyStream).destroy === 'function';
}

/** Rejects with DeadlinePassed when `deadline` fires first; `onLate` gets what arrives after it. */
export async function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal, onLate: (value: T) => void): Promise<T> {
	if (deadline.aborted) {
		void work.then(onLate, () => undefined);
		throw new DeadlinePassed();
	}
	return await new Promise<T>((resolve, reject) => {
		const passed = () => {
			void work.then(onLate, () => undefined);
			reject(new DeadlinePassed());
		};
		deadline.addEventListener('abort', passed, { once: true });
		work.then(
			(value) => {
				deadline.removeEventListener('abort', passed);
				if (deadline.aborted) onLate(value);
				else resolve(value);
			},
			(error: unknown) => {
				deadline.removeEventListener('abort', passed);
				reject(error);
			},
		);
	});
}

/**
 * Most bytes of one answer, counted after decompression: far above the largest page (1,000
 * records of a few KB), far below what would strain n8n's memory. A larger answer fails.
 */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** An answer over MAX_BODY_BYTES (a runaway or a decompression bomb): read no further. */
export class BodyTooLarge extends Error {}

/**
 * Reads an answer's body to the last byte before the deadline and within MAX_BODY_BYTES. n8n's
 * client bounds only the time a connection stays silent, so an answer trickled byte by byte would
 * outlive any timeout: the body is read here, and the connection is closed when the deadline
 * passes or the limit is crossed. Every failure rejects the returned promise; nothing is thrown
 * from a stream's listener (it would escape as an uncaught exception).
 */
export async function readBody(body: unknown, deadline: AbortSignal): Promise<unknown> {
	if (!isStream(body)) return body;
	const chunks: Uint8Array[] = [];
	let bytes = 0;
	const read = new Promise<string>((resolve, reject) => {
		body.on('data', (chunk) => {
			const bytesOf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
			bytes += bytesOf.byteLength;
			if (bytes > MAX_BODY_BYTES) {
				chunks.length = 0;
				body.destroy();
				reject(new BodyTooLarge());
			} else chunks.push(bytesOf);
		});
		body.on('end', () => {
			try {
				resolve(Buffer.concat(chunks).toString('utf8'));
			} catch (error) {
				reject(error as Error);
			}
		});
		body.on('error', (error) => reject(error as Error));
	});
	return await beforeDeadline(read, deadline, () => undefined).catch((error: unknown) => {
		body.destroy();
		throw error;
	});
}

/**
 * The client's failure to decompress an answer (zlib: "incorrect header check", brotli:
 * "Decompression failed"): the answer's content-encoding header does not match its body.
 */
export function isDecompressionFailure(error: unknown): boolean {
	const err = error as { code?: unknown; message?: unknown };
	const code = typeof err?.code === 'string' ? err.code : '';
	const message = typeof err?.message === 'string' ? err.message : '';
	return /^Z_|^ERR_(_ERROR|BROTLI|ZLIB)/.test(code) || /incorrect header check|decompression failed|invalid (block type|stored block lengths|distance)|unexpected end of file/i.test(message);
}

/** The URL a redirect points to, resolved against the request's URL; undefined when unreadable. */
export function redirectTarget(location: unknown, from: string): URL | undefined {
	if (typeof location !== 'string' || location.trim() === '') return undefined;
	try {
		return new URL(location.trim(), from);
	} catch {
		return undefined;
	}
}
