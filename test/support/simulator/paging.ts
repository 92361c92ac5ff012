/**
 * Hostile paging: list answers of a platform whose pagination contradicts itself or whose answers have the
 * wrong shape, for the tests of Return All's safety (issue 12.3 and 12.4). Off unless a rule is
 * added (in-process: `sim.paging.add(rule)`; other processes: `POST /__sim/paging`).
 *
 * A rule applies to the list answers (requests with a `page` query) of its method and path (a
 * substring or a RegExp source, as for faults), or of every list when it names none. The
 * records of an answer are found where the platform puts them: `docs`, `movements` (an array)
 * or `paymentLinks` (a page object with `docs`).
 *
 * Modes:
 * - `ignorePage`: every page is answered with page 1 (its `currentPage` says 1).
 * - `repeatPage`: pages after `page` (default 2) are answered with the records of `page`, with
 *   the pagination fields of the page asked for (so `currentPage` advances, the records don't).
 * - `hasNextForeverFresh`: pages past the end keep coming: page 1's records with new ids and
 *   `hasNext: true`, `nextPage`, totals that keep growing (movements: `count`).
 * - `hasNextForeverSame`: pages past the end are page 1's records again with `hasNext: true`.
 * - `absurdTotals`: `totalPages`, `totalDocs` and `count` say 10^9; the pages are honest.
 * - `overlap`: from page 2 on, each page starts `shift` (default 3) records early, as when
 *   records were added at the head of the list (every page, page 1 included, counts them in its
 *   total: the list does not change while it is read): every record still comes, some twice.
 * - wrong shapes (on `page` only when set, else on every page): `collectionString`,
 *   `collectionNumber`, `collectionObject` (the records' place holds "oops", 42 or an object
 *   without records), `nullRecord`, `numberRecord`, `stringRecord`, `arrayRecord` (one record,
 *   the `index`th, default 1, replaced), `dataNull` (`data: null`).
 * - `cap`: a platform that caps its page size at `cap` (required): a list request asking more is
 *   answered as if it had asked `cap` (page `p` holds records (p-1)*cap .. p*cap-1, and the
 *   pagination fields, where the list has them, say so: `limit`, totals, `hasNext`...). With
 *   `bare: true` the records come as a bare array where the list's page was (no pagination fields).
 * - `dates`: the records' dates (`fields`, default createdAt, updatedAt, requestAt) are shown in
 *   another `form`: `epochMs` / `epochSeconds` (numbers), `epochMsText` / `epochSecondsText`
 *   (numeric strings), `space` (`YYYY-MM-DD HH:MM:SS.mmm`, no zone), `offset` (`+00:00`), or
 *   `mixed` (one of them per record, by its id, the same in every answer). The platform still
 *   filters and sorts by the dates it keeps (seconds: keep the test's dates on whole seconds).
 * - `ignoreDateFilter`: the date filters of a request (query `createdAt[startsAt]`... and body
 *   `initialDate`, `endDate`, `createdAt`, `updatedAt`) are not applied: every answer is a page of
 *   the whole list, records before the range's start as well as after its end (`bound: 'start'`
 *   or `'end'`: only that one is ignored).
 * - `flipOrder`: even pages are pages of the list in the reverse order (odd pages oldest first,
 *   even pages newest first, or the other way round): some records are on no page.
 * Any rule may also `omit` pagination fields from its answers.
 */
import type { RouteResult } from './core';
import { pathMatches } from './faults';

export type PagingMode =
	| 'ignorePage'
	| 'repeatPage'
	| 'hasNextForeverFresh'
	| 'hasNextForeverSame'
	| 'absurdTotals'
	| 'overlap'
	| 'collectionString'
	| 'collectionNumber'
	| 'collectionObject'
	| 'nullRecord'
	| 'numberRecord'
	| 'stringRecord'
	| 'arrayRecord'
	| 'dataNull'
	| 'cap'
	| 'dates'
	| 'ignoreDateFilter'
	| 'flipOrder';

export const PAGING_MODES: readonly PagingMode[] = [
	'ignorePage',
	'repeatPage',
	'hasNextForeverFresh',
	'hasNextForeverSame',
	'absurdTotals',
	'overlap',
	'collectionString',
	'collectionNumber',
	'collectionObject',
	'nullRecord',
	'numberRecord',
	'stringRecord',
	'arrayRecord',
	'dataNull',
	'cap',
	'dates',
	'ignoreDateFilter',
	'flipOrder',
];

