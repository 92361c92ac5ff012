/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The export rows of `npm run bench` (issues 24 and 32): Movement › Get Many of 1,000,000 movements
 * (default Pagination settings) as a CSV, a JSON Lines and an Excel (.xlsx) file in n8n's
 * filesystem binary data mode, against the same Return All as items (Pagination › Max Records raised to 1,000,000). Both run the built
 * package through n8n-core (n8n-run.ts executeNode) in a fresh child process each, alternated
 * over the rounds; each figure is the median. Memory is the peak above the level before the run
 * (RSS sampled every 10 ms and the kernel's high-water mark; V8 heap). After each measured run,
 * outside the measurement, the child reads the output back: the items' ids, or the file from
 * disk (the CSV's first cells, each JSON line's id, the .xlsx's first cell of each row), and digests the ids in order,
 * so that every row must hold the same records in the same order.
 * Targets: the CSV's extra RSS at most 100 MB, its time at most 1.1x the items' time; the
 * .xlsx's extra RSS at most 100 MB, its time at most 1.5x the CSV's, with its dates typed (issue 38:
 * date-time cells, the default) in a zone with daylight saving (America/New_York: the seeded dates
 * span 2024-2025, four changes). Every file's summary must say it adds up (`reconciled`).
 * Issue 52 (the workbook compressed while it streams): the .xlsx's time at most 2x the CSV's, the file
 * within 1.3x LibreOffice Calc's own save of it (the first round's file opened and saved again by Calc
 * headless, outside the measurement, when LibreOffice is installed and SP_SKIP_LIBREOFFICE is unset),
 * 1,000,000 movements well under n8n's 512 MiB per file of the database binary mode, and its extra RSS
 * no higher than the --against build's.
 */
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createInflateRaw } from 'node:zlib';

import type { IBinaryData } from 'n8n-workflow';

import type { Target } from './cases';
import { runCommand } from '../command';
import type { RunFigures } from './measure';
import { answerCase, caseArgs, measureMemory, median, runChild } from './measure';

const CHILD_TIMEOUT_MS = 20 * 60_000;
/** A run that also has LibreOffice save its workbook again (1,000,000 rows: minutes, gigabytes). */
const LIBREOFFICE_TIMEOUT_MS = 40 * 60_000;
/** The workflow's time zone of every run: the Excel file's dates are typed in it. */
const TIMEZONE = 'America/New_York';

type Output = 'items' | 'csvFile' | 'jsonLinesFile' | 'xlsxFile';
const OUTPUTS: Output[] = ['items', 'csvFile', 'jsonLinesFile', 'xlsxFile'];
const LABELS: Record<Output, string> = {
	items: 'Items',
	csvFile: 'CSV File, filesystem binary mode',
	jsonLinesFile: 'JSON Lines File, filesystem binary mode',
	xlsxFile: 'Excel File (.xlsx), dates typed, filesystem binary mode',
};

interface ExportSpec {
	output: Output;
	target: Target;
	records: number;
	/** Another build (--against), else this one. */
	packageDir?: string;
	/** After the run, LibreOffice opens the .xlsx and saves it as its own (its size is the row's `libreOfficeBytes`). */
	libreOffice?: boolean;
}

interface ExportRun {
	wallMs: number;
	cpuMs: number;
	rssDeltaMb: number;
	heapDeltaMb: number;
	records: number;
	fileBytes?: number;
	/** The same workbook saved again by LibreOffice Calc. */
	libreOfficeBytes?: number;
	digest: string;
	error?: string;
}

export interface ExportRow extends RunFigures {
	id: string;
	output: string;
	records: number;
	recordsPerSecond: number;
	fileBytes?: number;
	/** The .xlsx saved again by LibreOffice Calc (first round), when it ran. */
	libreOfficeBytes?: number;
	/** Time of this row / the items row (medians). */
	vsItems: number;
	/** Time of this row / the CSV row (medians). */
	vsCsv: number;
	sameRecords: boolean;
	errors: number;
	/** The build measured, with --against (its label); this build when unset. */
	build?: string;
}

function parameters(spec: ExportSpec, limit?: number) {
	return {
		resource: 'movement',
		operation: 'getMany',
		output: spec.output,
		returnAll: limit === undefined,
		...(limit === undefined ? {} : { limit }),
		pagination: { maxRecords: spec.records },
	};
}

