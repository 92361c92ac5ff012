import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../transport/records';

/**
 * The columns the CSV and the .xlsx share (rules: docs/exports.md, "CSV"). Nested objects become dot
 * paths. The header comes before the first row, so the columns are the first page's fields; a field
 * only a later record has goes, as JSON, into the last column, `_extraFields`, which is always there
 * (every export of a list has the same columns). Chosen columns (File Options › Columns) have none.
 */

/** A column chosen in File Options › Columns: a field (dot path) and its name in the header. */
export interface ChosenColumn {
	field: string;
	header: string;
}

export const EXTRA_COLUMN = '_extraFields';
/** Names of fields outside the columns listed in the summary; more are counted. */
const MAX_EXTRA_NAMES = 100;

/** The leaves of a record as [dot path, value], depth first, in key order. */
export function flatten(record: IDataObject, prefix = '', out: Array<[string, unknown]> = []): Array<[string, unknown]> {
	for (const key of Object.keys(record)) {
		const value = record[key];
		const path = prefix === '' ? key : `${prefix}.${key}`;
		if (isPlainObject(value)) flatten(value, path, out);
		else out.push([path, value]);
	}
	return out;
}

export function cellText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return JSON.stringify(value);
}


/** The columns, fixed by the first page; cells keep their values (the CSV writes text, the .xlsx typed cells). */
export class TableLayout {
	private columns = new Map<string, number>();
	/** Fields of the first page left without a column by the most columns. */
	private pastLastColumn = 0;
	private started = false;
	private extraColumn = EXTRA_COLUMN;
	/** The cells of the row being placed, and which columns it has filled (reused row to row). */
	private cells: unknown[] = [];
	private filled = new Uint8Array(0);
	/** Chosen columns: which of them some record has. */
	private found = new Uint8Array(0);
	private readonly extraNames = new Set<string>();
	/** Chosen columns: the paths that hold another chosen path (`buyer` for `buyer.address.city`), to look inside. */
	private readonly chosenParents = new Set<string>();
	/** Distinct names beyond MAX_EXTRA_NAMES are not listed: this says there were more. */
	private moreExtraNames = false;
	private recordsWithExtra = 0;
	/** The leaves of the first page's records (the .xlsx finds its decimal amounts among them). */
	readonly firstPageFields = new Set<string>();

	get isStarted(): boolean {
		return this.started;
	}

	/** The fields of the columns, in order (`_extraFields` not included). */
	get fields(): string[] {
		return [...this.columns.keys()];
	}

	/** Column names: the chosen header names, or the fields with `_extraFields` last. */
	get header(): string[] {
		return this.chosen ? this.chosen.map((c) => c.header) : [...this.columns.keys(), this.extraColumn];
	}

	/** `maxColumns`: the most columns, `_extraFields` included (default: no bound); `chosen`: File Options › Columns. */
	constructor(
		private readonly maxColumns = Infinity,
		private readonly chosen?: ChosenColumn[],
	) {
		if (chosen) {
			for (const { field } of chosen) {
				this.columns.set(field, this.columns.size);
				for (let dot = field.indexOf('.'); dot > 0; dot = field.indexOf('.', dot + 1)) this.chosenParents.add(field.slice(0, dot));
			}
		}
	}

	/** Fixes the columns from the first page (every field in the order they first appear, within the most columns), unless chosen. */
	start(firstPage: IDataObject[]): string[] {
		const past = new Set<string>();
		for (const record of firstPage) {
			for (const [path] of flatten(record)) {
				this.firstPageFields.add(path);
				if (this.chosen || this.columns.has(path)) continue;
				if (this.columns.size < this.maxColumns - 1) this.columns.set(path, this.columns.size);
				else past.add(path);
			}
		}
		this.pastLastColumn = past.size;
		if (!this.chosen) while (this.columns.has(this.extraColumn)) this.extraColumn = `_${this.extraColumn}`;
		this.started = true;
		const width = this.chosen ? this.columns.size : this.columns.size + 1;
		this.cells = new Array<unknown>(width).fill(undefined);
		this.filled = new Uint8Array(this.columns.size);
		this.found = new Uint8Array(this.columns.size);
		return this.header;
	}

	/** The record's cells, one per column (undefined: none), the last the JSON text of its extra fields. Reused: read before the next call. */
	row(record: IDataObject): unknown[] {
		this.cells.fill(undefined);
		this.filled.fill(0);
		const extra = this.place(record, '', undefined);
		if (extra) {
			this.recordsWithExtra++;
			this.cells[this.columns.size] = JSON.stringify(Object.fromEntries(extra));
		}
		return this.cells;
	}

	/** What the summary says of the columns. */
	summary(): IDataObject {
		if (this.chosen) {
			const renamed = this.chosen.some((c) => c.header !== c.field);
			return {
				columns: this.fields,
				...(renamed ? { headers: this.header } : {}),
				fieldsNotFound: this.fields.filter((_, k) => this.found[k] === 0),
			};
		}
		return {
			columns: [...this.columns.keys()],
			extraFields: [...this.extraNames],
			...(this.moreExtraNames ? { moreExtraFields: true } : {}),
			recordsWithExtraFields: this.recordsWithExtra,
			...(this.pastLastColumn > 0 ? { fieldsPastLastColumn: this.pastLastColumn } : {}),
		};
	}

	/** Puts each leaf of `record` into its column, or into `extra` (a Map: `__proto__` stays a plain name). */
	private place(record: IDataObject, prefix: string, extra: Map<string, unknown> | undefined): Map<string, unknown> | undefined {
		for (const key of Object.keys(record)) {
			const value = record[key];
			const path = prefix === '' ? key : `${prefix}.${key}`;
			const at = this.columns.get(path);
			if (isPlainObject(value)) {
				if (!this.chosen) extra = this.place(value, path, extra);
				else {
					// A chosen path that holds an object: its JSON text; and the chosen paths inside it their own values.
					if (at !== undefined && this.filled[at] === 0) this.fill(at, JSON.stringify(value));
					if (this.chosenParents.has(path)) this.place(value, path, undefined);
				}
				continue;
			}
			if (at !== undefined && this.filled[at] === 0) {
				this.fill(at, value);
				continue;
			}
			// Chosen columns: the other fields are left out.
			if (this.chosen) continue;
			// A field outside the columns (or a dotted key equal to a nested path already placed).
			extra ??= new Map();
			let name = path;
			for (let n = 2; extra.has(name); n++) name = `${path}#${n}`;
			extra.set(name, value);
			this.noteExtra(path);
		}
		return extra;
	}

	private fill(at: number, value: unknown): void {
		this.filled[at] = 1;
		this.found[at] = 1;
		this.cells[at] = value;
	}

	private noteExtra(path: string): void {
		if (this.extraNames.has(path)) return;
		if (this.extraNames.size < MAX_EXTRA_NAMES) this.extraNames.add(path);
		else this.moreExtraNames = true;
	}
}
