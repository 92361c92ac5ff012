/**
 * The strict instant readers of fields/dates.ts: an ISO 8601 date-time that names its zone, and an
 * HTTP Date header in RFC 7231's IMF-fixdate form (the webhook trigger reads the platform's clock
 * with them: trigger-leftovers.test.ts).
 */
import { parseHttpDate, parseIsoInstant } from '../../nodes/SalesPayments/fields/dates';

describe('instants read strictly', () => {
	it('parseIsoInstant and parseHttpDate read only what names its zone', () => {
		const at = Date.UTC(2026, 10, 28, 6, 59, 30);
		expect(parseIsoInstant('2026-11-28T06:59:30.000Z')).toBe(at);
		expect(parseIsoInstant('2026-11-28T15:59:30+09:00')).toBe(at);
		expect(parseIsoInstant('2026-11-28T03:59:30.000-0300')).toBe(at);
		const unread = ['2026-11-28T06:59:30.000', '2026-11-28', '2026-02-30T06:59:30Z', '1764313170000', 'Sat, 28 Nov 2026 06:59:30 GMT'];
		expect(unread.map((text) => ({ text, read: parseIsoInstant(text) })).filter((r) => r.read !== undefined)).toEqual([]);
		expect(parseHttpDate('Sat, 28 Nov 2026 06:59:30 GMT')).toBe(at);
		const refused = ['Sat, 28 Nov 2026 06:59:30', 'Sat, 28 Nov 2026 06:59:30 +0000', 'Fri, 28 Nov 2026 06:59:30 GMT', 'Saturday, 28-Nov-26 06:59:30 GMT', 'Sat Nov 28 06:59:30 2026', '2026-11-28T06:59:30Z'].map((text) => ({ text, read: parseHttpDate(text) }));
		expect(refused.filter((r) => r.read !== undefined)).toEqual([]);
	});
});