/** Child process: one measured run (after a one-page warm-up), then its output read back. */
async function runCase(spec: ExportSpec): Promise<ExportRun> {
	if (spec.output !== 'items') {
		const { useBinaryMode } = await import('../harness/binary');
		await useBinaryMode('filesystem');
	}
	const { executeNode } = await import('./n8n-run');
	await executeNode(parameters(spec, 10), { ...spec.target }, spec.packageDir, undefined, TIMEZONE);
	let items: Awaited<ReturnType<typeof executeNode>> = [];
	let error: string | undefined;
	const { wallMs, cpuMs, memory } = await measureMemory(async () => {
		try {
			items = await executeNode(parameters(spec), { ...spec.target }, spec.packageDir, undefined, TIMEZONE);
		} catch (e) {
			error = (e as Error).message;
		}
	});
	const hash = createHash('sha256');
	let records = 0;
	let fileBytes: number | undefined;
	let libreOfficeBytes: number | undefined;
	if (!error && spec.output === 'items') {
		for (const item of items) hash.update(`${String(item.json.id)}\n`);
		records = items.length;
	} else if (!error) {
		const { binaryPath } = await import('../harness/binary');
		const file = items[0]?.binary?.data as IBinaryData;
		fileBytes = file.bytes;
		if (spec.output === 'xlsxFile') {
			records = await xlsxIds(binaryPath(file), (id) => hash.update(`${id}\n`));
		} else {
			let header = spec.output === 'csvFile';
			for await (const line of createInterface({ input: createReadStream(binaryPath(file)), crlfDelay: Infinity })) {
				if (header || line === '') {
					header = false;
					continue;
				}
				// Movement ids hold no comma: the CSV's first cell is the id.
				hash.update(`${spec.output === 'csvFile' ? line.slice(0, line.indexOf(',')) : String((JSON.parse(line) as { id: unknown }).id)}\n`);
				records++;
			}
		}
		if (records !== items[0].json.records) error = `the file holds ${records} rows, its summary says ${String(items[0].json.records)}`;
		else if (items[0].json.reconciled !== true) error = `the file does not add up: ${JSON.stringify(items[0].json.reconciliation)}`;
		if (!error && spec.libreOffice) libreOfficeBytes = await resavedBytes(binaryPath(file));
	}
	if (!error && records !== spec.records) error = `${records} records, expected ${spec.records}`;
	return {
		wallMs: Math.round(wallMs),
		cpuMs: Math.round(cpuMs),
		...memory,
		records,
		...(fileBytes === undefined ? {} : { fileBytes }),
		...(libreOfficeBytes === undefined ? {} : { libreOfficeBytes }),
		digest: hash.digest('hex'),
		...(error ? { error } : {}),
	};
}

/**
 * The first cell of each row after the header in the .xlsx's first sheet, in order, read with
 * node:zlib (the bench is not shipped): the sheet is the archive's first entry, a DEFLATE stream
 * after its local header. Returns the rows read. (The in-process and e2e tests read such files
 * with exceljs, SheetJS and LibreOffice.)
 */
async function xlsxIds(file: string, onId: (id: string) => void): Promise<number> {
	const header = Buffer.alloc(30);
	const handle = await open(file, 'r');
	await handle.read(header, 0, 30, 0);
	await handle.close();
	const start = 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
	const ROW = /<row r="(\d+)"><c r="A\d+"[^>]*><is><t(?: xml:space="preserve")?>([^<]*)<\/t>/g;
	let rows = 0;
	let tail = '';
	const inflate = createReadStream(file, { start }).pipe(createInflateRaw());
	inflate.setEncoding('latin1');
	for await (const chunk of inflate) {
		const text = tail + (chunk as string);
		let end = 0;
		for (const match of text.matchAll(ROW)) {
			end = match.index + match[0].length;
			if (match[1] === '1') continue;
			onId(Buffer.from(match[2], 'latin1').toString('utf8'));
			rows++;
		}
		// A row cut by the chunk's end is read with the next chunk.
		tail = text.slice(Math.max(end, text.length - 4096));
	}
	return rows;
}

/** The size of `file` saved again by LibreOffice Calc, when it is installed (test/support/libreoffice.ts). */
async function resavedBytes(file: string): Promise<number | undefined> {
	const { calcResavedXlsx, sofficeForTests } = await import('../libreoffice');
	const soffice = sofficeForTests().path;
	return soffice ? (await calcResavedXlsx(soffice, file, LIBREOFFICE_TIMEOUT_MS)).length : undefined;
}

