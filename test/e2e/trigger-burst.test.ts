/**
 * The webhook trigger in a real n8n 2.8.4 (regular mode, sqlite) under what a shop sees at peak:
 * - a burst of 200 distinct order.paid notifications from 20 concurrent senders, every 5th sent
 *   a second time while the first is in flight or right after its 2xx: every notification started
 *   exactly one execution (read from n8n's database), none lost; the bench (burst.ts) runs the
 *   same with 2,000 notifications;
 * - n8n killed (SIGKILL) while "Listen for test event" waits: its test webhook survives at the
 *   platform; the next n8n start keeps it while a listen could still use it (younger than 3
 *   minutes by the platform's clock), and the start after that removes it (the simulator's clock
 *   moved on), leaving the production webhook and its deliveries as they were.
 */
import axios from 'axios';

import type { BurstPlan, BurstTarget } from '../support/bench/burst';
import { BURST_WORKFLOW_ID, executionsPerOrder, runBurst, startBurstN8n } from '../support/bench/burst';
import { DEFAULT_OWNER, waitFor } from '../support/n8n-process';
import type { E2eContext } from './setup';
import { INSTALL_TIMEOUT, prepareN8n, teardown } from './setup';
import { figuresOnFailure } from '../support/helpers/figures';

const WEBHOOK_ID = '5d1c7e2b-8a9f-4b3c-9d2e-6f7a8b9c0d1e';
const TRIGGER = 'Order paid';

let ctx: E2eContext;
let target: BurstTarget;

interface SimWebhook {
	id: string;
	createdAt: string;
	dispatchers: Array<{ url: string }>;
}

async function simWebhooks(): Promise<SimWebhook[]> {
	return (await axios.get(`${ctx.sim.url}/__sim/webhooks`)).data as SimWebhook[];
}

const testUrl = () => `${ctx.n8n.baseUrl}/webhook-test/${WEBHOOK_ID}/webhook`;
const urls = async () => (await simWebhooks()).map((w) => w.dispatchers[0].url).sort();

beforeAll(async () => {
	ctx = await prepareN8n();
	target = await startBurstN8n(ctx.n8n, ctx.sim, WEBHOOK_ID);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await teardown(ctx);
}, 120_000);

describe('the webhook trigger in a real n8n 2.8.4 at peak', () => {
	it('200 notifications from 20 senders, every 5th sent twice while in flight or right after: each ran exactly once', async () => {
		const plan: BurstPlan = { notifications: 200, senders: 20, repeatEvery: 5, kinds: ['inFlight', 'rightAfter'], laterMs: 0 };
		const figures = await runBurst(ctx.n8n, target, plan, ctx.sim.credentials.businessId);
		figuresOnFailure('trigger-burst', figures, () => {
			expect({ statuses: figures.statuses, executions: figures.executions, doubles: figures.doubles, losses: figures.losses }).toEqual({
				statuses: { 200: 240 },
				executions: 200,
				doubles: 0,
				losses: 0,
			});
			expect(figures.repeats).toEqual({ inFlight: 20, rightAfter: 20, later: 0 });
			// The in-flight repeats did overlap their first copy (most of them at least).
			expect(figures.overlapped).toBeGreaterThanOrEqual(10);
		});
	}, 300_000);

	it('n8n killed while listening for a test event: the test webhook is kept while a listen may use it, then removed at the next start', async () => {
		const [production] = await simWebhooks();
		// "Listen for test event" on the trigger, as the editor asks for it.
		expect(await ctx.n8n.listenForTestEvent(BURST_WORKFLOW_ID, TRIGGER)).toBe(true);
		expect(await urls()).toEqual([target.url, testUrl()].sort());
		await ctx.n8n.kill();
		expect(await urls()).toEqual([target.url, testUrl()].sort());

		// n8n starts again at once: the test webhook is a few seconds old (another main could listen on it).
		ctx.sim.clearRequests();
		await ctx.n8n.start();
		await ctx.n8n.login(DEFAULT_OWNER);
		await waitFor('the activation read the webhooks', () => (ctx.sim.requestsTo('GET', /^\/webhooks\/list\//).length > 0 ? true : undefined), 60_000);
		expect(await urls()).toEqual([target.url, testUrl()].sort());
		expect(ctx.sim.requestsTo('DELETE', /^\/webhooks\/delete\//)).toEqual([]);

		// Four minutes later by the platform's clock, n8n starts again: the test webhook goes, production's stays.
		ctx.sim.state.clock.advance(4 * 60_000);
		await ctx.n8n.stop();
		ctx.sim.clearRequests();
		await ctx.n8n.start();
		await ctx.n8n.login(DEFAULT_OWNER);
		await waitFor('the test webhook removed', async () => ((await urls()).length === 1 ? true : undefined), 60_000);
		expect(await simWebhooks()).toEqual([production]);
		expect(ctx.sim.requestsTo('POST', '/webhooks')).toEqual([]);
		expect(ctx.n8n.output.join('')).toContain('deleted test webhook');
		// Production still delivers: one paid order, one execution.
		const before = (await executionsPerOrder(ctx.n8n)).total;
		await axios.post(`${ctx.sim.url}/__sim/orders`, {});
		await ctx.sim.settle();
		await waitFor('a production execution', async () => ((await executionsPerOrder(ctx.n8n)).total > before ? true : undefined), 60_000);
	}, 300_000);
});
