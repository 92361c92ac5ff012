/**
 * Notification bodies for the generative test of Ignore Duplicate Deliveries
 * (test/in-process/trigger-generative.test.ts), from a seeded generator: JSON values in many shapes,
 * their siblings (one field changed anywhere) and their texts (as the platform first sends them,
 * byte for byte again, reordered, re-escaped). A value is held as a tree of its own (numbers as exact
 * decimals, objects as member lists that may repeat a name) so that `identity()` says which texts
 * are one JSON value without parsing any text: the test's oracle, apart from the node's reader.
 */

/** sfc32: a small seeded generator (the same seed gives the same bodies and schedule). */
export class Rng {
	private s: [number, number, number, number];

	constructor(seed: number) {
		this.s = [seed >>> 0, 0x9e3779b9, 0x243f6a88, (0xb7e15162 ^ seed) >>> 0];
		for (let i = 0; i < 15; i++) this.next();
	}

	next(): number {
		let [a, b, c, d] = this.s;
		const t = (((a + b) >>> 0) + d) >>> 0;
		d = (d + 1) >>> 0;
		a = b ^ (b >>> 9);
		b = (c + (c << 3)) >>> 0;
		c = ((c << 21) | (c >>> 11)) >>> 0;
		c = (c + t) >>> 0;
		this.s = [a >>> 0, b, c, d];
		return t / 4294967296;
	}

	int(n: number): number {
		return Math.floor(this.next() * n);
	}

	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(xs: readonly T[]): T {
		return xs[this.int(xs.length)];
	}

	shuffle<T>(xs: T[]): T[] {
		for (let i = xs.length - 1; i > 0; i--) {
			const j = this.int(i + 1);
			[xs[i], xs[j]] = [xs[j], xs[i]];
		}
		return xs;
	}
}

/** A number as its exact decimal value: `digits` without outer zeros ('' for zero) times 10^exp. */
export class Num {
	constructor(
		readonly neg: boolean,
		readonly digits: string,
		readonly exp: number,
	) {}
}

/** An object as its members in order; a name may repeat (n8n reads the last one). */
export class Obj {
	constructor(readonly entries: Array<[string, Value]>) {}
}

export type Value = null | boolean | string | Num | Value[] | Obj;

/** The exact value of a decimal literal (`-49.90`, `4990`, `1e400`). */
export function num(text: string): Num {
	const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
	if (!m) throw new Error(`not a number literal: ${text}`);
	const [, sign, whole, fraction = '', exponent = '0'] = m;
	let digits = (whole + fraction).replace(/^0+/, '');
	if (digits === '') return new Num(false, '', 0);
	const zeros = digits.length - digits.replace(/0+$/, '').length;
	digits = digits.slice(0, digits.length - zeros);
	return new Num(sign === '-', digits, Number(exponent) - fraction.length + zeros);
}

