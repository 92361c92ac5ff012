import type { IDataObject } from 'n8n-workflow';

import type { Exact } from '../paging/totals';
import { cameText, COUNT_FIELDS, figure, jsonOf, minus, moneyOf, readExact } from '../paging/totals';
import { hasOwn, setOwn } from '../transport/records';

/**
 * Whether a file output adds up (docs/exports.md, "Does it add up?"): rows and the sum of
 * `valueInCents` against each count and `totalValue` the list gives (read by paging/totals.ts).
 * `reconciled` only when every figure was read and matched; a mismatch never fails the export.
 */

/** What is known of the list when the export ends. */
export interface ListFacts {
	/** Rows of records written. */
	rows: number;
	/** Rows of records the pass that finished no longer found (recordsRemovedWhileRead). */
	removed: number;
	/** Limit, when set. */
	limit?: number;
	/** The list's own totals (the last page of the pass that finished, without the page's fields). */
	totals: IDataObject;
	/** Add Decimal Amounts: money beside the cents. */
	money?: boolean;
	/** Read in date windows (Order › Oldest First): the figures are the whole range's, read once at the end. */
	windows?: boolean;
}

/** Rows named in a reason, of those whose value cannot be added up (fewer when the reason would pass its most characters). */
const NAMED_ROWS = 3;
/** The most characters of a reason (it names the figure and the record it means first). */
export const MAX_REASON = 300;
/** The most characters of a record's id or a value quoted in a reason. */
const MAX_QUOTED = 40;

