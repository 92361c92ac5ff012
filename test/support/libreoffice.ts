/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * LibreOffice Calc for the .xlsx round trip (test/e2e/export-xlsx.test.ts): `SOFFICE_PATH`, else
 * Debian's soffice. When it is missing and this machine allows it (root, apt-get present), the e2e
 * layer's global setup (test/e2e/global-setup.ts) installs Debian's `libreoffice-calc-nogui` package
 * once, with progress lines (20 s to a few minutes), when that test is among the selected ones;
 * `SP_SKIP_LIBREOFFICE=1` skips the round trip instead. Without Calc the round trip is skipped with
 * the reason, never passed silently.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Log } from './progress';
import { aptInstall, toStderr } from './progress';

const CANDIDATES = ['/usr/bin/soffice', '/usr/bin/libreoffice', '/usr/lib/libreoffice/program/soffice'];
export const SKIP_VARIABLE = 'SP_SKIP_LIBREOFFICE';
/** Why the global setup found no LibreOffice, for the test's skip message (inherited by jest's workers). */
const REASON_VARIABLE = 'SP_LIBREOFFICE_MISSING';

export function findSoffice(): string | undefined {
	return process.env.SOFFICE_PATH && existsSync(process.env.SOFFICE_PATH) ? process.env.SOFFICE_PATH : CANDIDATES.find((p) => existsSync(p));
}

/** What the round trip test uses: LibreOffice found, else the reason there is none. */
export function sofficeForTests(): { path?: string; reason?: string } {
	if (process.env[SKIP_VARIABLE]) return { reason: `${SKIP_VARIABLE} is set` };
	const found = findSoffice();
	if (found) return { path: found };
	return { reason: process.env[REASON_VARIABLE] ?? 'LibreOffice is not installed (the e2e global setup installs it; or set SOFFICE_PATH)' };
}

/** Finds LibreOffice, or installs Debian's Calc package when allowed (the e2e global setup); the reason when there is none. */
export async function ensureSoffice(log: Log = toStderr): Promise<{ path?: string; reason?: string }> {
	const result = await findOrInstall(log);
	if (result.reason) {
		process.env[REASON_VARIABLE] = result.reason;
		log(`[libreoffice] the .xlsx round trip will be skipped: ${result.reason}`);
	}
	return result;
}

async function findOrInstall(log: Log): Promise<{ path?: string; reason?: string }> {
	if (process.env[SKIP_VARIABLE]) return { reason: `${SKIP_VARIABLE} is set` };
	const existing = findSoffice();
	if (existing) return { path: existing };
	if (process.env.SOFFICE_PATH) return { reason: `SOFFICE_PATH=${process.env.SOFFICE_PATH} does not exist` };
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		return { reason: 'LibreOffice is not installed and installing it needs root (apt-get install libreoffice-calc-nogui)' };
	}
	if (!existsSync('/usr/bin/apt-get')) return { reason: 'LibreOffice is not installed and apt-get is not available' };
	log(
		"[libreoffice] the .xlsx round trip needs LibreOffice Calc: installing Debian's libreoffice-calc-nogui package with apt-get, as root " +
			`(once, a few minutes; set SOFFICE_PATH to use your own, or ${SKIP_VARIABLE}=1 to skip the test)`,
	);
	const failed = await aptInstall('libreoffice', 'libreoffice-calc-nogui', 20 * 60_000, log);
	if (failed) return { reason: failed };
	const installed = findSoffice();
	return installed ? { path: installed } : { reason: 'apt-get install libreoffice-calc-nogui left no soffice binary' };
}

/** A cell of LibreOffice's CSV: its text, and whether it was quoted (a text cell; numbers and booleans are not). */
export interface CalcCell {
	text: string;
	quoted: boolean;
}

/**
 * Every sheet of `file` as LibreOffice Calc reads it, saved as CSV by Calc itself (headless, its
 * own profile in a temporary folder, at most 2 minutes): comma, `"`, UTF-8, every text cell
 * quoted (so a number is told from a text), values as they are (not as shown), formulas' results
 * (a text Calc took for a formula would come out as its result). By sheet name.
 */
