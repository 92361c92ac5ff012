import { isoParts, readIsoParts, zoneOffsetMs } from '../fields/dates';
import type { Utf8Builder } from './utf8';

/**
 * File Options › Dates (rules: docs/exports.md, "Dates"): a cell is a date when it is an ISO 8601
 * date-time as the platform writes them (readIsoParts strict); in DATE_FIELDS also without a zone
 * or a day alone. Anything else, or outside Excel's 1900-03-01 to 9999, stays text. The fraction of
 * a second is dropped, never rounded up into the next second (or day).
 */

/** The fields the platform dates its records by (spec part 2, and the simulator's records). */
const DATE_FIELDS = new Set(['createdAt', 'updatedAt', 'paidAt', 'requestAt', 'subscribedAt', 'date', 'expiration', 'releaseAt', 'expiresAt', 'redeemedAt', 'loggedAt']);

/** Whether the column `path` (a dot path) is a field the platform dates its records by. */
export function isDateField(path: string): boolean {
	return DATE_FIELDS.has(path.slice(path.lastIndexOf('.') + 1));
}

const DAY = 86_400;
/** 1900-03-01 and 9999-12-31 23:59:59 in seconds since 1970 (Excel's serial 61 is 1900-03-01: its 1900 is a leap year). */
const FIRST = -2_203_891_200;
const LAST = 253_402_300_799;
/** Days from 1899-12-30 (Excel's serial 0) to 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25_569;
/** Hours whose offset a ZoneClock holds before it starts over (a run over 11 years of records). */
const MAX_HOURS = 100_000;

/**
 * A time zone's offsets from UTC, asked of `Intl.DateTimeFormat` once per hour of UTC: a million
 * records cost a few thousand calls. An hour with a daylight-saving change is asked per second.
 */
export class ZoneClock {
	private readonly hours = new Map<number, number>();
	private lastHour = Number.NaN;
	private lastOffset = 0;

	constructor(readonly timeZone: string) {}

	/** The zone's offset in seconds (east positive) at `utc`, seconds since 1970 UTC. */
	offset(utc: number): number {
		const hour = Math.floor(utc / 3600);
		if (hour === this.lastHour) return this.lastOffset;
		const start = this.hourOffset(hour);
		if (start !== this.hourOffset(hour + 1)) return zoneOffsetMs(this.timeZone, utc * 1000) / 1000;
		this.lastHour = hour;
		this.lastOffset = start;
		return start;
	}

	private hourOffset(hour: number): number {
		let offset = this.hours.get(hour);
		if (offset === undefined) {
			if (this.hours.size >= MAX_HOURS) this.hours.clear();
			offset = zoneOffsetMs(this.timeZone, hour * 3_600_000) / 1000;
			this.hours.set(hour, offset);
		}
		return offset;
	}
}

/** Reads dates out of texts, as wall times of one time zone, and writes them. */
export class DateCells {
	/** Whether the last date read was a day alone (no time). */
	dayOnly = false;
	private readonly clock: ZoneClock;
	/** What the ISO 8601 reader of fields/dates.ts found in the last text (reused). */
	private readonly parts = isoParts();
	/**
	 * Texts already made: the last day's and each second's (at most 86,400, 3-4 MB), so a date costs
	 * no formatting (a million dates as new strings took a third of the .xlsx writer's time).
	 */
	private day = Number.NaN;
	private dayText = '';
	private daySerial = '';
	// Allocated whole (holey, fast elements: filled in any order they stay arrays, not dictionaries).
	private readonly times = new Array<string | undefined>(DAY);
	private readonly fractions = new Array<string | undefined>(DAY);

	constructor(timeZone: string) {
		this.clock = new ZoneClock(timeZone);
	}

	/**
	 * The wall time in the zone, in seconds since 1970-01-01 counted as if it were UTC, of a text
	 * that is a date; NaN for any other text. `named`: the text is in one of DATE_FIELDS.
	 */
	wallSeconds(text: string, named: boolean): number {
		const length = text.length;
		if (length < 16 ? !(named && length === 10) : length > 35) return Number.NaN;
		const parts = this.parts;
		if (!readIsoParts(text, true, parts)) return Number.NaN;
		this.dayOnly = !parts.hasTime;
		const local = parts.days * DAY + parts.seconds;
		if (Number.isNaN(parts.offset)) return named ? inRange(local) : Number.NaN;
		return this.wall(local - parts.offset);
	}

	/** The wall time of the instant `utc` (seconds since 1970). */
	private wall(utc: number): number {
		// Outside Excel's calendar (with a day to spare for any offset): no offset to read.
		if (utc < FIRST - DAY || utc > LAST + DAY) return Number.NaN;
		return inRange(utc + this.clock.offset(utc));
	}

	/** Excel's serial number of a wall time (days since 1899-12-30, the time as a fraction of a day, to 1e-12 of a day), into `out`. */
	writeSerial(wall: number, out: Utf8Builder): void {
		const second = this.setDay(wall);
		out.appendPlain(this.daySerial);
		if (second === 0) return;
		let fraction = this.fractions[second];
		if (fraction === undefined) {
			// `.979166666667`: twelve decimals, trailing zeros dropped.
			fraction = (second / DAY).toFixed(12).slice(1).replace(/0+$/, '');
			this.fractions[second] = fraction;
		}
		out.appendPlain(fraction);
	}

	/** A wall time as `yyyy-mm-dd hh:mm:ss` (a day alone `yyyy-mm-dd`), into `out`. */
	writeText(wall: number, dayOnly: boolean, out: Utf8Builder): void {
		const second = this.setDay(wall);
		out.appendPlain(this.dayText);
		if (dayOnly) return;
		let time = this.times[second];
		if (time === undefined) {
			time = ` ${new Date(second * 1000).toISOString().slice(11, 19)}`;
			this.times[second] = time;
		}
		out.appendPlain(time);
	}

	/** Makes the texts of the day of `wall` current; returns the second of that day. */
	private setDay(wall: number): number {
		const day = Math.floor(wall / DAY);
		if (day !== this.day) {
			this.day = day;
			this.dayText = new Date(day * DAY * 1000).toISOString().slice(0, 10);
			this.daySerial = String(day + EXCEL_EPOCH_DAYS);
		}
		return wall - day * DAY;
	}
}

function inRange(wall: number): number {
	return wall >= FIRST && wall <= LAST ? wall : Number.NaN;
}

/** Excel's serial number of a wall time (days since 1899-12-30, the time as a fraction of a day). */
export function excelSerial(wall: number): number {
	return wall / DAY + EXCEL_EPOCH_DAYS;
}

/** A wall time as `yyyy-mm-dd hh:mm:ss`, or `yyyy-mm-dd` for a day alone. */
export function wallText(wall: number, dayOnly: boolean): string {
	const iso = new Date(wall * 1000).toISOString();
	return dayOnly ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}
