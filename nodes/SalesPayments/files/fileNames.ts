/**
 * A file named for what it is (File Options › File Name): an Excel file named `.csv` opens wrong, so
 * a name gets one extension, the output's own: another file type's is replaced, a missing one added;
 * the MIME type follows the name.
 */

/** The outputs that write a file. */
export const FILE_OUTPUTS = ['csvFile', 'jsonLinesFile', 'xlsxFile'] as const;
export type FileOutput = (typeof FILE_OUTPUTS)[number];

/** Each output's extensions and their MIME types, the first the one it is given. */
const OWN: Record<FileOutput, Record<string, string>> = {
	csvFile: { csv: 'text/csv', tsv: 'text/tab-separated-values', txt: 'text/plain' },
	jsonLinesFile: { jsonl: 'application/x-ndjson', ndjson: 'application/x-ndjson' },
	xlsxFile: { xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
};

/** What each output is called in a note. */
const KIND_NAME: Record<FileOutput, string> = { csvFile: 'a CSV file', jsonLinesFile: 'a JSON Lines file', xlsxFile: 'an Excel file' };

/** The extensions of file types (each output's own among them) and what each is called: at the end of a name, replaced by the output's own. */
const OTHERS: Record<string, string> = {
	csv: 'a CSV file',
	tsv: 'a CSV file',
	txt: 'a text file',
	xlsx: 'an Excel file',
	xls: 'an old Excel file',
	xlsm: 'an Excel file with macros',
	ods: 'an OpenDocument spreadsheet',
	json: 'a JSON file',
	jsonl: 'a JSON Lines file',
	ndjson: 'a JSON Lines file',
};

export interface FileNaming {
	fileName: string;
	mimeType: string;
	/** Why the name differs from the one given, when it does. */
	note?: string;
}

/** The extension of a name: after its last dot, letters and digits with at least one letter (`movements-2025.06` has none). */
function extensionOf(name: string): string | undefined {
	const m = /\.([A-Za-z0-9]{1,10})$/.exec(name);
	return m && /[A-Za-z]/.test(m[1]) ? m[1] : undefined;
}

/**
 * The name `given` for a file of `kind`, with one extension, the output's own, and its MIME type.
 * Trailing dots go (`report.` is `report.xlsx`); every file type's extension at the end goes
 * (`report.xlsx.csv` is `report.xlsx` for an Excel file), the last kept when it is the output's own
 * (`Movimentos.XLSX`, `clientes.tsv`); a name that was only extensions (`.xlsx`) becomes the list's
 * name `listName`. Another extension is part of the name (`data.pdf` is `data.pdf.csv`), said in a note.
 */
export function nameFile(given: string, kind: FileOutput, listName: string): FileNaming {
	const own = OWN[kind];
	const [first] = Object.keys(own);
	const trimmed = given.replace(/\.+$/, '');
	let base = trimmed;
	const typed: string[] = [];
	for (let ext = extensionOf(base); ext !== undefined && OTHERS[ext.toLowerCase()] !== undefined; ext = extensionOf(base)) {
		typed.unshift(ext);
		base = base.slice(0, -ext.length - 1).replace(/\.+$/, '');
	}
	const last = typed[typed.length - 1];
	const extension = last !== undefined && own[last.toLowerCase()] !== undefined ? last : first;
	const fileName = `${base === '' ? listName : base}.${extension}`;
	const naming = { fileName, mimeType: own[extension.toLowerCase()] };
	if (fileName === given) return naming;
	const written = `${KIND_NAME[kind]} is written, named ${fileName}`;
	if (base === '') return { ...naming, note: `File Name ${given} is only an extension: ${written}, the list's name` };
	if (typed.some((ext) => own[ext.toLowerCase()] === undefined)) {
		const kinds = [...new Set(typed.map((ext) => OTHERS[ext.toLowerCase()]))];
		const what = typed.length === 1 ? `the extension of ${kinds[0]}` : `the extensions of ${kinds.join(' and ')}`;
		return { ...naming, note: `File Name ${given} ends in .${typed.join('.')}, ${what}: ${written}` };
	}
	if (typed.length > 0) return { ...naming, note: `File Name ${given} holds more than a name and one extension: ${written}` };
	if (trimmed !== given) return { ...naming, note: `File Name ${given} ends in a dot: ${written}` };
	// A name without an extension simply gets the output's; another extension is worth a word.
	const other = extensionOf(given);
	return other === undefined ? naming : { ...naming, note: `File Name ${given} ends in .${other}, not .${first}: ${written}` };
}
