/* eslint-disable @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Control routes of the hostile paging modes and the rate limiter, for tests and benchmarks
 * that drive the simulator from another process (see paging.ts and rate-limit.ts):
 * - `POST /__sim/paging` (a PagingRule), `GET /__sim/paging`, `DELETE /__sim/paging`;
 * - `POST /__sim/rate-limit` ({ ratePerSecond, burst?, path? }), `GET /__sim/rate-limit`
 *   (the rule and the requests allowed and limited since it was set), `DELETE /__sim/rate-limit`;
 * - `GET /__sim/in-flight` ({ inFlight, maxInFlight }), `DELETE /__sim/in-flight` (resets the maximum).
 */
import { SimError } from '../core';
import type { PagingRule } from '../paging';
import type { RateLimitRule } from '../rate-limit';
import type { SimModule } from '../server';

function refuse(work: () => void): void {
	try {
		work();
	} catch (error) {
		throw new SimError(400, (error as Error).message);
	}
}

export const simModule: SimModule = {
	routes(router, sim) {
		router.add('POST', '/__sim/paging', 'none', (ctx) => {
			refuse(() => sim.paging.add(ctx.body as PagingRule));
			return { raw: { added: true } };
		});
		router.add('GET', '/__sim/paging', 'none', () => ({ raw: { rules: sim.paging.list() } }));
		router.add('DELETE', '/__sim/paging', 'none', () => {
			sim.paging.clear();
			return { raw: { cleared: true } };
		});
		router.add('POST', '/__sim/rate-limit', 'none', (ctx) => {
			refuse(() => sim.rateLimit.set(ctx.body as RateLimitRule));
			return { raw: sim.rateLimit.stats() };
		});
		router.add('GET', '/__sim/rate-limit', 'none', () => ({ raw: sim.rateLimit.stats() }));
		router.add('DELETE', '/__sim/rate-limit', 'none', () => {
			sim.rateLimit.clear();
			return { raw: { cleared: true } };
		});
		router.add('GET', '/__sim/in-flight', 'none', () => ({ raw: { inFlight: sim.inFlight, maxInFlight: sim.maxInFlight } }));
		router.add('DELETE', '/__sim/in-flight', 'none', () => {
			sim.resetInFlight();
			return { raw: { reset: true } };
		});
	},
};
