/**
 * The polling trigger in a real n8n 2.8.4: the example workflow "tell the finance team about new
 * refund requests" is active with the shortest poll time n8n accepts, a custom cron firing every
 * second (n8n refuses a `*` in the seconds field, "0-59" passes), and picks up a refund request
 * created on the simulator: one execution, one message in the inbox, never a second one.
 */
import axios from 'axios';

import { DATA_CREDENTIAL_ID, demoExamples } from '../support/demo';
import { waitFor } from '../support/n8n-process';
import type { E2eSession } from './setup';
import { closeSession, dataCredential, INSTALL_TIMEOUT, openSession } from './setup';
import { recordFigures } from '../support/helpers/figures';

const WORKFLOW_ID = 'spExampleRefunds';
const TRIGGER = 'New refund request';
/** Every second: the seconds field may not contain `*` (n8n: "at least a minute"), a range may. */
const EVERY_SECOND = '0-59 * * * * *';

let ctx: E2eSession;

interface InboxMessage {
	body: { channel?: string; refundRequestId?: string; text?: string };
}

async function inbox(): Promise<InboxMessage[]> {
	return (await axios.get(`${ctx.sim.url}/__sim/inbox`)).data as InboxMessage[];
}

beforeAll(async () => {
	ctx = await openSession();
	const { session, sim } = ctx;
	await session.addCredentials([{ ...dataCredential(sim, DATA_CREDENTIAL_ID), name: 'Sales & Payments (simulator)' }]);
	// As the demo has it: the messages go to the simulator's inbox (the example's summaryUrl setting).
	const example = demoExamples(sim, session.filesDir('sp-e2e-poll-')).find(
		(w) => w.id === WORKFLOW_ID,
	) as { nodes: Array<{ name: string; parameters: Record<string, unknown> }> };
	const trigger = example.nodes.find((n) => n.name === TRIGGER)!;
	trigger.parameters.pollTimes = { item: [{ mode: 'custom', cronExpression: EVERY_SECOND }] };
	await session.addWorkflows([example]);
	// Activated in the running n8n, as the editor's toggle does.
	await ctx.n8n.activate(WORKFLOW_ID);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await closeSession(ctx);
}, 60_000);

describe('polling trigger in a real n8n 2.8.4', () => {
	it('an active workflow picks up a refund request created on the simulator, once', async () => {
		const { sim, n8n } = ctx;
		const polls = () => sim.requestsTo('GET', '/order-revert-requests/list');
		// Activation: the baseline poll, then the cron polls every second.
		await waitFor('the activation poll', () => (polls().length > 0 ? true : undefined));
		await waitFor('two scheduled polls', () => (polls().length >= 3 ? true : undefined));
		expect(await n8n.executions(WORKFLOW_ID)).toHaveLength(0);
		const first = polls()[0];
		expect(first.headers['business-id']).toBe(sim.credentials.businessId);
		expect(first.query).toMatchObject({ orderByField: 'createdAt', orderDirection: 'ASC' });

		const created = await axios.post(`${sim.url}/__sim/records/refunds`, { motive: 'Purchased by mistake', valueInCents: 4990 });
		const refund = (created.data as { record: { id: string; createdAt: string } }).record;
		const createdAt = Date.now();

		const execution = await waitFor('the execution for the refund request', async () => {
			const list = await n8n.executions(WORKFLOW_ID);
			return list.length > 0 && !['running', 'new'].includes(list[0].status) ? list[0] : undefined;
		});
		const messages = await waitFor('the message to the finance team', async () => {
			const found = (await inbox()).filter((m) => m.body.refundRequestId === refund.id);
			return found.length ? found : undefined;
		});
		const latencyMs = Date.now() - createdAt;
		recordFigures('polling trigger: refund request to finance message (poll every second)', { latencyMs });
		expect(execution.status).toBe('success');
		expect(messages).toHaveLength(1);
		expect(messages[0].body.channel).toBe('finance');
		const stored = sim.state.col('refunds').find((r) => r.id === refund.id)!;
		expect(messages[0].body.text).toBe(
			`New refund request: 49.90 for ${String(stored.productName)} by ${String(stored.buyerEmail)} (Purchased by mistake)`,
		);

		// Several more polls: the same refund request never starts a second execution.
		const seen = polls().length;
		await waitFor('three more polls', () => (polls().length >= seen + 3 ? true : undefined));
		expect(await n8n.executions(WORKFLOW_ID)).toHaveLength(1);
		expect((await inbox()).filter((m) => m.body.refundRequestId === refund.id)).toHaveLength(1);
		// The cursor was saved with the execution (the workflow's static data in n8n's database).
		const saved = await n8n.rest<{ data: { staticData?: Record<string, { pollState?: { ts?: number } }> } }>(
			'GET',
			`/workflows/${WORKFLOW_ID}`,
		);
		const state = saved.data.data.staticData?.[`node:${TRIGGER}`]?.pollState;
		// The cursor is the record's date, or the poll's clock less one minute when that is earlier (it never
		// passes the poll's clock): here the record is seconds old, so the cursor stands about a minute behind it.
		const createdMs = Date.parse(refund.createdAt);
		expect(state?.ts).toBeLessThanOrEqual(createdMs);
		expect(state?.ts).toBeGreaterThanOrEqual(createdMs - 60_000);
	}, 120_000);
});