function runExportChild(spec: ExportSpec, env: NodeJS.ProcessEnv): Promise<ExportRun> {
	const timeout = spec.libreOffice ? CHILD_TIMEOUT_MS + LIBREOFFICE_TIMEOUT_MS : CHILD_TIMEOUT_MS;
	return runChild<ExportRun>(caseArgs(__filename, '--export-case', spec), env, timeout, `export case ${spec.output}`);
}

/**
 * Runs the export rows: its own simulator holding `records` movements for the primary business
 * (default 1,000,000), the items case and the CSV case alternated over `repeats` rounds.
 */
export async function measureExports(options: {
	repeats: number;
	log: (line: string) => void;
	env?: NodeJS.ProcessEnv;
	records?: number;
	/** --against: that build's rows too, each run right after this build's of the same output. */
	against?: { dir: string; label: string };
}): Promise<ExportRow[]> {
	const records = options.records ?? 1_000_000;
	const { startSimulator } = await import('../simulator/server');
	const { addMovements } = await import('../simulator/routes/financials');
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'sp-bench-export-'));
	const env = { ...(options.env ?? process.env), N8N_USER_FOLDER: userFolder, NODE_ENV: 'production' };
	const sim = await startSimulator();
	try {
		const target: Target = sim.credentials;
		const existing = sim.state.col('movements').filter((m) => m._businessId === target.businessId).length;
		addMovements(sim, target.businessId, records - existing);
		options.log(`export: simulator on ${sim.url} with ${records.toLocaleString('en-US')} movements`);
		const runs: Record<Output, ExportRun[]> = { items: [], csvFile: [], jsonLinesFile: [], xlsxFile: [] };
		const againstRuns: Record<Output, ExportRun[]> = { items: [], csvFile: [], jsonLinesFile: [], xlsxFile: [] };
		const { against } = options;
		for (let r = 0; r < options.repeats; r++) {
			for (const output of r % 2 ? [...OUTPUTS].reverse() : OUTPUTS) {
				// With --against, the two builds of an output back to back; which goes first alternates from output to output and round to round.
				const builds = against ? ((r + OUTPUTS.indexOf(output)) % 2 ? [against.dir, undefined] : [undefined, against.dir]) : [undefined];
				for (const packageDir of builds) {
					sim.clearRequests();
					// LibreOffice saves this build's first workbook again (outside the measurement).
					const libreOffice = r === 0 && output === 'xlsxFile' && packageDir === undefined;
					(packageDir ? againstRuns : runs)[output].push(await runExportChild({ output, target, records, packageDir, libreOffice }, env));
				}
			}
			const figures = (all: Record<Output, ExportRun[]>) => OUTPUTS.map((o) => `${o} ${all[o].at(-1)!.wallMs} ms ${all[o].at(-1)!.rssDeltaMb} MB`).join(', ');
			options.log(`  export round ${r + 1}/${options.repeats}: ${figures(runs)}${against ? `; ${against.label}: ${figures(againstRuns)}` : ''} (load ${os.loadavg()[0].toFixed(2)})`);
		}
		const reference = runs.items.find((x) => !x.error)?.digest;
		const row = (output: Output, id: string, from = runs): Omit<ExportRow, 'vsItems' | 'vsCsv'> => {
			const all = from[output];
			for (const x of all) if (x.error) options.log(`  ${id}: ERROR ${x.error}`);
			const wallMs = Math.round(median(all.map((x) => x.wallMs)));
			return {
				id,
				output,
				records,
				runs: all.length,
				wallMs,
				runsMs: all.map((x) => x.wallMs),
				cpuMs: Math.round(median(all.map((x) => x.cpuMs))),
				rssDeltaMb: median(all.map((x) => x.rssDeltaMb)),
				heapDeltaMb: median(all.map((x) => x.heapDeltaMb)),
				recordsPerSecond: Math.round(records / (wallMs / 1000)),
				...(all[0].fileBytes === undefined ? {} : { fileBytes: all[0].fileBytes }),
				...(all[0].libreOfficeBytes === undefined ? {} : { libreOfficeBytes: all[0].libreOfficeBytes }),
				sameRecords: reference !== undefined && all.every((x) => !x.error && x.digest === reference),
				errors: all.filter((x) => x.error).length,
			};
		};
		const ids: Record<Output, string> = {
			items: 'export/items',
			csvFile: 'export/csv-filesystem',
			jsonLinesFile: 'export/jsonl-filesystem',
			xlsxFile: 'export/xlsx-filesystem',
		};
		const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
		const rowsOf = (from: Record<Output, ExportRun[]>, build?: string) => {
			const all = OUTPUTS.map((output) => row(output, build ? `${ids[output]}@${build}` : ids[output], from));
			return all.map((r) => ({ ...r, vsItems: ratio(r.wallMs, all[0].wallMs), vsCsv: ratio(r.wallMs, all[1].wallMs), ...(build ? { build } : {}) }));
		};
		return [...rowsOf(runs), ...(against ? rowsOf(againstRuns, against.label) : [])];
	} finally {
		await sim.close();
		rmSync(userFolder, { recursive: true, force: true });
	}
}