export type DateForm = 'epochMs' | 'epochSeconds' | 'epochMsText' | 'epochSecondsText' | 'space' | 'offset' | 'mixed';
export const DATE_FORMS: readonly DateForm[] = ['epochMs', 'epochSeconds', 'epochMsText', 'epochSecondsText', 'space', 'offset', 'mixed'];
/** Date fields a `dates` rule rewrites unless it names its own. */
const DATE_FIELDS = ['createdAt', 'updatedAt', 'requestAt'];
/** The keys of the start and end dates of the polled lists' filters (query `createdAt[startsAt]`, body `initialDate`, `updatedAt.startsAt`...). */
const BOUND_KEYS = { start: ['startsAt', 'initialDate'], end: ['endsAt', 'endDate'] };

/** `source` without the date filters of `bounds` (nested `createdAt`/`updatedAt` objects included). */
function withoutDates(source: Record<string, unknown>, bounds: Array<'start' | 'end'>): Record<string, unknown> {
	const names = bounds.flatMap((b) => BOUND_KEYS[b]);
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(source)) {
		const name = /\[(\w+)\]$/.exec(key)?.[1] ?? key;
		if (names.includes(name)) continue;
		out[key] = isObj(value) && (key === 'createdAt' || key === 'updatedAt') ? withoutDates(value, bounds) : value;
	}
	return out;
}

/** A stored date (ISO text) in another form; anything else is left as it is. */
export function dateIn(form: DateForm, value: unknown, id: unknown): unknown {
	if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return value;
	const ms = Date.parse(value);
	let chosen = form;
	if (form === 'mixed') {
		const text = String(id);
		let h = 0;
		for (let k = 0; k < text.length; k++) h = (h * 31 + text.charCodeAt(k)) >>> 0;
		const forms = DATE_FORMS.filter((f) => f !== 'mixed');
		// Half of the records keep their ISO text, the other half get one of the other forms.
		chosen = h % 2 === 0 ? forms[(h >>> 1) % forms.length] : ('iso' as DateForm);
	}
	switch (chosen) {
		case 'epochMs':
			return ms;
		case 'epochSeconds':
			return Math.floor(ms / 1000);
		case 'epochMsText':
			return String(ms);
		case 'epochSecondsText':
			return String(Math.floor(ms / 1000));
		case 'space':
			return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
		case 'offset':
			return new Date(ms).toISOString().replace('Z', '+00:00');
		default:
			return value;
	}
}

export interface PagingRule {
	mode: PagingMode;
	method?: string;
	/** Substring of the path, or a RegExp source; every list when absent. */
	path?: string;
	/** `repeatPage`: the page repeated. Wrong shapes: the only page answered wrongly. */
	page?: number;
	/** `overlap`: records each page starts early. */
	shift?: number;
	/** Record replaced by the `...Record` modes (0-based). */
	index?: number;
	/**
	 * Pagination fields removed from every answer the rule matches (e.g. `['hasNext',
	 * 'nextPage']`, or all of them for a platform that says nothing about pages).
	 */
	omit?: string[];
	/** `cap`: the largest page the platform answers. */
	cap?: number;
	/** `cap`: answer the records as a bare array, without pagination fields. */
	bare?: boolean;
	/** `dates`: the form the dates are shown in. */
	form?: DateForm;
	/** `dates`: the record fields rewritten (default createdAt, updatedAt, requestAt). */
	fields?: string[];
	/** `ignoreDateFilter`: only the start dates, or only the end dates, are ignored (default both). */
	bound?: 'start' | 'end';
}

/** A rule with the number of answers it changed. */
export interface PagingRuleState extends PagingRule {
	applied: number;
}

/** The value of absurd totals. */
export const ABSURD_TOTAL = 1_000_000_000;

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where an answer keeps its records and its pagination fields. */
interface Located {
	/** The object holding the pagination fields (the data, or the `paymentLinks` page object). */
	fields: Obj;
	/** The object holding the records' key. */
	holder: Obj;
	key: string;
	records: unknown[];
}

function locate(data: unknown): Located | undefined {
	if (!isObj(data)) return undefined;
	if (Array.isArray(data.docs)) return { fields: data, holder: data, key: 'docs', records: data.docs };
	if (Array.isArray(data.movements)) return { fields: data, holder: data, key: 'movements', records: data.movements };
	const links = data.paymentLinks;
	if (isObj(links) && Array.isArray(links.docs)) return { fields: links, holder: links, key: 'docs', records: links.docs };
	if (Array.isArray(links)) return { fields: data, holder: data, key: 'paymentLinks', records: links };
	return undefined;
}

/** A deep copy of a route's data (routes may hand out the records they keep). */
function copy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

function totalOf(fields: Obj, records: number): number {
	const n = Number(fields.totalDocs ?? fields.count);
	return Number.isFinite(n) ? n : records;
}

