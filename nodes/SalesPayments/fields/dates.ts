/**
 * Dates as the platform takes them (ISO 8601 UTC with milliseconds), read strictly: ISO 8601
 * with a real calendar day, or an n8n DateTime / JavaScript Date. A date or date-time without a
 * zone (what n8n's date picker produces) is a wall-clock time in the workflow's time zone, never
 * the server's: a Brazilian business's month starts at its own midnight.
 */

import type { IDataObject } from 'n8n-workflow';

import { BoundedStore } from '../transport/boundedStore';

/** The parts of an ISO 8601 text as readIsoParts() finds them (one object reused: nothing allocated per text). */
export interface IsoParts {
	/** Days since 1970-01-01 of the calendar day (proleptic Gregorian). */
	days: number;
	/** Seconds into the day; 0 for a day alone. */
	seconds: number;
	/** Milliseconds of the fraction of a second, cut (never rounded up). */
	ms: number;
	/** Whether a time of day is given (not a day alone). */
	hasTime: boolean;
	/** The offset east of UTC in seconds; NaN when the text has no zone. */
	offset: number;
}

export function isoParts(): IsoParts {
	return { days: 0, seconds: 0, ms: 0, hasTime: false, offset: Number.NaN };
}

/** Two digits at `at`, or -1. */
function two(text: string, at: number): number {
	const a = text.charCodeAt(at) - 48;
	const b = text.charCodeAt(at + 1) - 48;
	return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** Days since 1970-01-01 of a day of the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
	const y = month <= 2 ? year - 1 : year;
	const era = Math.floor(y / 400);
	const yoe = y - era * 400;
	const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
	return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

function daysInMonth(year: number, month: number): number {
	if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
	return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/**
 * The one ISO 8601 reader: `YYYY-MM-DD`, then optionally `Thh:mm`, `:ss`, a fraction of 1 to 9
 * digits and a zone, on a real calendar day at a time of day (`2026-02-31`, `24:00` or a leap second
 * are none). `strict`: only as the platform writes timestamps (`T`, a `.` fraction, `Z` or `±hh:mm`);
 * else also as people type them (a space or `t`, a `,` fraction, `z`, `±hh`, `±hhmm`). Read without
 * a regular expression: the file outputs read every cell of a million rows with it.
 */
export function readIsoParts(text: string, strict: boolean, out: IsoParts): boolean {
	const length = text.length;
	if (length < 10 || text.charCodeAt(4) !== 0x2d || text.charCodeAt(7) !== 0x2d) return false;
	const century = two(text, 0);
	const yy = two(text, 2);
	const month = two(text, 5);
	const day = two(text, 8);
	const year = 100 * century + yy;
	if (century < 0 || yy < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
	out.days = daysFromCivil(year, month, day);
	out.seconds = 0;
	out.ms = 0;
	out.offset = Number.NaN;
	out.hasTime = length > 10;
	if (length === 10) return true;
	const t = text.charCodeAt(10);
	if (!(t === 0x54 || (!strict && (t === 0x74 || t === 0x20))) || length < 16 || text.charCodeAt(13) !== 0x3a) return false;
	const hour = two(text, 11);
	const minute = two(text, 14);
	if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return false;
	let second = 0;
	let at = 16;
	if (text.charCodeAt(at) === 0x3a) {
		second = two(text, 17);
		if (second < 0 || second > 59) return false;
		at = 19;
		const point = text.charCodeAt(at);
		if (point === 0x2e || (!strict && point === 0x2c)) {
			const from = ++at;
			while (at < length && at - from < 10 && text.charCodeAt(at) >= 0x30 && text.charCodeAt(at) <= 0x39) at++;
			if (at === from || at - from > 9) return false;
			// Milliseconds: the first three digits, cut.
			for (let k = from; k < from + 3; k++) out.ms = out.ms * 10 + (k < at ? text.charCodeAt(k) - 48 : 0);
		}
	}
	out.seconds = hour * 3600 + minute * 60 + second;
	if (at === length) return true;
	const sign = text.charCodeAt(at);
	if (sign === 0x5a || (!strict && sign === 0x7a)) {
		out.offset = 0;
		return at + 1 === length;
	}
	if (sign !== 0x2b && sign !== 0x2d) return false;
	const offsetHours = two(text, at + 1);
	let offsetMinutes = 0;
	const rest = length - at - 3;
	if (rest === 3 && text.charCodeAt(at + 3) === 0x3a) offsetMinutes = two(text, at + 4);
	else if (strict || (rest !== 0 && rest !== 2)) return false;
	else if (rest === 2) offsetMinutes = two(text, at + 3);
	if (offsetHours < 0 || offsetHours > 23 || offsetMinutes < 0 || offsetMinutes > 59) return false;
	out.offset = (offsetHours * 3600 + offsetMinutes * 60) * (sign === 0x2d ? -1 : 1);
	return true;
}

/** One formatter per time zone asked for (a zone's formatter is costly to make, and dates are read per cell). */
const formatters = new BoundedStore<string, Intl.DateTimeFormat>('date formatters by time zone', { maxEntries: 64, idleMs: 60 * 60_000, touchOnRead: true });

function formatter(timeZone: string): Intl.DateTimeFormat {
	return formatters.getOrCreate(
		timeZone,
		() =>
			new Intl.DateTimeFormat('en-US', {
				timeZone,
				hourCycle: 'h23',
				year: 'numeric',
				month: 'numeric',
				day: 'numeric',
				hour: 'numeric',
				minute: 'numeric',
				second: 'numeric',
			}),
	);
}

/** Whether `timeZone` is a zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
	try {
		formatter(timeZone);
		return true;
	} catch {
		return false;
	}
}

/** Offset of `timeZone` from UTC at the instant `utcMs`, in milliseconds (east positive). */
export function zoneOffsetMs(timeZone: string, utcMs: number): number {
	const parts: Record<string, number> = {};
	for (const p of formatter(timeZone).formatToParts(new Date(utcMs))) {
		if (p.type !== 'literal') parts[p.type] = Number(p.value);
	}
	const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
	return wall - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

/** The instant at which clocks in `timeZone` show the wall time `wallMs` (given as if it were UTC). */
export function wallTimeToUtc(wallMs: number, timeZone: string): number {
	const first = wallMs - zoneOffsetMs(timeZone, wallMs);
	// Near a daylight-saving change the offset at the guess can differ: correct once.
	const second = wallMs - zoneOffsetMs(timeZone, first);
	return second;
}

const parsed = isoParts();

/**
 * Parses an ISO 8601 text into epoch milliseconds, or undefined when it is not one: the calendar
 * day must exist (2026-02-31 is refused, not moved to March), the time must be a time of day.
 */
export function parseIsoDate(text: string, timeZone: string): number | undefined {
	if (!readIsoParts(text.trim(), false, parsed)) return undefined;
	const wall = (parsed.days * 86_400 + parsed.seconds) * 1000 + parsed.ms;
	return Number.isNaN(parsed.offset) ? wallTimeToUtc(wall, timeZone) : wall - parsed.offset * 1000;
}

/**
 * Epoch milliseconds of a date value: an ISO 8601 text, an n8n DateTime (Luxon) or a Date.
 * Undefined for anything else (numbers, "March 7", "1", invalid dates).
 */
export function dateValueMs(value: unknown, timeZone: string): number | undefined {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'string') return parseIsoDate(value, timeZone);
	if (typeof value !== 'object') return undefined;
	const luxon = value as { isValid?: boolean; toMillis?: () => number };
	if (typeof luxon.toMillis === 'function') {
		if (luxon.isValid === false) return undefined;
		const ms = luxon.toMillis();
		return Number.isFinite(ms) ? ms : undefined;
	}
	if (Object.prototype.toString.call(value) === '[object Date]') {
		const ms = (value as Date).getTime();
		return Number.isFinite(ms) ? ms : undefined;
	}
	return undefined;
}

/**
 * An instant read strictly: an ISO 8601 date-time that names its zone (`Z` or an offset such as
 * `+02:00`); undefined for anything else, a date alone or a time without a zone included (read in
 * some server's zone, it could be hours off).
 */
export function parseIsoInstant(text: string): number | undefined {
	const parts = isoParts();
	if (!readIsoParts(text.trim(), false, parts) || !parts.hasTime || Number.isNaN(parts.offset)) return undefined;
	return (parts.days * 86_400 + parts.seconds - parts.offset) * 1000 + parts.ms;
}

const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An HTTP `Date` header read strictly (RFC 7231 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`):
 * a real calendar day, its weekday right; undefined for any other form.
 */
export function parseHttpDate(text: string): number | undefined {
	const m = HTTP_DATE.exec(text.trim());
	if (!m) return undefined;
	const [, weekday, d, mon, y, h, mi, s] = m;
	const iso = `${y}-${String(MONTHS.indexOf(mon) + 1).padStart(2, '0')}-${d}T${h}:${mi}:${s}Z`;
	const at = parseIsoInstant(iso);
	if (at === undefined || WEEKDAYS[new Date(at).getUTCDay()] !== weekday) return undefined;
	return at;
}

/** Latest epoch ms a date may hold (9999-12-31T23:59:59.999Z): beyond, a number is no date. */
const MAX_DATE_MS = 253_402_300_799_999;
/** Epoch numbers below this are seconds (1e11 s is the year 5138; 1e11 ms is 1973). */
const SECONDS_BELOW = 1e11;

/** Epoch ms of a number of epoch seconds or milliseconds (which one, by its size). */
function epochMs(value: number): number | undefined {
	if (!Number.isFinite(value) || value < 0) return undefined;
	const ms = value < SECONDS_BELOW ? Math.round(value * 1000) : Math.round(value);
	return ms <= MAX_DATE_MS ? ms : undefined;
}

/**
 * Epoch ms of a date value in any form a platform sends: ISO 8601 with or without a zone (UTC
 * then) or `T` (`YYYY-MM-DD HH:MM:SS`), epoch seconds or milliseconds as a number or a numeric
 * string. Undefined for anything else (missing, null, "not a date", 2025-02-30).
 */
export function dateValue(value: unknown): number | undefined {
	if (typeof value === 'number') return epochMs(value);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return epochMs(Number(text));
	return parseIsoDate(text, 'UTC');
}

/** Epoch ms of the first of `fields` that holds a usable date (dateValue). */
export function recordTime(record: IDataObject, fields: string[]): number | undefined {
	for (const field of fields) {
		const ms = dateValue(record[field]);
		if (ms !== undefined) return ms;
	}
	return undefined;
}
