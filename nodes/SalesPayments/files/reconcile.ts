import type { IDataObject } from 'n8n-workflow';

/**
 * Whether a file output adds up (docs/exports.md, "Does it add up?"): the rows written and, where
 * the list totals its amounts (movements' `totalValue`), the sum of the `valueInCents` written,
 * beside the platform's own count (`count`, `totalDocs` or `total`) and total. A mismatch is named
 * (Limit, records removed while read, rows the platform does not count, a value that differs) and
 * never fails the export: the summary says `reconciled: false` and why.
 *
 * Cents are added as whole numbers: exact while the sum stays within 2^53 (90 trillion in any
 * currency); past it, or with a value that is not a whole number, the sum is not claimed.
 */

/** What the walk tells about the list when the export ends. */
export interface ListFacts {
	/** Rows of records written. */
	rows: number;
	/** Rows of records the reading that finished no longer found (recordsRemovedWhileRead). */
	removed: number;
	/** Limit, when set. */
	limit?: number;
	/** The list's own totals (the last page of the reading that finished, without the page's fields). */
	totals: IDataObject;
}

const COUNT_FIELDS = ['count', 'totalDocs', 'total'];

const n = (value: number) => value.toLocaleString('en-US');
const rowsOf = (count: number) => `${n(count)} ${count === 1 ? 'row' : 'rows'}`;

export class Reconciliation {
	private cents = 0;
	/** Rows whose `valueInCents` is not a whole number (or the sum passed 2^53). */
	private unsummed = 0;

	/** Adds the values of the records written. */
	add(records: IDataObject[]): void {
		for (const record of records) {
			const value = record.valueInCents;
			if (typeof value === 'number' && Number.isSafeInteger(value) && Number.isSafeInteger(this.cents + value)) this.cents += value;
			else this.unsummed++;
		}
	}

	/** `reconciled` and `reconciliation` for the summary. */
	result({ rows, removed, limit, totals }: ListFacts): { reconciled: boolean; reconciliation: IDataObject } {
		const reasons: string[] = [];
		const countField = COUNT_FIELDS.find((name) => typeof totals[name] === 'number');
		const count = countField === undefined ? undefined : (totals[countField] as number);
		const totalValue = typeof totals.totalValue === 'number' ? totals.totalValue : undefined;
		const limited = limit !== undefined && count !== undefined && limit < count;
		const reconciliation: IDataObject = { rows };
		if (countField !== undefined) reconciliation[countField] = count;
		if (totalValue !== undefined) {
			reconciliation.valueInCents = this.unsummed === 0 ? this.cents : null;
			reconciliation.totalValue = totalValue;
		}
		if (count === undefined) reasons.push('the platform gave no count of the list (count, totalDocs or total) to compare the rows with');
		else if (limited) reasons.push(`Limit: ${n(rows)} of the list's ${n(count)} records written, and the platform's totals count them all`);
		else {
			if (removed > 0) reasons.push(`${rowsOf(removed)} of records removed from the list while it was read (recordsRemovedWhileRead)`);
			if (rows - removed !== count) {
				reasons.push(
					`${rowsOf(rows - removed)} of the list as it ended written, the platform counts ${n(count)}` +
						(rows - removed > count ? ': the platform lists records its count leaves out (a filter it ignored?)' : ': records the platform counts were not listed'),
				);
			}
		}
		if (totalValue !== undefined && !limited) {
			if (this.unsummed > 0) reasons.push(`${rowsOf(this.unsummed)} without a whole valueInCents (or the sum passed 2^53): the values were not added up`);
			else if (this.cents !== totalValue) {
				reasons.push(
					`the valueInCents written add up to ${n(this.cents)}, the platform's totalValue is ${n(totalValue)} (${this.cents > totalValue ? '+' : ''}${n(this.cents - totalValue)}): records changed while the list was read, or rows the totals leave out`,
				);
			}
		}
		reconciliation.reasons = reasons;
		return { reconciled: reasons.length === 0, reconciliation };
	}
}
