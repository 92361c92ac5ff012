import axios from 'axios';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf, listed, primaryRecords, runListSearch } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';
import { publicView } from '../support/simulator/filtering';
import { recordPaymentLinkSale } from '../support/simulator/routes/payment-links';

const sim = useSimulator({ size: 130 });

beforeEach(() => sim().clearRequests());

/** A real 1x1 PNG. */
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64',
);
/** JPEG start-of-image and JFIF header, followed by arbitrary bytes (including CR/LF and boundary-like dashes). */
const JPEG = Buffer.concat([
	Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
	Buffer.from('\r\n--not-a-boundary\r\n\r\n', 'latin1'),
	Buffer.from(Array.from({ length: 300 }, (_, n) => (n * 37) % 256)),
	Buffer.from([0xff, 0xd9]),
]);

async function run(
	operation: string,
	parameters: Record<string, unknown>,
	input?: INodeExecutionData[],
	settings?: Record<string, unknown>,
) {
	return await runNode(
		{ parameters: { resource: 'paymentLink', operation, ...parameters } as never },
		{ credentials: dataCredentials(sim()), input, settings: settings as IDataObject | undefined },
	);
}

const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: id });

/** An unsold link of the primary business that no other test uses (by its position in the list). */
function freshLink(index: number): JsonObject {
	const link = listed(sim(), 'paymentLinks').filter((l) => l.salesCount === 0)[index];
	if (!link) throw new Error(`no unsold link at ${index}`);
	return link;
}

function stored(id: unknown): JsonObject | undefined {
	return sim().state.col('paymentLinks').find((l) => l.id === id);
}

function binaryItem(data: Buffer, mimeType: string, fileName?: string, property = 'data'): INodeExecutionData[] {
	return [{ json: {}, binary: { [property]: { data: data.toString('base64'), mimeType, ...(fileName ? { fileName } : {}) } } }];
}