/** The rows as the bench's results.md shows them, with the issue's targets. */
export function exportMarkdown(rows: ExportRow[]): string[] {
	if (rows.length === 0) return [];
	const csv = rows.find((r) => r.output === 'csvFile');
	const xlsx = rows.find((r) => r.output === 'xlsxFile');
	const lines = [
		`Export (issues 24, 32, 38): Movement › Get Many of ${rows[0].records.toLocaleString('en-US')} movements, default Pagination settings, each run in a fresh process (n8n-core, the built package); medians of ${rows[0].runs} alternating runs.`,
		'',
		'| Output | Runs | Median (ms) | Fastest-slowest (ms) | / items | / CSV | Records/s | CPU (ms) | RSS Δ (MB) | Heap Δ (MB) | File | Same records, same order |',
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|',
		...rows.map(
			(r) =>
				`| ${r.output === 'items' ? `Items (Max Records ${r.records.toLocaleString('en-US')})` : LABELS[r.output as Output]}${r.build ? ` (${r.build})` : ''} | ${r.runs} | ${r.wallMs} | ${Math.min(...r.runsMs)}-${Math.max(...r.runsMs)} | ${r.vsItems} | ${r.vsCsv ?? ''} | ${r.recordsPerSecond.toLocaleString('en-US')} | ${r.cpuMs} | ${r.rssDeltaMb} | ${r.heapDeltaMb} | ${r.fileBytes === undefined ? '' : `${(r.fileBytes / 1024 ** 2).toFixed(1)} MB`} | ${r.sameRecords ? 'yes' : 'NO'} |`,
		),
	];
	if (csv) {
		lines.push(
			'',
			'| Target | Goal | Measured | Met |',
			'|---|---|---|:---:|',
			`| Export to CSV: extra RSS | <= 100 MB | ${csv.rssDeltaMb} MB | ${csv.rssDeltaMb <= 100 ? 'yes' : 'no'} |`,
			`| Export to CSV: time / items Return All | <= 1.1 | ${csv.vsItems} | ${csv.vsItems <= 1.1 ? 'yes' : 'no'} |`,
		);
	}
	if (xlsx) {
		const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
		const before = rows.find((r) => r.output === 'xlsxFile' && r.build !== undefined);
		lines.push(
			`| Export to .xlsx: extra RSS | <= 100 MB | ${xlsx.rssDeltaMb} MB | ${xlsx.rssDeltaMb <= 100 ? 'yes' : 'no'} |`,
			`| Export to .xlsx: time / CSV | <= 2 (issue 52; was 1.5) | ${xlsx.vsCsv} | ${xlsx.vsCsv <= 2 ? 'yes' : 'no'} |`,
		);
		if (xlsx.fileBytes !== undefined) {
			lines.push(`| Export to .xlsx: file of ${xlsx.records.toLocaleString('en-US')} movements | < 512 MiB (database mode's most a file) | ${mib(xlsx.fileBytes)} | ${xlsx.fileBytes < 512 * 1024 ** 2 ? 'yes' : 'no'} |`);
			const ratio = xlsx.libreOfficeBytes === undefined ? undefined : Math.round((xlsx.fileBytes / xlsx.libreOfficeBytes) * 100) / 100;
			lines.push(
				ratio === undefined
					? '| Export to .xlsx: file / LibreOffice\'s own save | <= 1.3 | not measured (no LibreOffice) | |'
					: `| Export to .xlsx: file / LibreOffice's own save (${mib(xlsx.libreOfficeBytes!)}) | <= 1.3 | ${ratio} | ${ratio <= 1.3 ? 'yes' : 'no'} |`,
			);
		}
		if (before) lines.push(`| Export to .xlsx: extra RSS / ${before.build}'s | no higher | ${xlsx.rssDeltaMb} MB / ${before.rssDeltaMb} MB | ${xlsx.rssDeltaMb <= before.rssDeltaMb ? 'yes' : 'no'} |`);
	}
	return [...lines, ''];
}

// Children are started on this file (runExportChild).
runCommand(module, () => answerCase('--export-case', runCase));
