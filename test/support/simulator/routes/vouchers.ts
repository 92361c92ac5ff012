/**
 * Vouchers (spec 4.10; bodies and headers not shown): the simulator takes KEYS+BIZ and answers
 * `{ voucher }`. State rules of spec part 3, with the statuses chosen here where the spec is
 * silent:
 * - redeem: a redeemed voucher cannot be redeemed again -> 409 Conflict "Voucher already redeemed";
 * - cancel-redeem: only a redeemed voucher (else 409 "Voucher is not redeemed") and at most
 *   15 minutes after the redemption on `sim.state.clock` (else 422 "... within 15 minutes ...").
 * Unknown codes and IDs of the business: 404.
 */
import type { JsonObject } from '../core';
import { SimError } from '../core';
import { hex, ofBusiness, publicView, seedDate, seedRecords } from '../filtering';
import type { SimModule, Simulator } from '../server';

/** How long after a redemption it may be cancelled (spec part 8). */
export const CANCEL_WINDOW_MS = 15 * 60_000;

const PREFIXES = ['WELCOME', 'BLACKFRIDAY', 'VIP', 'FRIEND', 'SUMMER'];

function makeVoucher(sim: Simulator, businessId: string, n: number): JsonObject {
	const s = sim.state;
	const createdAt = seedDate(sim, 0, 500);
	// Every fourth seeded voucher was redeemed long ago (outside any cancellation window).
	const redeemed = n % 4 === 3;
	return {
		id: s.id(),
		code: `${PREFIXES[n % PREFIXES.length]}-${hex(sim, 6).toUpperCase()}`,
		status: redeemed ? 'redeemed' : 'available',
		discount: n % 2 === 0 ? { type: 'percentage', percentage: s.pick([5, 10, 15, 20]) } : { type: 'fixed', valueInCents: s.int(5, 50) * 100 },
		redeemedAt: redeemed ? seedDate(sim, 500, 600) : null,
		createdAt,
		_businessId: businessId,
	};
}

/** Adds an available voucher with a known code (the demo's sample code) to a business. */
export function addVoucher(sim: Simulator, businessId: string, code: string): JsonObject {
	const voucher: JsonObject = {
		id: sim.state.id(),
		code,
		status: 'available',
		discount: { type: 'percentage', percentage: 10 },
		redeemedAt: null,
		createdAt: sim.state.clock.iso(),
		_businessId: businessId,
	};
	sim.state.col('vouchers').push(voucher);
	return voucher;
}

export function vouchersOf(sim: Simulator, businessId: string): JsonObject[] {
	return ofBusiness(sim.state.col('vouchers'), businessId);
}

export const simModule: SimModule = {
	seed(sim) {
		seedRecords(sim, 'vouchers', (businessId, n) => makeVoucher(sim, businessId, n), 40);
	},
	routes(router, sim) {
		const own = (id: string, businessId: string | undefined): JsonObject => {
			const voucher = sim.state.col('vouchers').find((v) => v.id === id && v._businessId === businessId);
			if (!voucher) throw new SimError(404, 'Voucher not found');
			return voucher;
		};

		router.add('GET', '/vouchers/voucher-code/:code', 'keys+biz', (ctx) => {
			const code = ctx.params.code.trim().toUpperCase();
			const voucher = vouchersOf(sim, ctx.businessId!).find((v) => String(v.code).toUpperCase() === code);
			if (!voucher) throw new SimError(404, 'Voucher not found');
			return { data: { voucher: publicView(voucher) } };
		});

		router.add('PATCH', '/vouchers/redeem/:voucherId', 'keys+biz', (ctx) => {
			const voucher = own(ctx.params.voucherId, ctx.businessId);
			if (voucher.status === 'redeemed') throw new SimError(409, 'Voucher already redeemed');
			voucher.status = 'redeemed';
			voucher.redeemedAt = sim.state.clock.iso();
			return { data: { voucher: publicView(voucher) } };
		});

		router.add('PATCH', '/vouchers/cancel-redeem/:voucherId', 'keys+biz', (ctx) => {
			const voucher = own(ctx.params.voucherId, ctx.businessId);
			if (voucher.status !== 'redeemed' || typeof voucher.redeemedAt !== 'string') {
				throw new SimError(409, 'Voucher is not redeemed');
			}
			if (sim.state.clock.now() - Date.parse(voucher.redeemedAt) > CANCEL_WINDOW_MS) {
				throw new SimError(422, 'The redemption can only be cancelled within 15 minutes after it was made');
			}
			voucher.status = 'available';
			voucher.redeemedAt = null;
			return { data: { voucher: publicView(voucher) } };
		});
	},
};
