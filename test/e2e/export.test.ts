/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The CSV export in a real n8n 2.8.4 in its filesystem binary data mode
 * (N8N_DEFAULT_BINARY_DATA_MODE=filesystem): Movement › Get Many › Output › CSV File of 200,000
 * movements, then two of n8n's own file nodes read the file it made: Read/Write Files from Disk
 * writes it to a folder (the test reads that copy with its own RFC 4180 reader: every movement
 * once, in the platform's order) and Extract From File parses its first rows with n8n's CSV
 * parser.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import { csvRecords } from '../support/helpers/csv';
import { listed } from '../support/helpers/reads';
import type { ExecutedRun } from '../support/n8n-process';
import { nodeOutput } from '../support/n8n-process';
import { addMovements } from '../support/simulator/routes/financials';
import type { E2eSession } from './setup';
import { closeSession, dataCredential, INSTALL_TIMEOUT, openSession } from './setup';

const MOVEMENTS = 200_000;
const EXTRACTED = 1000;

let ctx: E2eSession;
/** A folder of this file's in the one n8n's file nodes may write to (set once the session is open). */
let filesDir = '';
let target = '';

function exportWorkflow() {
	const node = (id: string, name: string, type: string, typeVersion: number, x: number, parameters: Record<string, unknown>, extra = {}) => ({
		id,
		name,
		type,
		typeVersion,
		position: [x, 0],
		parameters,
		...extra,
	});
	return {
		id: 'wfExportCsv',
		name: 'e2e export to CSV',
		active: false,
		nodes: [
			node('x1', 'Start', 'n8n-nodes-base.manualTrigger', 1, 0, {}),
			node(
				'x2',
				'Export',
				'n8n-nodes-sales-payments.salesPayments',
				1,
				200,
				{ resource: 'movement', operation: 'getMany', output: 'csvFile', returnAll: true, fileOptions: { fileName: 'movements-e2e.csv' } },
				{ credentials: { salesPaymentsApi: { id: 'spExport', name: 'Sales & Payments spExport' } } },
			),
			node('x3', 'Write', 'n8n-nodes-base.readWriteFile', 1, 400, { operation: 'write', fileName: target, dataPropertyName: 'data', options: {} }),
			node('x4', 'Extract', 'n8n-nodes-base.extractFromFile', 1.1, 400, { operation: 'csv', binaryPropertyName: 'data', options: { maxRowCount: EXTRACTED } }),
		],
		connections: {
			Start: { main: [[{ node: 'Export', type: 'main', index: 0 }]] },
			Export: {
				main: [
					[
						{ node: 'Write', type: 'main', index: 0 },
						{ node: 'Extract', type: 'main', index: 0 },
					],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

beforeAll(async () => {
	ctx = await openSession();
	filesDir = ctx.session.filesDir('sp-e2e-export-');
	target = path.join(filesDir, 'movements-e2e.csv');
	const { businessId } = ctx.sim.credentials;
	addMovements(ctx.sim, businessId, MOVEMENTS - listed(ctx.sim, 'movements').length);
	await ctx.session.addCredentials([dataCredential(ctx.sim, 'spExport')]);
	await ctx.session.addWorkflows([exportWorkflow()]);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await closeSession(ctx);
	if (filesDir) rmSync(filesDir, { recursive: true, force: true });
}, 60_000);

describe('Output › CSV File in real n8n 2.8.4, filesystem binary data mode', () => {
	let run: ExecutedRun | undefined;
	const expected = () => listed(ctx.sim, 'movements');

	beforeAll(async () => {
		ctx.sim.clearRequests();
		run = await ctx.session.runOk('wfExportCsv', 15 * 60_000);
	}, 20 * 60_000);

	it(`exports ${MOVEMENTS.toLocaleString('en-US')} movements as one item: a file on disk and its summary`, () => {
		expect(expected()).toHaveLength(MOVEMENTS);
		const [item] = run!.data.resultData.runData.Export[0].data!.main[0] as unknown as Array<{
			json: Record<string, unknown>;
			binary: Record<string, Record<string, unknown>>;
		}>;
		expect(run!.data.resultData.runData.Export[0].data!.main[0]).toHaveLength(1);
		const total = expected().reduce((sum, m) => sum + Number(m.valueInCents), 0);
		expect(item.json).toMatchObject({ fileName: 'movements-e2e.csv', records: MOVEMENTS, repeatedRecordsSkipped: 0, totals: { count: MOVEMENTS, totalValue: total } });
		expect(item.binary.data).toMatchObject({ fileName: 'movements-e2e.csv', mimeType: 'text/csv', id: expect.stringMatching(/^filesystem(-v2)?:/) });
		// Every page once.
		const pages = ctx.sim.requestsTo('POST', '/movement/filter').map((r) => r.query.page);
		expect(new Set(pages).size).toBe(pages.length);
	});

	it('Read/Write Files from Disk writes the file: every movement once, in order, each row its movement', () => {
		expect(nodeOutput(run, 'Write')).toHaveLength(1);
		const text = readFileSync(target, 'utf8');
		const { header, records } = csvRecords(text);
		expect(header).toEqual(['id', 'type', 'valueInCents', 'subject', 'description', 'hash', 'originType', 'referenceId', 'groupId', 'createdAt', '_extraFields']);
		expect(records).toHaveLength(MOVEMENTS);
		const all = expected();
		expect(records.map((r) => r.id)).toEqual(all.map((m) => m.id));
		records.forEach((row, n) => {
			if (row.valueInCents !== String(all[n].valueInCents) || row.createdAt !== all[n].createdAt || row._extraFields !== '') {
				expect({ n, row }).toEqual({ n, row: { ...row, valueInCents: String(all[n].valueInCents), createdAt: all[n].createdAt, _extraFields: '' } });
			}
		});
	});

	it("Extract From File parses the file's first rows with n8n's own CSV parser", () => {
		const rows = nodeOutput(run, 'Extract');
		expect(rows).toHaveLength(EXTRACTED);
		const all = expected();
		rows.forEach((row, n) => {
			expect(row).toMatchObject({ id: all[n].id, valueInCents: String(all[n].valueInCents), subject: all[n].subject, createdAt: all[n].createdAt });
		});
	});
});
