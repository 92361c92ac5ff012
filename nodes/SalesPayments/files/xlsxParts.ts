/**
 * The .xlsx's fixed parts (content types, relations, the workbook and its styles), written once the
 * sheets are known, and the sheets' names as Excel allows them (xlsx.ts writes the sheets).
 */

export const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Cell styles (cellXfs): plain, two decimals (built-in format 2, `0.00`), bold (the header), a date-time, a day. */
export const STYLE_DECIMAL = 1;
export const STYLE_HEADER = 2;
export const STYLE_DATE_TIME = 3;
export const STYLE_DAY = 4;
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
export const DAY_FORMAT = 'yyyy-mm-dd';

const MAX_SHEET_NAME = 31;

/**
 * What is wrong with a sheet name, as Excel allows them and a workbook's XML can hold them: 1-31
 * characters (UTF-16 units, as Excel counts), none of `[ ] : * ? / \`, not starting or ending with
 * `'`, not History; no control character, U+FFFE, U+FFFF or lone surrogate (XML 1.0 cannot hold them).
 */
export function sheetNameProblem(name: string): string | undefined {
	if (name.length === 0 || name.length > MAX_SHEET_NAME) return `at most ${MAX_SHEET_NAME} characters and not empty`;
	if (/[[\]:*?/\\]/.test(name)) return 'without [ ] : * ? / or \\';
	if (name.startsWith("'") || name.endsWith("'")) return "not starting or ending with '";
	for (let k = 0; k < name.length; k++) {
		const c = name.charCodeAt(k);
		if (c < 0x20) return 'without control characters';
		if (c === 0xfffe || c === 0xffff) return 'without the noncharacters U+FFFE and U+FFFF (a workbook cannot hold them)';
		if (c >= 0xd800 && c <= 0xdbff && k + 1 < name.length && name.charCodeAt(k + 1) >= 0xdc00 && name.charCodeAt(k + 1) <= 0xdfff) k++;
		else if (c >= 0xd800 && c <= 0xdfff) return 'without a lone surrogate (half of a character: a workbook cannot hold it)';
	}
	if (name.toLowerCase() === 'history') return 'other than History (reserved by Excel)';
	return undefined;
}

/** `text` cut to at most `max` UTF-16 units, never inside a surrogate pair. */
function cut(text: string, max: number): string {
	if (text.length <= max) return text;
	const last = text.charCodeAt(max - 1);
	return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * The name of sheet `n` (2, 3...): `Sheet (2)`, the base cut to Excel's 31 characters on a
 * character boundary, and unique: when the name is taken (a base that itself ends in ` (2)`,
 * compared as Excel does, whatever the case), the next number that is free.
 */
export function sheetNameOf(base: string, n: number, used: readonly string[]): string {
	const taken = new Set(used.map((name) => name.toLowerCase()));
	for (let k = n; ; k++) {
		const suffix = ` (${k})`;
		let name = cut(base, MAX_SHEET_NAME - suffix.length);
		// A name cut right after a `'` would end with it.
		while (name.endsWith("'")) name = name.slice(0, -1);
		name += suffix;
		if (!taken.has(name.toLowerCase())) return name;
	}
}

function escapeAttribute(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The workbook's parts other than its sheets, as [entry name, XML], written after the sheets (their
 * number is known at the end: a new sheet starts past 1,048,575 records). In the order a reader that
 * follows the archive's entries needs them, the parts it can do without last: exceljs's streaming
 * WorkbookReader loses the last entries now and then (its issue 3064) and reads neither `_rels/.rels`
 * nor `[Content_Types].xml`.
 */
export function workbookParts(sheets: readonly string[]): Array<[string, string]> {
	const sheetParts = sheets.map((_, n) => `xl/worksheets/sheet${n + 1}.xml`);
	const parts: Array<[string, string]> = [
		[
			'xl/styles.xml',
			`<styleSheet xmlns="${NS}">` +
				`<numFmts count="2"><numFmt numFmtId="164" formatCode="${DATE_TIME_FORMAT}"/><numFmt numFmtId="165" formatCode="${DAY_FORMAT}"/></numFmts>` +
				'<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
				'<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
				'<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
				'<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
				'<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
				'<xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
				'<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
				'<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
				'<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
				'<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
				'</styleSheet>',
		],
		[
			'xl/_rels/workbook.xml.rels',
			`<Relationships xmlns="${PKG_REL_NS}">` +
				sheetParts.map((p, n) => `<Relationship Id="rId${n + 1}" Type="${REL_NS}/worksheet" Target="${p.slice(3)}"/>`).join('') +
				`<Relationship Id="rId${sheetParts.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
		],
		[
			'xl/workbook.xml',
			`<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>` +
				sheets.map((name, n) => `<sheet name="${escapeAttribute(name)}" sheetId="${n + 1}" r:id="rId${n + 1}"/>`).join('') +
				'</sheets></workbook>',
		],
		['_rels/.rels', `<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
		[
			'[Content_Types].xml',
			'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
				'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
				'<Default Extension="xml" ContentType="application/xml"/>' +
				'<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
				'<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
				sheetParts.map((p) => `<Override PartName="/${p}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
				'</Types>',
		],
	];
	return parts;
}