/** Sets the pagination fields an answer already has (movements have `count` only). */
function setFields(fields: Obj, values: { currentPage: number; hasNext: boolean; totalDocs: number; limit: number }): void {
	const totalPages = Math.max(1, Math.ceil(values.totalDocs / values.limit));
	if ('currentPage' in fields) fields.currentPage = values.currentPage;
	if ('hasNext' in fields) fields.hasNext = values.hasNext;
	if ('nextPage' in fields) fields.nextPage = values.hasNext ? values.currentPage + 1 : null;
	if ('totalPages' in fields) fields.totalPages = Math.max(totalPages, values.hasNext ? values.currentPage + 1 : 1);
	if ('totalDocs' in fields) fields.totalDocs = values.totalDocs;
	if ('count' in fields) fields.count = values.totalDocs;
}

export class HostilePaging {
	private rules: PagingRuleState[] = [];

	add(rule: PagingRule): void {
		if (!PAGING_MODES.includes(rule.mode)) throw new Error(`Unknown paging mode ${JSON.stringify(rule.mode)}`);
		if (rule.mode === 'cap' && rule.cap === undefined) throw new Error('Paging rule cap needs `cap`, the largest page size');
		if (rule.mode === 'dates' && !DATE_FORMS.includes(rule.form as DateForm)) throw new Error(`Paging rule dates needs \`form\`, one of ${DATE_FORMS.join(', ')}`);
		for (const key of ['page', 'shift', 'index', 'cap'] as const) {
			const value = rule[key];
			if (value !== undefined && !(Number.isInteger(value) && value >= (key === 'index' ? 0 : 1))) {
				throw new Error(`Paging rule ${key} must be a whole number (got ${JSON.stringify(value)})`);
			}
		}
		this.rules.push({ ...rule, applied: 0 });
	}

	list(): PagingRuleState[] {
		return this.rules.map((r) => ({ ...r }));
	}

	clear(): void {
		this.rules = [];
	}

	get active(): boolean {
		return this.rules.length > 0;
	}

	private ruleFor(method: string, path: string): PagingRuleState | undefined {
		return this.rules.find((r) => (!r.method || r.method.toUpperCase() === method) && (!r.path || pathMatches(r.path, path)));
	}

	/** The query a capping platform acts on: `limit` lowered to the cap (the recorded request keeps what was sent). */
	capped(method: string, path: string, query: Record<string, string | string[]>): Record<string, string | string[]> {
		const rule = this.ruleFor(method, path);
		const limit = Number(query.limit);
		if (rule?.mode !== 'cap' || rule.cap === undefined || !Number.isInteger(limit) || limit <= rule.cap) return query;
		return { ...query, limit: String(rule.cap) };
	}

	/**
	 * What a platform that ignores date filters acts on (`ignoreDateFilter`): the query and body
	 * without their date filters (the recorded request keeps what was sent).
	 */
	undated(method: string, path: string, query: Record<string, string | string[]>, body: unknown): { query: Record<string, string | string[]>; body: unknown } {
		const rule = this.ruleFor(method, path);
		if (rule?.mode !== 'ignoreDateFilter') return { query, body };
		const bounds: Array<'start' | 'end'> = rule.bound ? [rule.bound] : ['start', 'end'];
		return { query: withoutDates(query, bounds) as Record<string, string | string[]>, body: isObj(body) ? withoutDates(body, bounds) : body };
	}

	/**
	 * The answer to a list request under the first rule that matches it; `reroute(n)` answers
	 * page `n` of the same request as the honest platform would.
	 */
	async apply(
		method: string,
		path: string,
		query: Record<string, string | string[]>,
		result: RouteResult,
		reroute: (page: number) => Promise<RouteResult>,
	): Promise<RouteResult> {
		const pageText = query.page;
		if (typeof pageText !== 'string' || result.raw !== undefined || (result.status ?? 200) >= 300) return result;
		const page = Number(pageText);
		const limit = Number(query.limit);
		if (!Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit < 1) return result;
		const rule = this.ruleFor(method, path);
		if (!rule) return result;
		let changed = await this.transform(rule, page, limit, result, reroute);
		if (rule.omit?.length && changed.raw === undefined) {
			const data = changed === result ? copy(result.data) : changed.data;
			const here = locate(data);
			if (here) for (const key of rule.omit) delete here.fields[key];
			changed = { ...changed, data };
		}
		if (changed !== result) rule.applied++;
		return changed;
	}