export async function calcSheetsAsCsv(soffice: string, file: string): Promise<Map<string, CalcCell[][]>> {
	// Tokens: delimiter 44 (,), text quote 34 ("), charset 76 (UTF-8), first line 1, cell formats,
	// language, quote all text cells, detect special numbers, save as shown (no), formulas (no),
	// remove spaces (no), sheet -1 (every sheet, one file each: <name>-<sheet>.csv).
	return await converted(soffice, file, 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,true,true,false,false,false,-1', undefined, (dir, base) => {
		const sheets = new Map<string, CalcCell[][]>();
		for (const name of readdirSync(dir).filter((f) => f.startsWith(`${base}-`) && f.endsWith('.csv'))) {
			sheets.set(name.slice(base.length + 1, -4), parseCalcCsv(readFileSync(path.join(dir, name), 'utf8')));
		}
		return sheets;
	});
}

/**
 * A cell as Calc holds it: its type (`float`, `date`, `string`, `boolean`...; '' when empty), its
 * value (a date as ISO 8601), and the formula Calc runs in it, if any (`of:=1+2`).
 */
export interface CalcValue {
	type: string;
	value: string;
	formula?: string;
}

/**
 * Every sheet of `file` as LibreOffice Calc reads it, saved by Calc as a flat OpenDocument
 * spreadsheet (.fods), which keeps each cell's type: a number is `float` with its value, a date
 * `date` with its ISO 8601 value (what Calc took for a date), a text `string`. `infilter` opens a
 * CSV with Calc's import options (e.g. `CSV:59,34,76,1,,1046`: `;`, `"`, UTF-8, from line 1, the
 * language pt-BR, whose decimal separator is a comma). By sheet name; rows without any cell left out.
 */
export async function calcSheetsAsFods(soffice: string, file: string, infilter?: string): Promise<Map<string, CalcValue[][]>> {
	return await converted(soffice, file, 'fods', infilter, (dir, base) => parseFods(readFileSync(path.join(dir, `${base}.fods`), 'utf8')));
}

/**
 * `file` as LibreOffice Calc prints it (to PDF, read back as text by poppler's pdftotext with its
 * layout): what a person sees of each cell at the sheet's column widths, `###` where a date or a
 * number is wider than its column. `pdftotext`: its path (ensurePdftotext()).
 */
