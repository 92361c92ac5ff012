/**
 * A file named for what it is (File Options › File Name): an Excel file named `.csv` opens wrong, so
 * another output's extension is replaced, a missing one added; the MIME type follows the name.
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

/** Extensions of files of another kind: replaced, never kept. */
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
	return m && m.index > 0 && /[A-Za-z]/.test(m[1]) ? m[1] : undefined;
}

/** The name `given` for a file of `kind`, with its extension and MIME type. */
export function nameFile(given: string, kind: FileOutput): FileNaming {
	const own = OWN[kind];
	const [first] = Object.keys(own);
	const extension = extensionOf(given);
	const lower = extension?.toLowerCase();
	if (lower !== undefined && own[lower] !== undefined) return { fileName: given, mimeType: own[lower] };
	const mimeType = own[first];
	if (lower !== undefined && OTHERS[lower] !== undefined) {
		const fileName = `${given.slice(0, -extension!.length)}${first}`;
		return { fileName, mimeType, note: `File Name ${given} ends in .${extension}, the extension of ${OTHERS[lower]}: ${KIND_NAME[kind]} is written, named ${fileName}` };
	}
	const fileName = `${given}.${first}`;
	// A name without an extension simply gets the output's; another extension is worth a word.
	if (extension === undefined) return { fileName, mimeType };
	return { fileName, mimeType, note: `File Name ${given} ends in .${extension}, not .${first}: ${KIND_NAME[kind]} is written, named ${fileName}` };
}
