import type { IDataObject } from 'n8n-workflow';

/**
 * Reading one page of a list answer (spec part 1): where the records are, the pagination
 * fields, and the checks that an answer of the wrong shape fails loudly instead of becoming an
 * empty list or a crash inside n8n. Used by pagination.ts only.
 */

/** One page as the platform returned it. */
export interface Page {
	/** The records, as received (not copied). */
	records: IDataObject[];
	currentPage?: number;
	totalPages?: number;
	/** `totalDocs`, or `count`/`total` where a list names its total so. */
	totalDocs?: number;
	/** Undefined when the answer has no `hasNext`. */
	hasNext?: boolean;
	/** Undefined when the answer has no `nextPage`; null when it says there is none. */
	nextPage?: number | null;
	/** The page's payload without its records (counts, sums): read for the first page only. */
	summary?: IDataObject;
}

/** An answer that is not a list of records: the message says what was wrong. */
export class WrongShape extends Error {}

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "a string", "null", "an array" ... for messages. */
export function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'undefined') return 'missing';
	return `${typeof value === 'number' ? 'a number' : typeof value === 'string' ? 'a string' : `a ${typeof value}`} (${JSON.stringify(value).slice(0, 40)})`;
}

function num(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** The `{statusCode, data}` envelope's data, or the body when it has no envelope. */
function unwrap(body: unknown): unknown {
	if (isPlainObject(body) && 'data' in body && 'statusCode' in body) return body.data;
	return body;
}

/**
 * Reads a list answer (the body as received, envelope included). Records are under `docs`
 * (spec part 1) or under `itemsKey` (`movements`, `paymentLinks`), which may hold an array or
 * an object with its own `docs` (or `items`) and pagination fields; a bare array of records is
 * read as a page without pagination fields. Anything else, and any record that is not an
 * object, is a WrongShape.
 */
export function readPage(body: unknown, itemsKey: string | undefined, pageNo: number): Page {
	const data = unwrap(body);
	if (Array.isArray(data)) return { records: checkRecords(data, 'data', pageNo), summary: pageNo === 1 ? {} : undefined };
	if (!isPlainObject(data)) {
		throw new WrongShape(`\`data\` is ${kindOf(data)}, not a page of records`);
	}
	const key = itemsKey ?? 'docs';
	let holder: IDataObject | undefined;
	let list: unknown = data[key];
	let where = key;
	if (list === undefined && itemsKey !== undefined && Array.isArray(data.docs)) {
		list = data.docs;
		where = 'docs';
	} else if (isPlainObject(list) && itemsKey !== undefined) {
		holder = list;
		list = holder.docs ?? holder.items;
		where = `${key}.${holder.docs !== undefined || holder.items === undefined ? 'docs' : 'items'}`;
	}
	if (holder && list === undefined) throw new WrongShape(`\`${key}\` is an object without a \`docs\` list of records`);
	if (!Array.isArray(list)) {
		throw new WrongShape(
			list === undefined ? `the answer has no \`${where}\` list of records` : `\`${where}\` is ${kindOf(list)}, not a list of records`,
		);
	}
	const field = (name: string): unknown => holder?.[name] ?? data[name];
	const nextPage = field('nextPage');
	const hasNext = field('hasNext');
	const page: Page = {
		records: checkRecords(list, where, pageNo),
		currentPage: num(field('currentPage') ?? field('page')),
		totalPages: num(field('totalPages')),
		totalDocs: num(field('totalDocs') ?? field('count') ?? field('total')),
		hasNext: typeof hasNext === 'boolean' ? hasNext : undefined,
		nextPage: nextPage === null ? null : num(nextPage),
	};
	if (pageNo === 1) {
		const summary: IDataObject = {};
		for (const name of Object.keys(data)) if (name !== key && name !== 'docs') summary[name] = data[name];
		page.summary = summary;
	}
	return page;
}

function checkRecords(list: unknown[], where: string, pageNo: number): IDataObject[] {
	for (let n = 0; n < list.length; n++) {
		const record = list[n];
		if (typeof record !== 'object' || record === null || Array.isArray(record)) {
			throw new WrongShape(`record ${n + 1} of \`${where}\` on page ${pageNo} is ${kindOf(record)}, not an object`);
		}
	}
	return list as IDataObject[];
}

/** A serialisation with sorted keys: equal records give equal texts. */
function stable(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
	if (isPlainObject(value)) {
		return `{${Object.keys(value)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${stable(value[k])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** Probe steps one insertion may take before the table gives way to a Set (ids alike where the hash reads). */
const MAX_PROBE = 64;

/**
 * A hash of a record id that reads a dozen characters: the length, the last 6 characters
 * (where counters and the random part of UUIDs and ObjectIds vary) and 6 spread over the rest.
 * Numbers hash their value. Never 0 (the mark of an empty slot).
 */
function quickHash(id: string | number): number {
	let h: number;
	if (typeof id === 'number') {
		h = Math.imul((id | 0) ^ 0x5bd1e995, 0x01000193) ^ Math.imul(Math.floor(id / 4294967296) | 0, 0x2c1b3c6d);
	} else {
		const n = id.length;
		h = Math.imul(0x811c9dc5 ^ n, 0x01000193);
		const tail = n > 6 ? n - 6 : 0;
		const step = tail > 6 ? Math.floor(tail / 6) : 1;
		for (let i = 0; i < tail; i += step) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
		for (let i = tail; i < n; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
		h ^= h >>> 15;
	}
	return h | 1;
}

/**
 * The records already output, by identity: the record's `id` when it is a string or a number
 * (1 and "1" differ), else its stable serialisation.
 *
 * Ids go into an open-addressing table of (hash, index) pairs in one Int32Array; equal hashes
 * are confirmed by comparing the ids themselves, so the check is exact. Profiled inside n8n
 * (Return All of 100,000 movements), a Set of the ids cost two to three times as much CPU,
 * about a fifth of the whole run. Ids so alike that the hash cannot tell them apart make long
 * probes: the table then hands over to a Set.
 */
export class SeenRecords {
	private slots = new Int32Array(2 << 10);
	private mask = (1 << 10) - 1;
	private readonly ids: Array<string | number> = [];
	/** Used instead of the table once ids turn out alike (MAX_PROBE). */
	private fallback: Set<string | number> | undefined;
	private readonly others = new Set<string>();

	/** Adds the record's identity; false when it was already there. */
	add(record: IDataObject): boolean {
		const id = record.id;
		if (typeof id !== 'string' && typeof id !== 'number') {
			const text = stable(record);
			if (this.others.has(text)) return false;
			this.others.add(text);
			return true;
		}
		const fallback = this.fallback;
		if (fallback !== undefined) {
			if (fallback.has(id)) return false;
			fallback.add(id);
			return true;
		}
		const h = quickHash(id);
		const slots = this.slots;
		const mask = this.mask;
		let i = h & mask;
		for (let probes = 0; ; probes++) {
			const at = i << 1;
			const found = slots[at];
			if (found === 0) break;
			if (found === h && this.ids[slots[at + 1]] === id) return false;
			if (probes === MAX_PROBE) {
				this.fallback = new Set(this.ids);
				this.fallback.add(id);
				this.slots = new Int32Array(0);
				return true;
			}
			i = (i + 1) & mask;
		}
		slots[i << 1] = h;
		slots[(i << 1) + 1] = this.ids.length;
		this.ids.push(id);
		if (this.ids.length * 2 > mask) this.grow();
		return true;
	}

	private grow(): void {
		const old = this.slots;
		const mask = this.mask * 2 + 1;
		const slots = new Int32Array((mask + 1) * 2);
		for (let j = 0; j < old.length; j += 2) {
			const h = old[j];
			if (h === 0) continue;
			let i = h & mask;
			while (slots[i << 1] !== 0) i = (i + 1) & mask;
			slots[i << 1] = h;
			slots[(i << 1) + 1] = old[j + 1];
		}
		this.slots = slots;
		this.mask = mask;
	}
}