export async function calcRendered(soffice: string, pdftotext: string, file: string): Promise<string> {
	return await converted(soffice, file, 'pdf', undefined, (dir, base) => {
		const pdf = path.join(dir, `${base}.pdf`);
		return execFileSync(pdftotext, ['-layout', pdf, '-'], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
	});
}

const PDFTOTEXT = '/usr/bin/pdftotext';

/** pdftotext (Debian's poppler-utils), installed with apt-get when missing and allowed (the e2e global setup); the reason when there is none. */
export async function ensurePdftotext(log: Log = toStderr): Promise<{ path?: string; reason?: string }> {
	if (existsSync(PDFTOTEXT)) return { path: PDFTOTEXT };
	if (process.env[SKIP_VARIABLE]) return { reason: `${SKIP_VARIABLE} is set` };
	if ((typeof process.getuid === 'function' && process.getuid() !== 0) || !existsSync('/usr/bin/apt-get')) {
		return { reason: 'pdftotext is not installed and installing it needs root and apt-get (apt-get install poppler-utils)' };
	}
	log("[libreoffice] reading a printed sheet needs pdftotext: installing Debian's poppler-utils package with apt-get, as root (once)");
	const failed = await aptInstall('poppler-utils', 'poppler-utils', 10 * 60_000, log);
	if (failed) return { reason: failed };
	return existsSync(PDFTOTEXT) ? { path: PDFTOTEXT } : { reason: 'apt-get install poppler-utils left no pdftotext' };
}

/** pdftotext for the rendering test: found, else why not (the global setup installs it). */
export function pdftotextForTests(): { path?: string; reason?: string } {
	return existsSync(PDFTOTEXT) ? { path: PDFTOTEXT } : { reason: 'pdftotext is not installed (the e2e global setup installs Debian\'s poppler-utils; or install it)' };
}

/**
 * `file` opened by LibreOffice Calc and saved again as an Excel 2007-365 workbook by Calc itself
 * (its own ZIP and XML, compressed as Calc does): the bytes of that file (by default at most 10 minutes).
 */
export async function calcResavedXlsx(soffice: string, file: string, timeoutMs = 10 * 60_000): Promise<Buffer> {
	return await converted(soffice, file, 'xlsx:Calc MS Excel 2007 XML', undefined, (dir, base) => readFileSync(path.join(dir, `${base}.xlsx`)), timeoutMs);
}

/** Converts `file` with Calc headless (its own profile in a temporary folder, at most `timeoutMs`: 2 minutes) and reads the result. */
async function converted<T>(soffice: string, file: string, filter: string, infilter: string | undefined, read: (dir: string, base: string) => T, timeoutMs = 120_000): Promise<T> {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'sp-calc-'));
	try {
		const args = ['--headless', '--norestore', `-env:UserInstallation=file://${path.join(dir, 'profile')}`];
		if (infilter) args.push(`--infilter=${infilter}`);
		await new Promise<void>((resolve, reject) => {
			execFile(soffice, [...args, '--convert-to', filter, '--outdir', dir, file], { timeout: timeoutMs }, (error, _stdout, stderr) =>
				error ? reject(new Error(`soffice failed: ${error.message} ${stderr}`)) : resolve(),
			);
		});
		return read(dir, path.basename(file, path.extname(file)));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function xmlValue(text: string): string {
	return text.replace(/&(lt|gt|amp|apos|quot);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' })[e] ?? '');
}

/** The sheets of a .fods: each row's cells with their type and value (repeated cells and rows spelled out, trailing empty ones dropped). */
export function parseFods(xml: string): Map<string, CalcValue[][]> {
	const sheets = new Map<string, CalcValue[][]>();
	for (const table of xml.matchAll(/<table:table table:name="([^"]*)"[^>]*>(.*?)<\/table:table>/gs)) {
		const rows: CalcValue[][] = [];
		for (const row of table[2].matchAll(/<table:table-row\b([^>]*?)(?:\/>|>(.*?)<\/table:table-row>)/gs)) {
			const cells: CalcValue[] = [];
			for (const cell of (row[2] ?? '').matchAll(/<table:(?:covered-)?table-cell\b([^>]*?)(?:\/>|>(.*?)<\/table:(?:covered-)?table-cell>)/gs)) {
				const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(cell[1])?.[1];
				const type = attribute('office:value-type') ?? '';
				const text = [...(cell[2] ?? '').matchAll(/<text:p>(.*?)<\/text:p>/gs)].map((p) => xmlValue(p[1].replace(/<[^>]+>/g, ''))).join('\n');
				const value = type === 'date' ? attribute('office:date-value') : type === 'float' || type === 'percentage' || type === 'currency' ? attribute('office:value') : type === 'boolean' ? attribute('office:boolean-value') : text;
				const repeat = Number(attribute('table:number-columns-repeated') ?? 1);
				const formula = attribute('table:formula');
				for (let n = 0; n < Math.min(repeat, 20_000); n++) cells.push({ type, value: value ?? '', ...(formula === undefined ? {} : { formula: xmlValue(formula) }) });
			}
			while (cells.length > 0 && cells.at(-1)!.type === '') cells.pop();
			// Calc writes equal rows in a row once, with a count.
			const repeat = Number(/table:number-rows-repeated="(\d+)"/.exec(row[1])?.[1] ?? 1);
			if (cells.length > 0) for (let n = 0; n < Math.min(repeat, 1_048_576); n++) rows.push(cells);
		}
		sheets.set(xmlValue(table[1]), rows);
	}
	return sheets;
}

/** LibreOffice's CSV: RFC 4180, lines ending with LF, each cell with whether it was quoted. */
export function parseCalcCsv(text: string): CalcCell[][] {
	const rows: CalcCell[][] = [];
	let row: CalcCell[] = [];
	let cell: CalcCell = { text: '', quoted: false };
	let inQuotes = false;
	for (let at = 0; at < text.length; at++) {
		const c = text[at];
		if (inQuotes) {
			if (c === '"' && text[at + 1] === '"') {
				cell.text += '"';
				at++;
			} else if (c === '"') inQuotes = false;
			else cell.text += c;
		} else if (c === '"' && cell.text === '') {
			inQuotes = true;
			cell.quoted = true;
		} else if (c === ',') {
			row.push(cell);
			cell = { text: '', quoted: false };
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[at + 1] === '\n') at++;
			row.push(cell);
			rows.push(row);
			row = [];
			cell = { text: '', quoted: false };
		} else cell.text += c;
	}
	if (cell.text !== '' || cell.quoted || row.length > 0) {
		row.push(cell);
		rows.push(row);
	}
	return rows;
}

// `npx tsx test/support/libreoffice.ts` installs it ahead of the test.
if (require.main === module) {
	void ensureSoffice().then((r) => toStderr(r.path ? `[libreoffice] ${r.path}` : `[libreoffice] none: ${r.reason}`));
}