describe('Payment Link: Create', () => {
	it('sends KEYS+BIZ and every body field of the spec in its place, and outputs the created link', async () => {
		const { items, error } = await run('create', {
			name: 'Yoga Weekend',
			valueInCents: 15990,
			additionalFields: {
				description: 'Two days of yoga',
				checkoutTemplateId: 'tpl-9',
				acceptCorporationBuyer: false,
				acceptNaturalPersonBuyer: true,
				requestAddress: true,
				requestDeliveryAddress: false,
				showSellerName: true,
				dueDateDelay: 5,
				defaultInstallments: 2,
				invoiceDescription: 'YOGA WKND',
				installmentOptions: {
					option: [
						{ installments: 1, installmentValueInCents: 15990, interestRate: 0 },
						{ installments: 3, installmentValueInCents: 5500, interestRate: 1.99 },
					],
				},
				expirationInMinutes: 45,
				contactEmailId: 'mail-3',
				redirect: { values: { buttonName: 'Back', url: 'https://shop.example/thanks', delayInSeconds: 3 } },
				sellerAbsorbsInterest: true,
				extraFields: '{"slug":"yoga-weekend","preference":{"showSellerName":false,"custom":1}}',
			},
		});
		expect(error).toBeUndefined();
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect(req.method).toBe('POST');
		expect(req.path).toBe('/payment-links');
		expectAuth(sim(), req, 'keys+biz');
		expect(req.body).toEqual({
			slug: 'yoga-weekend',
			name: 'Yoga Weekend',
			valueInCents: 15990,
			description: 'Two days of yoga',
			checkoutTemplateId: 'tpl-9',
			preference: {
				custom: 1,
				acceptCorporationBuyer: false,
				acceptNaturalPersonBuyer: true,
				requestAddress: true,
				requestDeliveryAddress: false,
				showSellerName: true,
			},
			paymentConfiguration: {
				billet: { dueDateDelay: 5 },
				creditCard: {
					defaultInstallments: 2,
					invoiceDescription: 'YOGA WKND',
					installmentOptions: [
						{ installments: 1, installmentValueInCents: 15990, interestRate: 0 },
						{ installments: 3, installmentValueInCents: 5500, interestRate: 1.99 },
					],
				},
				pix: { expirationInMinutes: 45 },
			},
			supportContact: { contactEmailId: 'mail-3' },
			advanced: { redirect: { url: 'https://shop.example/thanks', buttonName: 'Back', delayInSeconds: 3 } },
			interestSettings: { sellerAbsorbsInterest: true },
		});
		const link = primaryRecords(sim(), 'paymentLinks').find((l) => l.name === 'Yoga Weekend');
		expect(jsonOf(items)).toEqual([publicView(link!)]);
		expect(items[0].json.status).toBe('inactive');
	});

	it('with only the required fields sends just name and value', async () => {
		const { error } = await run('create', { name: 'Plain', valueInCents: 100 });
		expect(error).toBeUndefined();
		expect(sim().apiRequests[0].body).toEqual({ name: 'Plain', valueInCents: 100 });
	});

	it.each([
		['blank name', { name: '   ' }, 'Name is required'],
		['negative value', { valueInCents: -1 }, 'Value in Cents must be a whole, non-negative number of cents'],
		['fractional value', { valueInCents: 10.5 }, 'Value in Cents must be a whole, non-negative number of cents'],
		['value as text', { valueInCents: 'ten' }, 'Value in Cents must be a whole, non-negative number of cents'],
		[
			'bad redirect URL',
			{ additionalFields: { redirect: { values: { url: 'shop.example', buttonName: 'x' } } } },
			'Redirect URL must start with http:// or https://',
		],
		[
			'fractional installment value',
			{ additionalFields: { installmentOptions: { option: [{ installments: 2, installmentValueInCents: 0.5 }] } } },
			'Installment Options 1: Installment Value in Cents must be a whole, non-negative number of cents',
		],
		['zero pix minutes', { additionalFields: { expirationInMinutes: 0 } }, 'Pix Expiration (Minutes) must be a whole number of at least 1'],
	])('bad input (%s) is refused naming the field, before any request', async (_case, overrides, message) => {
		const { error } = await run('create', { name: 'Link', valueInCents: 1000, ...overrides });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain(message);
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Payment Link: Get Many', () => {
	it('with Return All reads `paymentLinks` page by page (KEYS+BIZ) and returns every link of the business once', async () => {
		const all = listed(sim(), 'paymentLinks');
		expect(all.length).toBeGreaterThanOrEqual(130);
		const { items, error } = await run('getMany', { returnAll: true, pagination: { pageSize: 50 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(all);
		const reqs = sim().apiRequests;
		expect(reqs.map((r) => r.query)).toEqual(
			Array.from({ length: Math.ceil(all.length / 50) }, (_, n) => ({ page: String(n + 1), limit: '50' })),
		);
		for (const r of reqs) {
			expect(r.method).toBe('GET');
			expect(r.path).toBe('/payment-links/list');
			expectAuth(sim(), r, 'keys+biz');
		}
	});

	it('with Limit returns exactly that many', async () => {
		const { items } = await run('getMany', { limit: 7 });
		expect(jsonOf(items)).toEqual(listed(sim(), 'paymentLinks').slice(0, 7));
		expect(sim().apiRequests.map((r) => r.query)).toEqual([{ page: '1', limit: '7' }]);
	});

	it('the payment link locator lists the links of the business (From list)', async () => {
		const link = freshLink(40);
		const result = await runListSearch(sim(), 'searchPaymentLinks', String(link.id));
		expect(result.results).toEqual([{ name: link.name, value: link.id, url: undefined }]);
		expectAuth(sim(), sim().apiRequests[0], 'keys+biz');
	});
});

describe('Payment Link: Get, Publish, Unpublish, Delete', () => {
	it('Get reads the details with KEYS+BIZ and outputs the link', async () => {
		const link = freshLink(0);
		const { items, error } = await run('get', { paymentLinkId: byId(link.id) });
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect([req.method, req.path]).toEqual(['GET', `/payment-links/details/${String(link.id)}`]);
		expectAuth(sim(), req, 'keys+biz');
		expect(jsonOf(items)).toEqual([link]);
	});

	it('Publish makes the link active and Unpublish inactive again', async () => {
		const link = freshLink(1);
		sim().state.col('paymentLinks').find((l) => l.id === link.id)!.status = 'inactive';
		const published = await run('publish', { paymentLinkId: byId(link.id) });
		expect(published.error).toBeUndefined();
		expect(published.items[0].json).toMatchObject({ id: link.id, status: 'active' });
		expect(stored(link.id)?.status).toBe('active');
		const unpublished = await run('unpublish', { paymentLinkId: byId(link.id) });
		expect(unpublished.items[0].json).toMatchObject({ id: link.id, status: 'inactive' });
		expect(stored(link.id)?.status).toBe('inactive');
		const [a, b] = sim().apiRequests;
		expect([a.method, a.path, a.body]).toEqual(['PATCH', `/payment-links/publish/${String(link.id)}`, undefined]);
		expect([b.method, b.path, b.body]).toEqual(['PATCH', `/payment-links/unpublish/${String(link.id)}`, undefined]);
		expectAuth(sim(), a, 'keys+biz');
		expectAuth(sim(), b, 'keys+biz');
	});

	it('Publish, which sets a state, is repeated when its answer is lost', async () => {
		const link = freshLink(11);
		sim().addFault({ kind: 'status', status: 503, path: '/payment-links/publish/', afterProcessing: true, times: 1 });
		const { items, error } = await run('publish', { paymentLinkId: byId(link.id) });
		expect(error).toBeUndefined();
		expect(sim().apiRequests.map((r) => [r.path, r.status])).toEqual([
			[`/payment-links/publish/${String(link.id)}`, 503],
			[`/payment-links/publish/${String(link.id)}`, 200],
		]);
		expect(items[0].json.status).toBe('active');
	});

	it('Delete removes the link (KEYS+BIZ); a second delete is a plain-worded 404', async () => {
		const link = freshLink(2);
		const { items, error } = await run('delete', { paymentLinkId: byId(link.id) });
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect([req.method, req.path]).toEqual(['DELETE', `/payment-links/delete/${String(link.id)}`]);
		expectAuth(sim(), req, 'keys+biz');
		expect(jsonOf(items)).toEqual([{ deleted: true }]);
		expect(stored(link.id)).toBeUndefined();
		const again = await run('delete', { paymentLinkId: byId(link.id) });
		expect(again.error?.httpCode).toBe('404');
		expect(again.error?.message).toBe('Payment link not found');
		expect(again.error?.description).toContain('No payment link with this ID exists');
	});

	it('a link of another business is not found', async () => {
		const other = sim().state.col('paymentLinks').find((l) => l._businessId !== sim().credentials.businessId)!;
		const { error } = await run('get', { paymentLinkId: byId(other.id) });
		expect(error?.httpCode).toBe('404');
	});
});

describe('Payment Link: Update', () => {
	it('sends KEYS+BIZ and the update fields in their places, answering {updated}', async () => {
		const link = freshLink(3);
		const { items, error } = await run('update', {
			paymentLinkId: byId(link.id),
			updateFields: {
				name: 'Renamed link',
				valueInCents: 2500,
				maxInstallments: 6,
				defaultInstallments: 2,
				dueDateDelay: 1,
				expirationInMinutes: 15,
				requestAddress: true,
			},
		});
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect([req.method, req.path]).toEqual(['PATCH', `/payment-links/${String(link.id)}`]);
		expectAuth(sim(), req, 'keys+biz');
		expect(req.body).toEqual({
			name: 'Renamed link',
			valueInCents: 2500,
			preference: { requestAddress: true },
			paymentConfiguration: {
				billet: { dueDateDelay: 1 },
				creditCard: { defaultInstallments: 2, maxInstallments: 6 },
				pix: { expirationInMinutes: 15 },
			},
		});
		expect(jsonOf(items)).toEqual([{ id: link.id, updated: true }]);
		const after = stored(link.id)!;
		expect(after.name).toBe('Renamed link');
		expect((after.preference as JsonObject).showSellerName).toBe((link.preference as JsonObject).showSellerName);
	});

	it('is refused by the platform once the link has a sale (recorded in-process), in plain words', async () => {
		const link = freshLink(4);
		recordPaymentLinkSale(sim(), String(link.id));
		const { error } = await run('update', { paymentLinkId: byId(link.id), updateFields: { name: 'Too late' } });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('409');
		expect(error?.message).toBe('Payment link already has sales; its fields can no longer be changed');
		expect(error?.description).toContain('This payment link already has a sale, so the platform no longer allows changing its fields.');
		expect(stored(link.id)?.name).toBe(link.name);
	});

	it('is refused once a sale is recorded through the control route', async () => {
		const link = freshLink(5);
		const res = await axios.post(`${sim().url}/__sim/payment-links/${String(link.id)}/sale`);
		expect(res.data).toEqual({ id: link.id, salesCount: 1 });
		const { error } = await run('update', { paymentLinkId: byId(link.id), updateFields: { valueInCents: 1 } });
		expect(error?.httpCode).toBe('409');
		expect(error?.description).toContain('already has a sale');
	});

	it('no field to change, or a negative value, is refused before any request', async () => {
		const link = freshLink(6);
		const none = await run('update', { paymentLinkId: byId(link.id), updateFields: {} });
		expect(none.error?.message).toBe('Update Fields: set at least one field to change');
		const negative = await run('update', { paymentLinkId: byId(link.id), updateFields: { valueInCents: -10 } });
		expect(negative.error?.message).toContain('Value in Cents must be a whole, non-negative number of cents');
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Payment Link: Upload Image', () => {
	it('sends the PNG as real multipart `picture` (KEYS+BIZ) and outputs the image', async () => {
		const link = freshLink(7);
		const { items, error } = await run('uploadImage', { paymentLinkId: byId(link.id) }, binaryItem(PNG, 'image/png', 'cover.png'));
		expect(error).toBeUndefined();
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect([req.method, req.path]).toEqual(['PATCH', `/payment-links/upload-image/${String(link.id)}`]);
		expectAuth(sim(), req, 'keys+biz');
		expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
		expect(req.files).toHaveLength(1);
		const [file] = req.files;
		expect(file.field).toBe('picture');
		expect(file.filename).toBe('cover.png');
		expect(file.contentType).toBe('image/png');
		expect(file.data.equals(PNG)).toBe(true);
		expect(req.body).toEqual({});
		const image = stored(link.id)!.image as JsonObject;
		expect(jsonOf(items)).toEqual([image]);
		expect(image).toMatchObject({ name: 'cover.png', isPublic: true, extension: 'png' });
	});

	it('sends a JPEG from another binary field byte for byte', async () => {
		const link = freshLink(8);
		const { items, error } = await run(
			'uploadImage',
			{ paymentLinkId: byId(link.id), binaryPropertyName: 'photo' },
			binaryItem(JPEG, 'image/jpeg', 'team photo.jpg', 'photo'),
		);
		expect(error).toBeUndefined();
		const [file] = sim().apiRequests[0].files;
		expect([file.field, file.filename, file.contentType]).toEqual(['picture', 'team photo.jpg', 'image/jpeg']);
		expect(file.data.equals(JPEG)).toBe(true);
		expect(items[0].json.extension).toBe('jpg');
	});

	it('is refused by the platform once the link has a sale, in plain words', async () => {
		const link = freshLink(9);
		recordPaymentLinkSale(sim(), String(link.id));
		const { error } = await run('uploadImage', { paymentLinkId: byId(link.id) }, binaryItem(PNG, 'image/png', 'cover.png'));
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('409');
		expect(error?.message).toBe('Payment link already has sales; its image can no longer be changed');
		expect(error?.description).toContain('This payment link already has a sale, so the platform no longer allows changing its image.');
		expect(stored(link.id)?.image).toBeNull();
	});

	/** An item as n8n 2.x's combined binary mode hands it on: the file under the JSON's `_files`, no binary. */
	function combinedItem(data: Buffer, mimeType: string, fileName: string, property = 'data'): INodeExecutionData[] {
		return [{ json: { orderRef: 'x-1', _files: { [property]: { data: data.toString('base64'), mimeType, fileName } } } }];
	}

	async function uploadedFile(parameters: Record<string, unknown>, input: INodeExecutionData[], settings?: Record<string, unknown>) {
		const link = freshLink(11);
		sim().clearRequests();
		const { items, error } = await run('uploadImage', { paymentLinkId: byId(link.id), ...parameters }, input, settings);
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual(stored(link.id)!.image);
		const [file, ...more] = sim().apiRequests[0].files;
		expect(more).toHaveLength(0);
		return file;
	}

	it("takes the file object of n8n 2.x's combined binary mode (`_files`) by the same field name", async () => {
		const file = await uploadedFile({}, combinedItem(PNG, 'image/png', 'cover.png'), { binaryMode: 'combined' });
		expect([file.field, file.filename, file.contentType]).toEqual(['picture', 'cover.png', 'image/png']);
		expect(file.data.equals(PNG)).toBe(true);
	});

	it('takes a `_files` path, or the file object given by expression', async () => {
		const byPath = await uploadedFile(
			{ binaryPropertyName: '_files.photo' },
			combinedItem(JPEG, 'image/jpeg', 'team.jpg', 'photo'),
			{ binaryMode: 'combined' },
		);
		expect(byPath.data.equals(JPEG)).toBe(true);
		const byExpression = await uploadedFile(
			{ binaryPropertyName: '={{ $json._files.photo }}' },
			combinedItem(JPEG, 'image/jpeg', 'team.jpg', 'photo'),
			{ binaryMode: 'combined' },
		);
		expect([byExpression.filename, byExpression.data.equals(JPEG)]).toEqual(['team.jpg', true]);
	});

	it('in a combined-mode workflow whose files stayed binary (memory mode), still takes the binary field', async () => {
		const file = await uploadedFile({}, binaryItem(PNG, 'image/png', 'cover.png'), { binaryMode: 'combined' });
		expect(file.data.equals(PNG)).toBe(true);
	});

	it('names the files it can see, binary fields and `_files` entries, when the named one is missing', async () => {
		const link = freshLink(10);
		const input = [{ json: { _files: { scan: { data: PNG.toString('base64'), mimeType: 'image/png' } } }, binary: binaryItem(PNG, 'image/png', 'a.png', 'file')[0].binary }];
		const { error } = await run('uploadImage', { paymentLinkId: byId(link.id) }, input, { binaryMode: 'combined' });
		expect(error?.message).toBe('Input Binary Field: the input item has no binary field "data" (it has: file, _files.scan)');
		const typed = await run('uploadImage', { paymentLinkId: byId(link.id) }, combinedItem(Buffer.from('GIF89a'), 'image/gif', 'a.gif'), {
			binaryMode: 'combined',
		});
		expect(typed.error?.message).toBe('Input Binary Field "data" is a image/gif; the platform accepts only PNG, JPEG or JPG images');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it.each([
		['no binary data at all', [{ json: {} }], 'Input Binary Field: the input item has no binary field "data" (it has no binary data)'],
		[
			'another binary field only',
			binaryItem(PNG, 'image/png', 'a.png', 'file'),
			'Input Binary Field: the input item has no binary field "data" (it has: file)',
		],
		[
			'a PDF',
			binaryItem(Buffer.from('%PDF-1.7 ...'), 'application/pdf', 'doc.pdf'),
			'Input Binary Field "data" is a application/pdf; the platform accepts only PNG, JPEG or JPG images',
		],
		[
			'a GIF',
			binaryItem(Buffer.from('GIF89a....'), 'image/gif', 'a.gif'),
			'the platform accepts only PNG, JPEG or JPG images',
		],
		[
			'text labelled as PNG',
			binaryItem(Buffer.from('hello, not an image'), 'image/png', 'fake.png'),
			'Input Binary Field "data" is labelled image/png but its content is not a PNG image',
		],
		[
			'a JPEG labelled as PNG',
			binaryItem(JPEG, 'image/png', 'photo.png'),
			'is labelled image/png but its content is not a PNG image',
		],
	])('bad input (%s) is refused naming the field, before any request', async (_case, input, message) => {
		const link = freshLink(10);
		const { error } = await run('uploadImage', { paymentLinkId: byId(link.id) }, input as INodeExecutionData[]);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain(message);
		expect(sim().apiRequests).toHaveLength(0);
	});
});