	private async transform(
		rule: PagingRuleState,
		page: number,
		limit: number,
		result: RouteResult,
		reroute: (page: number) => Promise<RouteResult>,
	): Promise<RouteResult> {
		const data = copy(result.data);
		const here = locate(data);
		if (!here) return result;
		const honestTotal = totalOf(here.fields, here.records.length);
		switch (rule.mode) {
			case 'dates': {
				const fields = rule.fields ?? DATE_FIELDS;
				for (const record of here.records) {
					if (!isObj(record)) continue;
					for (const key of fields) if (key in record) record[key] = dateIn(rule.form as DateForm, record[key], record.id);
				}
				return { ...result, data };
			}
			case 'ignoreDateFilter':
				// The filters were left out before the route answered (undated()).
				rule.applied++;
				return result;
			case 'flipOrder': {
				if (page % 2 === 1) return result;
				// The whole list in the platform's order (bounded by its own page count), then reversed.
				const all: unknown[] = [];
				const pages = Math.max(1, Math.ceil(honestTotal / limit));
				for (let p = 1; p <= pages; p++) all.push(...(locate(copy((await reroute(p)).data))?.records ?? []));
				here.holder[here.key] = all.reverse().slice((page - 1) * limit, page * limit);
				return { ...result, data };
			}
			case 'cap': {
				if (!rule.bare) {
					if (limit > (rule.cap ?? Infinity)) rule.applied++;
					return result;
				}
				if (here.holder === data && here.key === 'docs') return { ...result, data: here.records };
				for (const key of Object.keys(here.fields)) if (key !== here.key) delete here.fields[key];
				if (here.fields !== data) (data as Obj).paymentLinks = here.records;
				return { ...result, data };
			}
			case 'ignorePage': {
				if (page === 1) return result;
				return { ...result, data: copy((await reroute(1)).data) };
			}
			case 'repeatPage': {
				const repeated = rule.page ?? 2;
				if (page <= repeated) return result;
				const source = locate(copy((await reroute(repeated)).data));
				if (!source) return result;
				here.holder[here.key] = source.records;
				setFields(here.fields, { currentPage: page, hasNext: true, totalDocs: Math.max(honestTotal, (page + 1) * limit), limit });
				return { ...result, data };
			}
			case 'hasNextForeverFresh':
			case 'hasNextForeverSame': {
				const lastPage = Math.max(1, Math.ceil(honestTotal / limit));
				const grown = Math.max(honestTotal, (page + 1) * limit);
				if (page < lastPage) {
					setFields(here.fields, { currentPage: page, hasNext: true, totalDocs: grown, limit });
					return { ...result, data };
				}
				let records = here.records;
				if (page > lastPage || records.length === 0) {
					const first = locate(copy((await reroute(1)).data));
					records = first?.records ?? [];
				}
				if (rule.mode === 'hasNextForeverFresh' && page > lastPage) {
					records = records.map((r) => (isObj(r) ? { ...r, id: `${String(r.id)}-page-${page}` } : r));
				}
				here.holder[here.key] = records;
				setFields(here.fields, { currentPage: page, hasNext: true, totalDocs: grown, limit });
				return { ...result, data };
			}
			case 'absurdTotals': {
				for (const key of ['totalPages', 'totalDocs', 'count'] as const) if (key in here.fields) here.fields[key] = ABSURD_TOTAL;
				return { ...result, data };
			}
			case 'overlap': {
				const shift = Math.min(rule.shift ?? 3, limit - 1);
				if (shift < 1) return result;
				if (page === 1) {
					// The total counts the records added: pages that overlap, not a list that grows while read.
					setFields(here.fields, { currentPage: 1, hasNext: here.records.length < honestTotal, totalDocs: honestTotal + shift, limit });
					return { ...result, data };
				}
				const previous = locate(copy((await reroute(page - 1)).data));
				const head = previous ? previous.records.slice(Math.max(0, previous.records.length - shift)) : [];
				// Page `page` of a list with `shift` more records at its head.
				const records = [...head, ...here.records].slice(0, limit);
				here.holder[here.key] = records;
				const start = (page - 1) * limit - shift;
				setFields(here.fields, {
					currentPage: page,
					hasNext: start + records.length < honestTotal,
					totalDocs: honestTotal + shift,
					limit,
				});
				return { ...result, data };
			}
			default:
				break;
		}
		// Wrong shapes.
		if (rule.page !== undefined && rule.page !== page) return result;
		const index = Math.min(rule.index ?? 1, Math.max(0, here.records.length - 1));
		const replaceRecord = (value: unknown) => {
			if (here.records.length === 0) here.records.push(value);
			else here.records[index] = value;
			return { ...result, data };
		};
		switch (rule.mode) {
			case 'collectionString':
				here.holder[here.key] = 'oops';
				return { ...result, data };
			case 'collectionNumber':
				here.holder[here.key] = 42;
				return { ...result, data };
			case 'collectionObject':
				here.holder[here.key] = { note: 'no records here' };
				return { ...result, data };
			case 'nullRecord':
				return replaceRecord(null);
			case 'numberRecord':
				return replaceRecord(7);
			case 'stringRecord':
				return replaceRecord('record');
			case 'arrayRecord':
				return replaceRecord([1, 2]);
			case 'dataNull':
				// Sent as is: the envelope would turn a missing data into {}.
				return { status: 200, raw: { statusCode: 200, data: null } };
			default:
				return result;
		}
	}
}