/** A record's id as a reason names it, cut to MAX_QUOTED characters. */
const shortened = (text: string) => (text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED - 1)}…` : text);
const rowsOf = (count: number) => `${figure(count)} ${count === 1 ? 'row' : 'rows'}`;
const whole = (units: bigint): Exact => ({ units, scale: 0 });

export class Reconciliation {
	/** The sum while it is a safe integer, moved into `big` before it would pass 2^53: exact in any order. */
	private small = 0;
	private big = 0n;
	/** Rows whose `valueInCents` is not a whole number, and the first few of them. */
	private unsummed = 0;
	private readonly unsummedIn: string[] = [];

	/** Adds the values of the records written. */
	add(records: IDataObject[]): void {
		for (const record of records) {
			// The record's own field: never one read through a `__proto__` key (records.ts setOwn).
			const value = hasOwn(record, 'valueInCents') ? record.valueInCents : undefined;
			if (typeof value === 'number' && Number.isSafeInteger(value)) {
				const sum = this.small + value;
				if (Number.isSafeInteger(sum)) this.small = sum;
				else {
					this.big += BigInt(this.small) + BigInt(value);
					this.small = 0;
				}
				continue;
			}
			const exact = readExact(value);
			if (exact !== undefined && exact.scale === 0) this.big += exact.units;
			else this.skip(record, value);
		}
	}

	private skip(record: IDataObject, value: unknown): void {
		this.unsummed++;
		if (this.unsummedIn.length < NAMED_ROWS) {
			const id = hasOwn(record, 'id') && (typeof record.id === 'string' || typeof record.id === 'number') ? `record ${shortened(String(record.id))}` : 'a record without an id';
			this.unsummedIn.push(`${id}: ${cameText(value, MAX_QUOTED)}`);
		}
	}

	/** `reconciled` and `reconciliation` for the summary. */
	result({ rows, removed, limit, totals, money, windows }: ListFacts): { reconciled: boolean; reconciliation: IDataObject } {
		const reasons: string[] = [];
		const reconciliation: IDataObject = { rows };
		const given = COUNT_FIELDS.filter((name) => totals[name] !== undefined);
		const counts: Array<[string, bigint]> = [];
		for (const name of given) {
			const exact = readExact(totals[name]);
			reconciliation[name] = exact === undefined ? (totals[name] as IDataObject[string]) : jsonOrNumber(exact, totals[name]);
			if (exact === undefined) reasons.push(`the platform's ${name} is ${cameText(totals[name])}, not a number: the rows were not compared with it`);
			else if (exact.scale > 0 || exact.units < 0n) reasons.push(`the platform's ${name} is ${figure(exact)}, not a whole number of records: ${rowsOf(rows)} written`);
			else counts.push([name, exact.units]);
		}
		if (given.length === 0) reasons.push('the platform gave no count of the list (totalDocs, count or total) to compare the rows with');
		const limited = limit !== undefined && counts.some(([, count]) => BigInt(limit) < count);
		if (limited) {
			reasons.push(`Limit: ${figure(rows)} of the list's ${figure(counts.find(([, count]) => BigInt(limit) < count)![1])} records written, and the platform's totals count them all`);
		} else {
			if (removed > 0) reasons.push(`${rowsOf(removed)} of records removed from the list while it was read (recordsRemovedWhileRead)`);
			const listed = BigInt(rows - removed);
			for (const [name, count] of counts) {
				if (listed === count) continue;
				const why = windows
					? ': the list changed while it was read in date windows (a record removed, or added with a date already written: Oldest First cannot put it in its place)'
					: listed > count
						? ': the platform lists records its count leaves out (a filter it ignored?)'
						: ': records the platform counts were not listed';
				reasons.push(`${rowsOf(rows - removed)} of the list as it ended written, the platform's ${name} is ${figure(count)}${why}`);
			}
		}
		if (totals.totalValue !== undefined) this.values(totals.totalValue, limited, reconciliation, reasons, money === true);
		reconciliation.reasons = reasons.map((reason) => (reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason));
		return { reconciled: reasons.length === 0, reconciliation };
	}

	/** The sum of the values written beside the list's `totalValue`. */
	private values(came: unknown, limited: boolean, reconciliation: IDataObject, reasons: string[], money: boolean): void {
		const sum = this.big + BigInt(this.small);
		const total = readExact(came);
		reconciliation.valueInCents = this.unsummed === 0 ? jsonOf(sum) : null;
		reconciliation.totalValue = total === undefined ? (came as IDataObject[string]) : jsonOrNumber(total, came);
		if (money) {
			if (this.unsummed === 0) reconciliation.value = moneyOf(sum);
			if (total !== undefined && total.scale === 0) reconciliation.totalValueDecimal = moneyOf(total.units);
		}
		if (total === undefined) {
			reasons.push(`the platform's totalValue is ${cameText(came)}, not a number: the values written were not compared with it`);
			return;
		}
		if (limited) return;
		if (this.unsummed > 0) {
			const reason = (named: string[]) =>
				`${rowsOf(this.unsummed)} whose valueInCents is not a whole number of cents (${named.join('; ')}${this.unsummed > named.length ? ', ...' : ''}): the values were not added up, nor compared with totalValue`;
			// As many of the rows named as the reason's most characters hold (one at least).
			let named = this.unsummedIn;
			while (named.length > 1 && reason(named).length > MAX_REASON) named = named.slice(0, -1);
			reasons.push(reason(named));
		} else if (total.scale > 0) {
			reasons.push(`the platform's totalValue is ${figure(total)}, not a whole number of cents: the valueInCents written add up to ${figure(sum)}`);
		} else if (sum !== total.units) {
			const diff = minus(whole(sum), total);
			reasons.push(
				`the valueInCents written add up to ${figure(sum)}, the platform's totalValue is ${figure(total)} (${diff.units > 0n ? '+' : ''}${figure(diff)}): records changed while the list was read, or rows the totals leave out`,
			);
		}
	}
}

/** A figure as the reconciliation shows it: a number as it came, a text read as a number (exact digits past 2^53). */
function jsonOrNumber(exact: Exact, came: unknown): number | string {
	if (typeof came === 'number') return came;
	return exact.scale === 0 ? jsonOf(exact.units) : (came as string);
}

/**
 * The list's totals with money beside the cents (Add Decimal Amounts): `totalValue` 2516990 gets
 * `totalValueDecimal` 25169.9, a `...InCents` total its decimal as records get it. Exact; a figure
 * that is not a whole number gets none.
 */
export function totalsWithMoney(totals: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(totals)) {
		setOwn(out, name, value);
		const base = name === 'totalValue' ? 'totalValueDecimal' : /^(.+)InCents$/.exec(name)?.[1];
		const cents = base === undefined ? undefined : readExact(value);
		if (base === undefined || cents === undefined || cents.scale > 0) continue;
		const decimal = hasOwn(totals, base) ? `${base}Decimal` : base;
		if (!hasOwn(totals, decimal)) setOwn(out, decimal, moneyOf(cents.units));
	}
	return out;
}
