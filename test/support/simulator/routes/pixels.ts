/**
 * Tracking pixels (spec 4.9; bodies and headers not shown): the simulator takes KEYS+BIZ, a
 * body of `platform` (google or meta), `name` and `pixelId` (the platform's own ID) and keeps
 * extra fields. Create and update answer `{ pixel }`, the list is paged with `docs`, details
 * answer `{ pixel }`, delete `{ deleted: true }`. Unknown pixels of the business: 404.
 */
import type { JsonObject } from '../core';
import { pageOf, SimError } from '../core';
import type { Source } from '../checks';
import { Checker, objectBody } from '../checks';
import { ofBusiness, publicView, seedDate, seedRecords, sortRecords } from '../filtering';
import type { SimModule, Simulator } from '../server';

export const PIXEL_PLATFORMS = ['google', 'meta'] as const;

function makePixel(sim: Simulator, businessId: string, n: number): JsonObject {
	const s = sim.state;
	const platform = n % 2 === 0 ? 'meta' : 'google';
	const createdAt = seedDate(sim, 0, 600);
	return {
		id: s.id(),
		name: `${platform === 'meta' ? 'Meta' : 'Google'} pixel ${n + 1}`,
		platform,
		pixelId: platform === 'meta' ? String(s.int(100_000_000, 999_999_999)) + String(s.int(100_000, 999_999)) : `AW-${s.int(100_000_000, 999_999_999)}`,
		createdAt,
		updatedAt: createdAt,
		_businessId: businessId,
	};
}

export function pixelsOf(sim: Simulator, businessId: string): JsonObject[] {
	return ofBusiness(sim.state.col('pixels'), businessId);
}

function checkPixelBody(body: Source, creating: boolean): Source {
	const c = new Checker();
	const platform = c.str(body, 'platform', 'platform', creating);
	if (platform !== undefined && !(PIXEL_PLATFORMS as readonly string[]).includes(platform)) c.bad.push('platform');
	c.str(body, 'name', 'name', creating);
	c.str(body, 'pixelId', 'pixelId', creating);
	c.done();
	const out: Source = {};
	for (const [key, value] of Object.entries(body)) if (!key.startsWith('_') && key !== 'id') out[key] = value;
	return out;
}

export const simModule: SimModule = {
	seed(sim) {
		seedRecords(sim, 'pixels', (businessId, n) => makePixel(sim, businessId, n), 12);
	},
	routes(router, sim) {
		const own = (id: string, businessId: string | undefined): JsonObject => {
			const pixel = sim.state.col('pixels').find((p) => p.id === id && p._businessId === businessId);
			if (!pixel) throw new SimError(404, 'Pixel not found');
			return pixel;
		};

		router.add('POST', '/pixels', 'keys+biz', (ctx) => {
			const fields = checkPixelBody(objectBody(ctx), true);
			const now = sim.state.clock.iso();
			const pixel = { id: sim.state.id(), ...fields, createdAt: now, updatedAt: now, _businessId: ctx.businessId! } as JsonObject;
			sim.state.col('pixels').push(pixel);
			return { status: 201, data: { pixel: publicView(pixel) } };
		});

		router.add('PATCH', '/pixels/:pixelId', 'keys+biz', (ctx) => {
			const pixel = own(ctx.params.pixelId, ctx.businessId);
			const fields = checkPixelBody(objectBody(ctx), false);
			if (!Object.keys(fields).length) throw new SimError(400, 'Invalid param: [body]');
			Object.assign(pixel, fields, { updatedAt: sim.state.clock.iso() });
			return { data: { pixel: publicView(pixel) } };
		});

		router.add('GET', '/pixels/list', 'keys+biz', (ctx) => {
			const docs = sortRecords(pixelsOf(sim, ctx.businessId!), 'createdAt', 'DESC').map(publicView);
			return { data: pageOf(docs, ctx.query, sim.maxLimit) };
		});

		router.add('GET', '/pixels/details/:pixelId', 'keys+biz', (ctx) => ({
			data: { pixel: publicView(own(ctx.params.pixelId, ctx.businessId)) },
		}));

		router.add('DELETE', '/pixels/delete/:pixelId', 'keys+biz', (ctx) => {
			const pixel = own(ctx.params.pixelId, ctx.businessId);
			const list = sim.state.col('pixels');
			list.splice(list.indexOf(pixel), 1);
			return { data: { deleted: true } };
		});
	},
};
