/**
 * The Excel writer's texts (xlsx.ts): column letters, and a text as the content of an inline
 * string's `<t>` (markup as entities, what XML cannot hold as OOXML's escapes).
 */
import { asciiExcept } from './utf8';

/** A1, B1, ..., Z1, AA1 ... : the column letters of index `n` (0-based). */
export function columnLetters(n: number): string {
	let letters = '';
	for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26)) letters = String.fromCharCode(65 + ((k - 1) % 26)) + letters;
	return letters;
}

/**
 * A character XML 1.0 cannot hold or that a reader would change (CR becomes LF), a markup
 * character, or a `_xHHHH_` that would be read as an escape. Made from character codes: a regular
 * expression literal may not hold control characters (lint).
 */
const NEEDS_ESCAPE = new RegExp(
	`[&<>${String.fromCharCode(0)}-${String.fromCharCode(8)}${String.fromCharCode(0x0b)}-${String.fromCharCode(0x1f)}\uD800-\uDFFF\uFFFE\uFFFF]|_x[0-9A-Fa-f]{4}_`,
);

/**
 * A text of characters safe one by one (not `_`, which may start `_xHHHH_`): one anchored class, 2-3
 * times faster in V8 than NEEDS_ESCAPE's search. DEL is left out: a class spanning 0x7f-0x80 runs half as fast.
 */
const PLAIN_TEXT = /^[\t\n\x20-\x25\x27-\x3b=\x3f-\x5e\x60-\x7e\x80-\ud7ff\ue000-\ufffd]*$/;

/**
 * The ASCII characters a text may hold to be written as it is (Utf8Builder.appendPlain): not the
 * markup characters, not `_` (which may start a `_xHHHH_`), no control character but tab and LF.
 */
export const PLAIN_ASCII = asciiExcept(`&<>_${Array.from({ length: 32 }, (_, c) => (c === 0x09 || c === 0x0a ? '' : String.fromCharCode(c))).join('')}`);

/**
 * A text as the content of `<t>`: markup as entities, control characters as OOXML's `_xHHHH_`, a
 * literal `_xHHHH_` as `_x005F_xHHHH_`. A lone surrogate, U+FFFE and U+FFFF are no characters: each
 * becomes U+FFFD, counted in `replaced.count` when given.
 */
export function xmlText(text: string, replaced?: { count: number }): string {
	if (PLAIN_TEXT.test(text) || !NEEDS_ESCAPE.test(text)) return text;
	let out = '';
	for (let k = 0; k < text.length; k++) {
		const c = text.charCodeAt(k);
		if (c === 0x26) out += '&amp;';
		else if (c === 0x3c) out += '&lt;';
		else if (c === 0x3e) out += '&gt;';
		else if (c === 0x5f && /^_x[0-9A-Fa-f]{4}_/.test(text.slice(k, k + 7))) out += '_x005F_';
		else if (c >= 0xd800 && c <= 0xdbff && k + 1 < text.length && text.charCodeAt(k + 1) >= 0xdc00 && text.charCodeAt(k + 1) <= 0xdfff) {
			out += text.slice(k, k + 2);
			k++;
		} else if (c < 0x20 && c !== 0x09 && c !== 0x0a) out += `_x${c.toString(16).toUpperCase().padStart(4, '0')}_`;
		else if ((c >= 0xd800 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) {
			out += '\uFFFD';
			if (replaced) replaced.count++;
		} else out += text[k];
	}
	return out;
}
