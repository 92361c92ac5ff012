/* eslint-disable @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Control routes under /__sim for tests and the demo that run n8n in another process:
 * recorded requests, fault rules, the clock. They need no credentials and are never part
 * of the platform API.
 */
import { SimError } from '../core';
import type { FaultRule } from '../faults';
import type { SimModule } from '../server';

export const simModule: SimModule = {
	routes(router, sim) {
		router.add('GET', '/__sim/requests', 'none', () => ({ raw: sim.apiRequests }));
		router.add('DELETE', '/__sim/requests', 'none', () => {
			sim.clearRequests();
			return { raw: { cleared: true } };
		});
		router.add('POST', '/__sim/faults', 'none', (ctx) => {
			try {
				sim.addFault(ctx.body as FaultRule);
			} catch (error) {
				throw new SimError(400, (error as Error).message);
			}
			return { raw: { added: true } };
		});
		router.add('GET', '/__sim/faults', 'none', () => ({ raw: { rules: sim.faults.list(), counts: sim.faults.counts } }));
		router.add('DELETE', '/__sim/faults', 'none', () => {
			sim.faults.clear();
			return { raw: { cleared: true } };
		});
		router.add('POST', '/__sim/clock/advance', 'none', (ctx) => {
			sim.state.clock.advance(Number((ctx.body as { ms?: number })?.ms ?? 0));
			return { raw: { now: sim.state.clock.iso() } };
		});
		router.add('GET', '/__sim/events', 'none', () => ({ raw: sim.state.events }));
		router.add('GET', '/__sim/credentials', 'none', () => ({ raw: sim.credentials }));
		// A catch-all receiver for workflows that "send a summary to a webhook" in the demo.
		router.add('POST', '/__sim/inbox', 'none', (ctx) => {
			sim.state.col('inbox').push({ receivedAt: sim.state.clock.iso(), body: (ctx.body ?? null) as never });
			return { raw: { received: true } };
		});
		router.add('GET', '/__sim/inbox', 'none', () => ({ raw: sim.state.col('inbox') }));
	},
};
