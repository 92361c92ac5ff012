/**
 * An RFC 4180 reader for the tests of the CSV export, written from the RFC (not from the node's
 * writer): fields separated by commas (or the delimiter given), records by CRLF (a lone LF is accepted), a field in double
 * quotes may hold commas, quotes (doubled) and line breaks.
 */
export function parseCsv(text: string, delimiter = ','): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	let at = 0;
	while (at < text.length) {
		const c = text[at];
		if (quoted) {
			if (c === '"' && text[at + 1] === '"') {
				field += '"';
				at += 2;
				continue;
			}
			if (c === '"') quoted = false;
			else field += c;
			at++;
			continue;
		}
		if (c === '"' && field === '') quoted = true;
		else if (c === delimiter) {
			row.push(field);
			field = '';
		} else if (c === '\r' && text[at + 1] === '\n') {
			continue_line();
			at++;
		} else if (c === '\n') continue_line();
		else field += c;
		at++;
	}
	if (field !== '' || row.length) continue_line();
	return rows;

	function continue_line(): void {
		row.push(field);
		rows.push(row);
		row = [];
		field = '';
	}
}

/** CSV rows as objects keyed by the header (the first row). */
export function csvRecords(text: string): { header: string[]; records: Array<Record<string, string>> } {
	const [header, ...rows] = parseCsv(text);
	return { header: header ?? [], records: rows.map((cells) => Object.fromEntries(header.map((name, n) => [name, cells[n]]))) };
}
