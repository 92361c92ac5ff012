/**
 * The dates of the table outputs (issue 38, nodes/SalesPayments/files/cellDates.ts): which texts are
 * dates (strictly: a text that does not parse stays text, never guessed), their wall time in a time
 * zone across daylight-saving changes compared with Intl.DateTimeFormat read for each instant, and
 * the offsets kept per hour (a million records must not read Intl a million times). The exports
 * themselves, through n8n-core: export-trust.test.ts; in LibreOffice: test/e2e/export-trust.test.ts.
 */
import { DateCells, excelSerial, isDateField, wallText } from '../../nodes/SalesPayments/files/cellDates';
import { Utf8Builder } from '../../nodes/SalesPayments/files/utf8';

/** The wall time of `utcMs` in `zone` (seconds, as if UTC), read from Intl for this one instant. */
const formats = new Map<string, Intl.DateTimeFormat>();
function referenceWall(zone: string, utcMs: number): number {
	if (!formats.has(zone)) {
		formats.set(zone, new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }));
	}
	const parts = Object.fromEntries(
		formats
			.get(zone)!
			.formatToParts(new Date(utcMs))
			.filter((p) => p.type !== 'literal')
			.map((p) => [p.type, Number(p.value)]),
	);
	return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) / 1000;
}

/** The instant as ISO text with the given offset in minutes (`Z` for 0 unless `plus`), milliseconds kept. */
function isoAt(utcMs: number, offsetMinutes = 0): string {
	const local = new Date(utcMs + offsetMinutes * 60_000).toISOString().slice(0, 23);
	if (offsetMinutes === 0) return `${local}Z`;
	const abs = Math.abs(offsetMinutes);
	return `${local}${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const text = (wall: number) => (Number.isNaN(wall) ? 'text' : wallText(wall, false));

describe('which texts are dates', () => {
	const utc = new DateCells('UTC');
	it.each([
		['2025-06-30T23:30:00.000Z', '2025-06-30 23:30:00'],
		['2025-06-30T23:30:00Z', '2025-06-30 23:30:00'],
		['2025-06-30T23:30Z', '2025-06-30 23:30:00'],
		['2025-06-30T23:30:59.999999999Z', '2025-06-30 23:30:59'],
		['2025-06-30T23:30:00-03:00', '2025-07-01 02:30:00'],
		['2025-07-01T05:15:00+05:45', '2025-06-30 23:30:00'],
		['2024-02-29T00:00:00Z', '2024-02-29 00:00:00'],
		['1900-03-01T00:00:00Z', '1900-03-01 00:00:00'],
		['9999-12-31T23:59:59Z', '9999-12-31 23:59:59'],
		// Not dates: not a real day or time, not the form, out of Excel's calendar.
		['2025-02-29T00:00:00Z', 'text'],
		['2025-04-31T00:00:00Z', 'text'],
		['2025-06-30T24:00:00Z', 'text'],
		['2025-06-30T23:60:00Z', 'text'],
		['2025-06-30T23:59:60Z', 'text'],
		['2025-06-30T23:30:00.1234567890Z', 'text'],
		['2025-06-30T23:30:00.Z', 'text'],
		['2025-06-30T23:30:00z', 'text'],
		['2025-06-30 23:30:00Z', 'text'],
		['2025-06-30T23:30:00+24:00', 'text'],
		['2025-06-30T23:30:00+0300', 'text'],
		['2025-06-30T23:30:00Z ', 'text'],
		['2025-6-30T23:30:00Z', 'text'],
		['2o25-06-30T23:30:00Z', 'text'],
		['1900-02-28T23:59:59Z', 'text'],
		['0001-01-01T00:00:00Z', 'text'],
		// Without a zone, or a day alone: only in the platform's date fields.
		['2025-06-30T23:30:00', 'text'],
		['2025-06-30', 'text'],
		['12345678-1234', 'text'],
	])('%j -> %s', (value, expected) => {
		expect(text(utc.wallSeconds(value, false))).toBe(expected);
	});

	it("in the platform's date fields (createdAt, paidAt, customer.updatedAt ...), also a date-time without a zone (the workflow's wall time) and a day alone", () => {
		expect(['createdAt', 'updatedAt', 'paidAt', 'requestAt', 'subscribedAt', 'date', 'expiration', 'customer.createdAt'].every(isDateField)).toBe(true);
		expect(['created', 'name', 'createdAtText', 'updated.at', 'dates'].some(isDateField)).toBe(false);
		const sp = new DateCells('America/Sao_Paulo');
		expect(text(sp.wallSeconds('2025-06-30T23:30:00', true))).toBe('2025-06-30 23:30:00');
		expect(sp.dayOnly).toBe(false);
		const day = sp.wallSeconds('2025-06-30', true);
		expect([wallText(day, true), sp.dayOnly, excelSerial(day)]).toEqual(['2025-06-30', true, 45838]);
		expect(text(sp.wallSeconds('2025-02-30', true))).toBe('text');
		// A zoned text in a date field is converted like any other.
		expect(text(sp.wallSeconds('2025-07-01T02:30:00.000Z', true))).toBe('2025-06-30 23:30:00');
	});

	it("Excel's serial number: days since 1899-12-30, the time of day as a fraction", () => {
		const wall = utc.wallSeconds('2025-06-30T23:30:00Z', false);
		expect(excelSerial(wall)).toBeCloseTo(45838 + 23.5 / 24, 10);
		expect(Math.round((excelSerial(wall) - 25569) * 86400)).toBe(wall);
		expect(excelSerial(utc.wallSeconds('1900-03-01T00:00:00Z', false))).toBe(61);
	});
});

describe('the texts written (kept per day and per second of the day)', () => {
	it('the serial number within 1e-10 of a day (9 µs) of Excel\'s, read back to the same second; the date and time as wallText gives them', () => {
		const cells = new DateCells('UTC');
		const out = new Utf8Builder();
		let seed = 11;
		for (let n = 0; n < 20_000; n++) {
			seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
			// Whole seconds from 1900-03-01 to 2100, some at midnight, some on the same day as the one before.
			let wall = -2_203_891_200 + Math.floor((seed / 2 ** 31) * 6.3e9);
			if (n % 7 === 0) wall -= wall % 86_400;
			if (n % 5 === 0) wall = wall - (wall % 86_400) + (n % 86_400);
			cells.writeSerial(wall, out);
			const serial = out.take().toString();
			expect(serial).toMatch(/^\d+(\.\d{1,12})?$/);
			if (Math.abs(Number(serial) - excelSerial(wall)) > 1e-10 || Math.round((Number(serial) - 25569) * 86400) !== wall) expect({ wall, serial }).toEqual({ wall, serial: String(excelSerial(wall)) });
			cells.writeText(wall, n % 3 === 0, out);
			const text = out.take().toString();
			if (text !== wallText(wall, n % 3 === 0)) expect({ wall, text }).toEqual({ wall, text: wallText(wall, n % 3 === 0) });
		}
	});
});

describe('wall times across daylight-saving changes, as Intl gives them for each instant', () => {
	const ZONES = ['America/Sao_Paulo', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham', 'America/St_Johns', 'UTC'];

	it.each(ZONES)('%s: every minute around each change of 2016-2026 and 4,000 instants of 1901-2099', (zone) => {
		const cells = new DateCells(zone);
		const check = (utcMs: number) => {
			const want = referenceWall(zone, utcMs);
			const got = cells.wallSeconds(isoAt(utcMs), false);
			// The same instant written with an offset other than Z reads the same.
			const again = cells.wallSeconds(isoAt(utcMs, -(3 * 60 + 30)), false);
			if (got !== want || again !== want) expect({ zone, at: isoAt(utcMs), got: text(got), again: text(again) }).toEqual({ zone, at: isoAt(utcMs), got: text(want), again: text(want) });
		};
		let changes = 0;
		const start = Date.UTC(2016, 0, 1);
		let previous = referenceWall(zone, start) - start / 1000;
		for (let hour = start; hour < Date.UTC(2027, 0, 1); hour += 3_600_000) {
			const offset = referenceWall(zone, hour) - hour / 1000;
			if (offset === previous) continue;
			previous = offset;
			changes++;
			for (let minute = -150; minute <= 150; minute++) check(hour + minute * 60_000 + 17_123);
		}
		// São Paulo's last change was in February 2019.
		if (zone !== 'UTC' && zone !== 'Asia/Kathmandu') expect(changes).toBeGreaterThanOrEqual(6);
		let seed = 7;
		for (let n = 0; n < 4000; n++) {
			seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
			check(Date.UTC(1901, 0, 1) + Math.floor((seed / 2 ** 31) * (Date.UTC(2099, 0, 1) - Date.UTC(1901, 0, 1))));
		}
	});

	it('reads Intl about twice per hour of records, not once per record', () => {
		const calls = jest.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
		try {
			const cells = new DateCells('America/Sao_Paulo');
			const from = Date.UTC(2025, 5, 1);
			// 100,000 movements over 30 days, in order.
			for (let n = 0; n < 100_000; n++) cells.wallSeconds(isoAt(from + n * 25_920), false);
			expect(calls.mock.calls.length).toBeLessThanOrEqual(30 * 24 + 2);
		} finally {
			calls.mockRestore();
		}
	});
});
