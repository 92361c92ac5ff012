/**
 * "The same JSON value" of Ignore Duplicate Deliveries (docs/triggers.md), read from the body's raw
 * text as RFC 8259 JSON: one canonical text for one value. Whitespace goes; a string is its
 * characters (`"\u0041"` is `"A"`); an object's members are sorted by name, stably, so repeated
 * names keep their order (n8n reads the last one); a number is its exact decimal value: 1, 1.0 and
 * 1e0 are one number, while 9007199254740993 and 9007199254740992, which n8n reads as one float,
 * stay two. The raw text decides because n8n's parsed body has already lost those differences.
 */

export interface CanonicalJson {
	text: string;
	/**
	 * n8n's JSON.parse reads it without loss (no repeated member name, every number exactly the
	 * float n8n makes of it): then `text` is also what canonicalBody() gives for the parsed body.
	 */
	exact: boolean;
}

/** Thrown inside the reader at the first byte that is not JSON. */
class NotJson extends Error {}

interface Reader {
	s: string;
	i: number;
	exact: boolean;
}

function skipSpace(r: Reader): void {
	for (;;) {
		const c = r.s.charCodeAt(r.i);
		if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
		r.i++;
	}
}

function expect(r: Reader, word: string): string {
	if (!r.s.startsWith(word, r.i)) throw new NotJson();
	r.i += word.length;
	return word;
}

/** A string token: its canonical text and its characters. */
function readString(r: Reader): [canonical: string, chars: string] {
	const start = r.i;
	let j = start + 1;
	let escaped = false;
	for (;;) {
		const c = r.s.charCodeAt(j);
		if (c === 0x22) break;
		if (c === 0x5c) {
			escaped = true;
			j += 2;
			continue;
		}
		// The end of the text (NaN) or an unescaped control character.
		if (!(c >= 0x20)) throw new NotJson();
		j++;
	}
	r.i = j + 1;
	const token = r.s.slice(start, r.i);
	if (!escaped) return [token, token.slice(1, -1)];
	const chars = JSON.parse(token) as string;
	return [JSON.stringify(chars), chars];
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

function digits(r: Reader, atLeastOne: boolean): void {
	const start = r.i;
	while (isDigit(r.s.charCodeAt(r.i))) r.i++;
	if (atLeastOne && r.i === start) throw new NotJson();
}

/** A number literal's exact value as `[-]<digits without outer zeros>e<exponent>`, or `0`. */
function exactDecimal(token: string): string {
	const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token) as RegExpExecArray;
	const [, sign, whole, fraction = '', exponent = '0'] = match;
	let all = (whole + fraction).replace(/^0+/, '');
	if (all === '') return '0';
	const zeros = all.length - all.replace(/0+$/, '').length;
	all = all.slice(0, all.length - zeros);
	const power = BigInt(exponent.replace('+', '')) - BigInt(fraction.length) + BigInt(zeros);
	return `${sign}${all}e${power}`;
}

function readNumber(r: Reader): string {
	const start = r.i;
	if (r.s.charCodeAt(r.i) === 0x2d) r.i++;
	if (r.s.charCodeAt(r.i) === 0x30) r.i++;
	else digits(r, true);
	if (r.s.charCodeAt(r.i) === 0x2e) {
		r.i++;
		digits(r, true);
	}
	const e = r.s.charCodeAt(r.i);
	if (e === 0x65 || e === 0x45) {
		r.i++;
		const sign = r.s.charCodeAt(r.i);
		if (sign === 0x2b || sign === 0x2d) r.i++;
		digits(r, true);
	}
	const token = r.s.slice(start, r.i);
	const float = Number(token);
	if (Number.isFinite(float)) {
		const shortest = String(float);
		if (shortest === token || exactDecimal(shortest) === exactDecimal(token)) return shortest;
	}
	// n8n reads another number (or Infinity): the exact value, in a form no float is written in.
	r.exact = false;
	return exactDecimal(token);
}

/** The items of an object or array, each read by `item`, up to the bracket `close` (0x7d or 0x5d). */
function readItems<T>(r: Reader, close: number, item: () => T): T[] {
	r.i++;
	skipSpace(r);
	const items: T[] = [];
	if (r.s.charCodeAt(r.i) === close) {
		r.i++;
		return items;
	}
	for (;;) {
		items.push(item());
		skipSpace(r);
		const c = r.s.charCodeAt(r.i++);
		if (c === close) return items;
		if (c !== 0x2c) throw new NotJson();
		skipSpace(r);
	}
}

function readMember(r: Reader): [name: string, text: string] {
	if (r.s.charCodeAt(r.i) !== 0x22) throw new NotJson();
	const [name, chars] = readString(r);
	skipSpace(r);
	expect(r, ':');
	skipSpace(r);
	return [chars, `${name}:${readValue(r)}`];
}

function readObject(r: Reader): string {
	const members = readItems(r, 0x7d, () => readMember(r));
	// Stable: members of one name keep their order, and so their meaning (the last one wins).
	members.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	for (let k = 1; k < members.length; k++) if (members[k][0] === members[k - 1][0]) r.exact = false;
	return `{${members.map((m) => m[1]).join(',')}}`;
}

function readValue(r: Reader): string {
	const c = r.s.charCodeAt(r.i);
	if (c === 0x7b) return readObject(r);
	if (c === 0x5b) return `[${readItems(r, 0x5d, () => readValue(r)).join(',')}]`;
	if (c === 0x22) return readString(r)[0];
	if (c === 0x74) return expect(r, 'true');
	if (c === 0x66) return expect(r, 'false');
	if (c === 0x6e) return expect(r, 'null');
	if (c === 0x2d || isDigit(c)) return readNumber(r);
	throw new NotJson();
}

/**
 * The canonical text of a JSON text, or undefined when it is not one JSON value (then the body's
 * bytes decide: deliveryKey.ts). Nesting deeper than the stack allows counts as not JSON too.
 */
export function canonicalText(text: string): CanonicalJson | undefined {
	const r: Reader = { s: text, i: 0, exact: true };
	try {
		skipSpace(r);
		const value = readValue(r);
		skipSpace(r);
		return r.i === text.length ? { text: value, exact: r.exact } : undefined;
	} catch {
		// The reader only throws on what is not JSON (NotJson, JSON.parse on a bad escape) or on nesting past the stack.
		return undefined;
	}
}

/** JSON with every object's keys sorted, of a value n8n has parsed: the same text as canonicalText() gives for an exact body. */
export function canonicalBody(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map((item) => canonicalBody(item ?? null)).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const record = value as Record<string, unknown>;
		const fields = Object.keys(record)
			.filter((key) => record[key] !== undefined)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalBody(record[key])}`);
		return `{${fields.join(',')}}`;
	}
	return JSON.stringify(value ?? null) ?? 'null';
}
