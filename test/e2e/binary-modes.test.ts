/**
 * Upload Image in a real n8n 2.8.4, however n8n holds the file: by binary field name with the
 * filesystem and the database binary data modes (N8N_DEFAULT_BINARY_DATA_MODE), and as the
 * `_files` object of a workflow whose binary mode is "combined". The file is made by n8n's own
 * Convert to File node, so it is stored exactly as that mode stores files; the simulator checks
 * that the bytes it receives are the image's.
 */
import type { E2eContext } from './setup';
import { dataCredential, INSTALL_TIMEOUT, prepareN8n, teardown } from './setup';
import { nodeOutput } from '../support/n8n-process';
import type { JsonObject } from '../support/simulator/core';

/** A real 1x1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let ctx: E2eContext;
const links: string[] = [];

function uploadWorkflow(id: string, linkId: string, binaryMode?: 'combined') {
	return {
		id,
		name: `e2e ${id}`,
		active: false,
		nodes: [
			{ id: `${id}-1`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: `${id}-2`,
				name: 'Picture',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [200, 0],
				parameters: { assignments: { assignments: [{ id: 'b64', name: 'b64', value: PNG_BASE64, type: 'string' }] }, options: {} },
			},
			{
				id: `${id}-3`,
				name: 'To file',
				type: 'n8n-nodes-base.convertToFile',
				typeVersion: 1.1,
				position: [400, 0],
				parameters: { operation: 'toBinary', sourceProperty: 'b64', options: { fileName: 'cover.png', mimeType: 'image/png' } },
			},
			{
				id: `${id}-4`,
				name: 'Upload Image',
				type: 'n8n-nodes-sales-payments.salesPayments',
				typeVersion: 1,
				position: [600, 0],
				parameters: {
					resource: 'paymentLink',
					operation: 'uploadImage',
					paymentLinkId: { __rl: true, mode: 'id', value: linkId },
					binaryPropertyName: 'data',
				},
				credentials: { salesPaymentsApi: { id: 'spBinary', name: 'Sales & Payments spBinary' } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Picture', type: 'main', index: 0 }]] },
			Picture: { main: [[{ node: 'To file', type: 'main', index: 0 }]] },
			'To file': { main: [[{ node: 'Upload Image', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1', ...(binaryMode ? { binaryMode } : {}) },
	};
}

beforeAll(async () => {
	ctx = await prepareN8n();
	const { businessId } = ctx.sim.credentials;
	const unsold = ctx.sim.state.col('paymentLinks').filter((l) => l._businessId === businessId && l.salesCount === 0);
	links.push(...unsold.slice(0, 3).map((l) => String(l.id)));
	await ctx.n8n.importCredentials([dataCredential(ctx.sim, 'spBinary')]);
	await ctx.n8n.importWorkflows([
		uploadWorkflow('wfUploadFs', links[0]),
		uploadWorkflow('wfUploadDb', links[1]),
		uploadWorkflow('wfUploadCombined', links[2], 'combined'),
	]);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await teardown(ctx);
});

/** Runs a workflow with a binary data mode and returns the file the simulator received. */
async function upload(workflowId: string, mode: 'filesystem' | 'database', linkId: string) {
	ctx.n8n.extraEnv.N8N_DEFAULT_BINARY_DATA_MODE = mode;
	ctx.sim.clearRequests();
	const { code, run, stderr } = await ctx.n8n.execute(workflowId);
	expect({ code, status: run?.status, stderr: code ? stderr.slice(-2000) : '' }).toEqual({ code: 0, status: 'success', stderr: '' });
	const [req, ...more] = ctx.sim.requestsTo('PATCH', `/payment-links/upload-image/${linkId}`);
	expect(more).toHaveLength(0);
	expect(req.files).toHaveLength(1);
	const [file] = req.files;
	expect([file.field, file.filename, file.contentType]).toEqual(['picture', 'cover.png', 'image/png']);
	expect(file.data.equals(Buffer.from(PNG_BASE64, 'base64'))).toBe(true);
	const stored = ctx.sim.state.col('paymentLinks').find((l) => l.id === linkId)!.image as JsonObject;
	expect(nodeOutput(run, 'Upload Image')).toEqual([stored]);
	return run!;
}

/** How n8n holds the file made by Convert to File: the binary field, or the `_files` entry. */
function storedFile(run: Awaited<ReturnType<typeof upload>>): { where: string; id: string } {
	const item = run.data.resultData.runData['To file'][0].data!.main[0][0] as unknown as {
		json: { _files?: Record<string, { id?: string }> };
		binary?: Record<string, { id?: string }>;
	};
	if (item.binary?.data) return { where: 'binary.data', id: String(item.binary.data.id) };
	return { where: '_files.data', id: String(item.json._files?.data?.id) };
}

describe('Upload Image in real n8n 2.8.4 binary data modes', () => {
	it('filesystem mode (the default): the binary field named data', async () => {
		const run = await upload('wfUploadFs', 'filesystem', links[0]);
		expect(storedFile(run)).toEqual({ where: 'binary.data', id: expect.stringMatching(/^filesystem(-v2)?:/) });
	});

	it('database mode: the same field, its bytes read from the database', async () => {
		const run = await upload('wfUploadDb', 'database', links[1]);
		expect(storedFile(run)).toEqual({ where: 'binary.data', id: expect.stringMatching(/^database:/) });
	});

	it("a workflow in n8n 2.x's combined binary mode: the file object under _files", async () => {
		const run = await upload('wfUploadCombined', 'filesystem', links[2]);
		expect(storedFile(run)).toEqual({ where: '_files.data', id: expect.stringMatching(/^filesystem(-v2)?:/) });
	});
});
