import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf, listed, primaryRecords, runListSearch } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';
import { publicView } from '../support/simulator/filtering';

const sim = useSimulator();

beforeEach(() => sim().clearRequests());

async function run(operation: string, parameters: Record<string, unknown>) {
	return await runNode(
		{ parameters: { resource: 'pixel', operation, ...parameters } as never },
		{ credentials: dataCredentials(sim()) },
	);
}

const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: id });

function pixelAt(index: number): JsonObject {
	return listed(sim(), 'pixels')[index];
}

function stored(id: unknown): JsonObject | undefined {
	return sim().state.col('pixels').find((p) => p.id === id);
}

describe('Pixel: Create', () => {
	it.each([
		['google', 'AW-123456789'],
		['meta', '998877665544332'],
	])('creates a %s pixel with KEYS+BIZ and outputs it', async (platform, platformPixelId) => {
		const { items, error } = await run('create', {
			platform,
			name: `Checkout ${platform}`,
			platformPixelId,
			additionalFields: { extraFields: '{"events":["purchase"]}' },
		});
		expect(error).toBeUndefined();
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect([req.method, req.path]).toEqual(['POST', '/pixels']);
		expectAuth(sim(), req, 'keys+biz');
		expect(req.body).toEqual({ events: ['purchase'], platform, name: `Checkout ${platform}`, pixelId: platformPixelId });
		const pixel = primaryRecords(sim(), 'pixels').find((p) => p.name === `Checkout ${platform}`);
		expect(jsonOf(items)).toEqual([publicView(pixel!)]);
		expect(items[0].json).toMatchObject({ platform, pixelId: platformPixelId });
	});

	it.each([
		['blank name', { name: '  ' }, 'Name is required'],
		['blank platform pixel ID', { platformPixelId: ' ' }, 'Platform Pixel ID is required'],
		['unknown platform', { platform: 'tiktok' }, 'Platform must be one of google, meta'],
		['JSON that is not an object', { additionalFields: { extraFields: '"x"' } }, 'Extra Fields (JSON) must be a JSON object'],
	])('bad input (%s) is refused naming the field, before any request', async (_case, overrides, message) => {
		const { error } = await run('create', { platform: 'meta', name: 'P', platformPixelId: '1', ...overrides });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain(message);
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Pixel: Get Many and Get', () => {
	it('Get Many with Return All pages through the pixels of the business (KEYS+BIZ)', async () => {
		const all = listed(sim(), 'pixels');
		expect(all.length).toBeGreaterThan(5);
		const { items, error } = await run('getMany', { returnAll: true, pagination: { pageSize: 5 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(all);
		const reqs = sim().apiRequests;
		expect(reqs.map((r) => r.query.page)).toEqual(Array.from({ length: Math.ceil(all.length / 5) }, (_, n) => String(n + 1)));
		for (const r of reqs) {
			expect([r.method, r.path, r.query.limit]).toEqual(['GET', '/pixels/list', '5']);
			expectAuth(sim(), r, 'keys+biz');
		}
	});

	it('Get Many with Limit returns that many', async () => {
		const { items } = await run('getMany', { limit: 3 });
		expect(jsonOf(items)).toEqual(listed(sim(), 'pixels').slice(0, 3));
		expect(sim().apiRequests[0].query).toEqual({ page: '1', limit: '3' });
	});

	it('Get reads the details (KEYS+BIZ) and outputs the pixel', async () => {
		const pixel = pixelAt(1);
		const { items, error } = await run('get', { pixelId: byId(pixel.id) });
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect([req.method, req.path]).toEqual(['GET', `/pixels/details/${String(pixel.id)}`]);
		expectAuth(sim(), req, 'keys+biz');
		expect(jsonOf(items)).toEqual([pixel]);
	});

	it('the pixel locator lists the pixels with their platform (From list)', async () => {
		const pixel = pixelAt(2);
		const result = await runListSearch(sim(), 'searchPixels', String(pixel.id));
		expect(result.results).toEqual([{ name: `${String(pixel.name)} (${String(pixel.platform)})`, value: pixel.id, url: undefined }]);
	});

	it('a pixel of another business is not found, in plain words', async () => {
		const other = sim().state.col('pixels').find((p) => p._businessId !== sim().credentials.businessId)!;
		const { error } = await run('get', { pixelId: byId(other.id) });
		expect(error?.httpCode).toBe('404');
		expect(error?.message).toBe('Pixel not found');
		expect(error?.description).toContain('No pixel with this ID exists');
	});
});

describe('Pixel: Update and Delete', () => {
	it('Update sends only the changed fields (KEYS+BIZ) and outputs the updated pixel', async () => {
		const pixel = pixelAt(3);
		const { items, error } = await run('update', {
			pixelId: { __rl: true, mode: 'list', value: pixel.id },
			updateFields: { name: 'Renamed pixel', platformPixelId: 'AW-555' },
		});
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect([req.method, req.path]).toEqual(['PATCH', `/pixels/${String(pixel.id)}`]);
		expectAuth(sim(), req, 'keys+biz');
		expect(req.body).toEqual({ name: 'Renamed pixel', pixelId: 'AW-555' });
		expect(items[0].json).toMatchObject({ id: pixel.id, name: 'Renamed pixel', pixelId: 'AW-555', platform: pixel.platform });
		expect(stored(pixel.id)?.name).toBe('Renamed pixel');
	});

	it('Update with nothing to change is refused before any request', async () => {
		const { error } = await run('update', { pixelId: byId(pixelAt(4).id), updateFields: {} });
		expect(error?.message).toBe('Update Fields: set at least one field to change');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('Delete removes the pixel (KEYS+BIZ) and outputs what the platform said', async () => {
		const pixel = pixelAt(5);
		const { items, error } = await run('delete', { pixelId: byId(pixel.id) });
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect([req.method, req.path, req.body]).toEqual(['DELETE', `/pixels/delete/${String(pixel.id)}`, undefined]);
		expectAuth(sim(), req, 'keys+biz');
		expect(jsonOf(items)).toEqual([{ deleted: true }]);
		expect(stored(pixel.id)).toBeUndefined();
	});

	it('a malformed pixel ID is refused before any request', async () => {
		const { error } = await run('delete', { pixelId: byId('x?y') });
		expect(error?.message).toBe('Pixel "x?y" is not a valid ID (letters, digits, "-" and "_" only, at most 128)');
		expect(sim().apiRequests).toHaveLength(0);
	});
});