/** One text per JSON value: members sorted by name (stably), numbers by their exact value. */
export function identity(v: Value): string {
	if (v === null || typeof v === 'boolean') return String(v);
	if (typeof v === 'string') return JSON.stringify(v);
	if (v instanceof Num) return v.digits === '' ? '0' : `${v.neg ? '-' : ''}${v.digits}e${v.exp}`;
	if (Array.isArray(v)) return `[${v.map(identity).join(',')}]`;
	const sorted = [...v.entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	return `{${sorted.map(([k, x]) => `${JSON.stringify(k)}:${identity(x)}`).join(',')}}`;
}

/** How a text is written: member order, share of characters written as escapes, whitespace, number forms. */
export interface Style {
	shuffle: boolean;
	escapes: number;
	spaces: number;
	numberForms: boolean;
	/** Pretty-printed with two-space indents (as many platforms send). */
	pretty?: boolean;
}

export const PLATFORM_STYLES: Style[] = [
	{ shuffle: false, escapes: 0, spaces: 0, numberForms: false },
	{ shuffle: false, escapes: 0, spaces: 0, numberForms: false, pretty: true },
	// Non-ASCII escaped, as Python's json.dumps writes it.
	{ shuffle: false, escapes: -1, spaces: 0, numberForms: false },
];

function plain(n: Num): string {
	if (n.digits === '') return '0';
	const sign = n.neg ? '-' : '';
	if (n.exp >= 0) return sign + n.digits + '0'.repeat(n.exp);
	const point = n.digits.length + n.exp;
	if (point > 0) return `${sign}${n.digits.slice(0, point)}.${n.digits.slice(point)}`;
	return `${sign}0.${'0'.repeat(-point)}${n.digits}`;
}

/** Literals of one exact value. */
function numberForms(n: Num): string[] {
	if (n.digits === '') return ['0', '-0', '0.0', '0e7', '0.000E-3'];
	const sign = n.neg ? '-' : '';
	const p = plain(n);
	const first = n.digits[0];
	const rest = n.digits.slice(1);
	return [
		p,
		p.includes('.') ? `${p}00` : `${p}.0`,
		`${sign}${n.digits}e${n.exp}`,
		`${sign}${n.digits}E${n.exp >= 0 ? '+' : ''}${n.exp}`,
		`${sign}${first}${rest ? `.${rest}` : ''}e${n.exp + n.digits.length - 1}`,
		`${sign}0.${n.digits}e${n.exp + n.digits.length}`,
	];
}

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f' };

function unitEscape(ch: string, rng: Rng): string {
	let out = '';
	for (let i = 0; i < ch.length; i++) {
		const hex = ch.charCodeAt(i).toString(16).padStart(4, '0');
		out += `\\u${rng.chance(0.5) ? hex : hex.toUpperCase()}`;
	}
	return out;
}

function writeString(s: string, style: Style, rng: Rng): string {
	let out = '"';
	for (const ch of s) {
		const cp = ch.codePointAt(0) as number;
		// escapes < 0: every non-ASCII character escaped, nothing else.
		const escape = style.escapes < 0 ? cp > 0x7e : rng.chance(style.escapes);
		if (ch === '"') out += escape ? '\\u0022' : '\\"';
		else if (ch === '\\') out += escape ? '\\u005C' : '\\\\';
		else if (cp < 0x20) out += !escape && SHORT_ESCAPES[ch] ? SHORT_ESCAPES[ch] : unitEscape(ch, rng);
		else if (ch === '/' && escape) out += '\\/';
		else out += escape ? unitEscape(ch, rng) : ch;
	}
	return `${out}"`;
}

/** The members in a random order in which members of one name keep theirs. */
function shuffled(entries: Array<[string, Value]>, rng: Rng): Array<[string, Value]> {
	const names = rng.shuffle(entries.map(([k]) => k));
	const queues = new Map<string, Array<[string, Value]>>();
	for (const e of entries) queues.set(e[0], [...(queues.get(e[0]) ?? []), e]);
	return names.map((k) => (queues.get(k) as Array<[string, Value]>).shift() as [string, Value]);
}

const SPACES = [' ', '\n', '\t', '\r\n', '  '];

/** A JSON text of `v` written in `style`. */
export function write(v: Value, style: Style, rng: Rng, depth = 0): string {
	const ws = () => (style.spaces > 0 && rng.chance(style.spaces) ? rng.pick(SPACES) : '');
	const indent = (d: number) => (style.pretty ? `\n${'  '.repeat(d)}` : '');
	if (v === null || typeof v === 'boolean') return String(v);
	if (typeof v === 'string') return writeString(v, style, rng);
	if (v instanceof Num) return style.numberForms ? rng.pick(numberForms(v)) : plain(v);
	if (Array.isArray(v)) {
		if (v.length === 0) return `[${ws()}]`;
		return `[${v.map((x) => `${indent(depth + 1)}${ws()}${write(x, style, rng, depth + 1)}${ws()}`).join(',')}${indent(depth)}]`;
	}
	const entries = style.shuffle ? shuffled(v.entries, rng) : v.entries;
	if (entries.length === 0) return `{${ws()}}`;
	const sep = style.pretty ? ': ' : ':';
	const members = entries.map(([k, x]) => `${indent(depth + 1)}${ws()}${writeString(k, style, rng)}${ws()}${sep}${ws()}${write(x, style, rng, depth + 1)}${ws()}`);
	return `{${members.join(',')}${indent(depth)}}`;
}

const o = (entries: Record<string, Value>) => new Obj(Object.entries(entries));
const int = (n: number | bigint) => num(String(n));
const iso = (rng: Rng) => new Date(Date.UTC(2026, 10, 20) + rng.int(86_400_000)).toISOString();
const cents = (rng: Rng) => int(100 + rng.int(100_000));
const WORDS = ['paid', 'partially_paid', 'refunded', 'active', 'canceled', 'pix', 'credit_card', 'boleto', 'monthly', 'yearly'];
const UNICODE = ['José', 'Müller', 'Ærø', '北京', 'naïve café', '🎉 party', 'a"quoted"b', 'back\\slash', 'line\nbreak', 'tab\tin', 'sep\u2028line', 'nul\u0001x', 'slash/path', 'Ünïcödé ✓', '😀😃', 'Ω≈ç√'];

function unicodeText(rng: Rng): string {
	return Array.from({ length: 1 + rng.int(3) }, () => rng.pick(UNICODE)).join(' ');
}

/** A price with cents as the platform might write it: 49.9, 49.90 (one value), 0.1, 1e-7. */
function decimal(rng: Rng): Num {
	return rng.pick([num(`${rng.int(1000)}.${rng.int(100)}`), num(`0.${rng.int(10)}${1 + rng.int(9)}`), num(`${1 + rng.int(9)}e-${1 + rng.int(9)}`)]);
}

/** An integer past 2^53 (two of them can be one float to n8n). */
const big = (rng: Rng) => num(`${1 + rng.int(9)}${String(rng.int(1e9)).padStart(9, '0')}${String(rng.int(1e9)).padStart(9, '0')}`);

export const EVENTS = ['order.paid', 'order.partiallyPaid', 'order.refunded', 'subscription.updated'];

/** The shapes, each made for notification `n`. */
export const SHAPES: Record<string, (rng: Rng, n: number) => Value> = {
	flat: (rng, n) => o({ event: 'order.paid', id: `ord_${n}`, status: 'paid', valueInCents: cents(rng), paidAt: iso(rng) }),
	envelopeWithId: (rng, n) => o({ event: rng.pick(EVENTS), id: `evt_${n}`, createdAt: iso(rng), data: o({ id: `ord_${n % 50}`, status: rng.pick(WORDS), paidAmountInCents: cents(rng) }) }),
	envelopeWithoutId: (rng) => o({ event: 'order.partiallyPaid', data: o({ status: 'partially_paid', paidAmountInCents: int(1000 * (1 + rng.int(30))) }) }),
	emptyIds: (rng, n) => o({ event: 'order.paid', [rng.pick(['eventId', 'notificationId', 'deliveryId'])]: '', data: o({ id: `ord_${n % 20}`, valueInCents: cents(rng) }) }),
	stripeLike: (rng, n) =>
		o({
			id: `evt_1N${n}`,
			object: 'event',
			type: 'order.paid',
			created: int(1_790_000_000 + rng.int(1e6)),
			livemode: false,
			pending_webhooks: int(1 + rng.int(3)),
			request: o({ id: null, idempotency_key: null }),
			data: o({ object: o({ id: `ch_${n}`, amount: cents(rng), currency: 'brl', metadata: o({}) }) }),
		}),
	nestedArrays: (rng, n) =>
		o({
			event: 'order.paid',
			data: o({ id: `ord_${n}`, items: Array.from({ length: 1 + rng.int(4) }, () => [`sku_${rng.int(50)}`, int(1 + rng.int(5)), decimal(rng)]), tags: [rng.pick(WORDS), rng.pick(WORDS)] }),
		}),
	numbersAsStrings: (rng, n) => o({ event: 'order.paid', data: o({ id: `ord_${n % 100}`, valueInCents: String(100 + rng.int(100_000)), installments: String(1 + rng.int(12)) }) }),
	unicode: (rng, n) => o({ event: 'subscription.updated', subscription: o({ id: `sub_${n % 30}`, customerName: unicodeText(rng), note: unicodeText(rng) }) }),
	decimals: (rng, n) => o({ event: 'order.paid', data: o({ id: `ord_${n % 10}`, amount: decimal(rng), rate: decimal(rng), discount: num('0') }) }),
	bigNumbers: (rng) => o({ event: 'order.refunded', data: o({ id: big(rng), ref: big(rng), valueInCents: cents(rng) }) }),
	subscription: (rng, n) => o({ event: 'subscription.updated', subscription: o({ id: `sub_${n % 30}`, status: 'active', plan: rng.pick(WORDS) }) }),
	paymentOfOrder: (rng, n) => o({ event: 'order.partiallyPaid', id: `ord_${n % 40}`, payment: o({ id: `pay_${n}`, amountInCents: cents(rng) }) }),
	deep: (rng, n) => {
		let v: Value = o({ leaf: int(n), flag: rng.chance(0.5) });
		for (let d = 0; d < 3 + rng.int(5); d++) v = o({ [`level${d}`]: v, note: rng.pick(WORDS) });
		return o({ event: 'order.paid', data: v });
	},
	repeatedNames: (rng, n) => new Obj([['event', 'order.paid'], ['amount', cents(rng)], ['amount', cents(rng)], ['data', o({ id: `ord_${n}` })]]),
	mixed: (rng, n) => o({ event: 'order.refunded', data: o({ id: `ord_${n % 60}`, refunded: rng.chance(0.5), reason: rng.chance(0.5) ? null : '', items: [], extra: o({}) }) }),
	arrayBody: (rng, n) => [o({ event: 'order.paid', id: `ord_${n}` }), o({ valueInCents: cents(rng) })],
};

/** Names at the top of a body that carry its event kind: siblings keep them (another kind is another test). */
const EVENT_FIELDS = new Set(['event', 'type']);

function clone(v: Value): Value {
	if (Array.isArray(v)) return v.map(clone);
	if (v instanceof Obj) return new Obj(v.entries.map(([k, x]) => [k, clone(x)]));
	return v;
}

/** Every place a change can be made: containers (to add or remove) and values, with their parent. */
function places(v: Value, top = true, out: Array<{ holder: Value[] | Obj; at: number }> = []): Array<{ holder: Value[] | Obj; at: number }> {
	if (Array.isArray(v)) {
		v.forEach((x, at) => {
			out.push({ holder: v, at });
			places(x, false, out);
		});
	} else if (v instanceof Obj) {
		v.entries.forEach(([k, x], at) => {
			if (top && EVENT_FIELDS.has(k)) return;
			out.push({ holder: v, at });
			places(x, false, out);
		});
	}
	return out;
}

function changedLeaf(x: Value, rng: Rng): Value {
	if (typeof x === 'string') return rng.pick([`${x}x`, x === '' ? 'y' : '', x.toUpperCase() === x ? `${x}-` : x.toUpperCase(), `${x.slice(0, -1)}\u00e9`]);
	if (x instanceof Num) {
		const step = () => {
			const value = BigInt(`${x.neg ? '-' : ''}${x.digits || '0'}`) + 1n;
			return num(`${value}e${x.exp}`);
		};
		return rng.pick([step(), new Num(!x.neg && x.digits !== '', x.digits, x.exp), plain(x), num(`${plain(x)}1`)]);
	}
	if (typeof x === 'boolean') return rng.chance(0.5) ? !x : null;
	if (x === null) return rng.pick([false, num('0'), '']);
	return rng.pick([null, 'changed', num('1')]);
}

/** `v` with one change somewhere: a value changed, a member added, removed or renamed, array items moved. */
export function sibling(v: Value, rng: Rng): Value {
	const base = identity(v);
	for (let tries = 0; tries < 20; tries++) {
		const copy = clone(v);
		const all = places(copy);
		if (all.length === 0) return o({ added: true });
		const { holder, at } = rng.pick(all);
		const kind = rng.int(4);
		if (holder instanceof Obj) {
			const entry = holder.entries[at];
			if (kind === 0) holder.entries.splice(at, 1);
			else if (kind === 1) holder.entries.splice(at + 1, 0, [`extra${rng.int(5)}`, rng.pick<Value>([null, 'x', num('0'), true])]);
			else if (kind === 2) entry[0] = `${entry[0]}_`;
			else entry[1] = changedLeaf(entry[1], rng);
		} else {
			if (kind === 0 && holder.length > 1) [holder[at], holder[(at + 1) % holder.length]] = [holder[(at + 1) % holder.length], holder[at]];
			else if (kind === 1) holder.splice(at, 1);
			else holder[at] = changedLeaf(holder[at], rng);
		}
		if (identity(copy) !== base) return copy;
	}
	return o({ fallbackSibling: base });
}
