/**
 * Dates as the platform takes them (ISO 8601 UTC with milliseconds), read strictly: ISO 8601
 * with a real calendar day, or an n8n DateTime / JavaScript Date. A date or date-time without a
 * zone (what n8n's date picker produces) is a wall-clock time in the workflow's time zone, never
 * the server's: a Brazilian business's month starts at its own midnight.
 */

const ISO_DATE =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

function daysInMonth(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
	let f = formatters.get(timeZone);
	if (!f) {
		f = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		formatters.set(timeZone, f);
	}
	return f;
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

/**
 * Parses an ISO 8601 text into epoch milliseconds, or undefined when it is not one: the calendar
 * day must exist (2026-02-31 is refused, not moved to March), the time must be a time of day.
 */
export function parseIsoDate(text: string, timeZone: string): number | undefined {
	const m = ISO_DATE.exec(text.trim());
	if (!m) return undefined;
	const [, y, mo, d, h, mi, s, frac, zone] = m;
	const year = Number(y);
	const month = Number(mo);
	const day = Number(d);
	if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
	const hour = Number(h ?? 0);
	const minute = Number(mi ?? 0);
	const second = Number(s ?? 0);
	if (hour > 23 || minute > 59 || second > 59) return undefined;
	const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
	// Date.UTC maps years 0-99 to 1900-1999: set the year separately.
	const at = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
	at.setUTCFullYear(year);
	const wall = at.getTime();
	if (!zone) return wallTimeToUtc(wall, timeZone);
	if (zone.toUpperCase() === 'Z') return wall;
	const sign = zone.startsWith('-') ? -1 : 1;
	const digits = zone.slice(1).replace(':', '');
	const offH = Number(digits.slice(0, 2));
	const offM = Number(digits.slice(2) || 0);
	if (offH > 23 || offM > 59) return undefined;
	return wall - sign * (offH * 60 + offM) * 60_000;
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
	const m = ISO_DATE.exec(text.trim());
	if (!m || m[4] === undefined || m[8] === undefined) return undefined;
	return parseIsoDate(text, 'UTC');
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
