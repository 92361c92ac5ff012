/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * One ISO 8601 reader (issue 47): fields/dates.ts readIsoParts() reads the dates people type
 * (parseIsoDate, every date field and filter) and the platform's timestamps in the file outputs
 * (files/cellDates.ts). parseIsoDate keeps exactly what the regular expression it replaced
 * accepted, checked against that expression on texts built from every part it knows.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { parseIsoDate, wallTimeToUtc } from '../../nodes/SalesPayments/fields/dates';

/** parseIsoDate of 1e288e7, as it was: the oracle. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
function before(text: string): number | undefined {
	const m = ISO_DATE.exec(text.trim());
	if (!m) return undefined;
	const [, y, mo, d, h, mi, s, frac, zone] = m;
	const [year, month, day] = [Number(y), Number(mo), Number(d)];
	if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
	const [hour, minute, second] = [Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0)];
	if (hour > 23 || minute > 59 || second > 59) return undefined;
	const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
	const at = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
	at.setUTCFullYear(year);
	const wall = at.getTime();
	if (!zone) return wallTimeToUtc(wall, 'UTC');
	if (zone.toUpperCase() === 'Z') return wall;
	const sign = zone.startsWith('-') ? -1 : 1;
	const digits = zone.slice(1).replace(':', '');
	const [offH, offM] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || 0)];
	if (offH > 23 || offM > 59) return undefined;
	return wall - sign * (offH * 60 + offM) * 60_000;
}

const DAYS = ['2025-06-30', '2024-02-29', '2025-02-29', '2026-02-31', '0000-01-01', '9999-12-31', '1900-02-29', '2000-02-29', '2025-13-01', '2025-00-10', '2025-1-01', '20250601'];
const SEPARATORS = ['T', 't', ' ', 'x', ''];
const TIMES = ['23:30', '23:59:59', '24:00', '12:60', '00:00:60', '10:00:00.5', '10:00:00,123456789', '10:00:00.1234567890', '10:00:00.', '10:00.5', '7:00', '10:00:00.999'];
const ZONES = ['', 'Z', 'z', '+03:00', '-03:00', '+0530', '+05', '-24:00', '+05:60', '+05:3', '+5', 'UTC', ' '];

describe('one ISO 8601 reader', () => {
	it('parseIsoDate reads exactly what the expression it replaced read, to the millisecond', () => {
		const differ: string[] = [];
		let read = 0;
		for (const day of DAYS) {
			for (const text of [day, ` ${day} `, `${day}Z`]) if (parseIsoDate(text, 'UTC') !== before(text)) differ.push(text);
			for (const sep of SEPARATORS) {
				for (const time of TIMES) {
					for (const zone of ZONES) {
						const text = `${day}${sep}${time}${zone}`;
						const got = parseIsoDate(text, 'UTC');
						if (got !== undefined) read++;
						if (got !== before(text)) differ.push(`${text}: ${String(got)} / ${String(before(text))}`);
					}
				}
			}
		}
		expect(differ).toEqual([]);
		expect(read).toBeGreaterThan(500);
	});

	it('no other reader in shipped code: one daysInMonth, no ISO 8601 expression', () => {
		const files: string[] = [];
		const walk = (dir: string) => {
			for (const name of readdirSync(dir)) {
				const full = path.join(dir, name);
				if (statSync(full).isDirectory()) walk(full);
				else if (name.endsWith('.ts')) files.push(full);
			}
		};
		walk(path.resolve(__dirname, '../../nodes'));
		const defining = files.filter((f) => /function daysInMonth\b|function daysFromCivil\b/.test(readFileSync(f, 'utf8')));
		expect(defining.map((f) => path.basename(f))).toEqual(['dates.ts']);
		const expressions = files.filter((f) => /\\d\{4\}-\\d\{2\}-\\d\{2\}|\(\\d\{4\}\)-\(\\d\{2\}\)/.test(readFileSync(f, 'utf8')));
		expect(expressions).toEqual([]);
	});
});
