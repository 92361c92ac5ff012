/**
 * Test webhooks a listen left behind never stop production (issue 44, cases 3 and 4), through the
 * harness that calls the hooks as n8n does (a throw is followed by n8n's cleanup `delete`):
 * 3. a refused (403) or failing (5xx after the retries) DELETE of a leftover test webhook is logged
 *    and tried again at the next start or activation; the activation succeeds, and checkExists stays
 *    true for a steady production;
 * 4. the platform's clock is read strictly: a createdAt in ISO 8601 with `Z` or an offset, a Date
 *    header in RFC 7231's form; anything else keeps the webhook (the readers: instants.test.ts).
 */
import { TriggerHarness } from '../support/harness/trigger';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';

const sim = useSimulator();
const SECRET_HEADER = 'x-sp-webhook-secret';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let harnesses: TriggerHarness[] = [];

async function trigger(extra: Partial<Parameters<typeof TriggerHarness.start>[0]> = {}) {
	const h = await TriggerHarness.start({ parameters: { events: ['order.paid'] }, credentials: dataCredentials(sim()), ...extra });
	harnesses.push(h);
	return h;
}

/** Production active, then "Listen for test event" on the same node and n8n killed while listening. */
async function productionAndLeftover() {
	const prod = await trigger();
	await prod.activate();
	const editor = await trigger({ webhookId: prod.node.webhookId, webhookBaseUrl: prod.url().replace(/\/webhook\/.*$/, '/webhook') });
	await editor.activate({ isTest: true });
	const testId = String(editor.testStaticData.webhookId);
	const testSecret = String(editor.testStaticData.webhookSecret);
	editor.testWorkflow = undefined;
	const record = sim().state.col('webhooks').find((w) => w.id === testId) as JsonObject;
	return { prod, testId, testSecret, record };
}

const ids = () => sim().state.col('webhooks').map((w) => String(w.id)).sort();
const deletes = () => sim().requestsTo('DELETE', /^\/webhooks\/delete\//).map((r) => `${r.path} ${r.status}`);
const warnings = (h: TriggerHarness) => h.logs.filter((l) => l.level === 'warn').map((l) => l.message);

async function delivers(h: TriggerHarness): Promise<boolean> {
	const body = { event: 'order.paid', id: `evt_${Math.random()}`, data: { id: 'ord_1', status: 'paid' } };
	const result = await h.deliver({ headers: { [SECRET_HEADER]: String(h.nodeStaticData.webhookSecret) }, body });
	return result.items?.length === 1;
}

beforeEach(() => {
	sim().clearRequests();
	sim().state.col('webhooks').length = 0;
	sim().sendDate = true;
	sim().dateHeader = undefined;
	sim().faults.clear();
});

afterEach(async () => {
	sim().faults.clear();
	sim().dateHeader = undefined;
	await sim().settle();
	for (const h of harnesses) await h.close();
	harnesses = [];
});

describe('case 3: a leftover test webhook never stops production from starting', () => {
	it('its DELETE refused (403): n8n starts with checkExists true, an activation in the editor succeeds; both log it, and the next start deletes it', async () => {
		const { prod, testId, testSecret } = await productionAndLeftover();
		sim().state.clock.advance(10 * MINUTE);
		sim().addFault({ kind: 'status', status: 403, method: 'DELETE', path: `/webhooks/delete/${testId}` });

		// n8n starts: the production webhook is as wanted, so n8n would call no create.
		await prod.restart();
		sim().clearRequests();
		expect(await prod.activate({ activation: 'init' })).toEqual({ existed: true });
		expect(prod.cleanups).toBe(0);
		expect(deletes()).toEqual([`/webhooks/delete/${testId} 403`]);
		expect(warnings(prod)).toEqual([expect.stringContaining(`could not delete test webhook ${testId} (created `)]);
		expect(warnings(prod)[0]).toContain('It stays until the next start or activation of this workflow tries again');
		expect(await delivers(prod)).toBe(true);

		// Deactivated and activated again in the editor: create runs, and succeeds.
		await prod.delete();
		prod.logs.length = 0;
		expect(await prod.activate({ activation: 'activate' })).toEqual({ existed: false });
		const prodId = String(prod.nodeStaticData.webhookId);
		expect(prod.cleanups).toBe(0);
		expect(warnings(prod)).toEqual([expect.stringContaining(`could not delete test webhook ${testId}`)]);
		expect(ids()).toEqual([prodId, testId].sort());
		expect(await delivers(prod)).toBe(true);

		// The platform lets it go: the next start deletes it, and production stays as it was.
		sim().faults.clear();
		await prod.restart();
		prod.logs.length = 0;
		expect(await prod.activate({ activation: 'init' })).toEqual({ existed: true });
		expect(ids()).toEqual([prodId]);
		expect(warnings(prod)).toEqual([expect.stringContaining(`deleted test webhook ${testId}`)]);
		for (const secret of [String(prod.nodeStaticData.webhookSecret), testSecret, sim().credentials.apiSecret]) {
			expect(prod.logs.map((l) => l.message).join('\n')).not.toContain(secret);
		}
	});

	it('its DELETE failing (503 after the retries): the activation succeeds and says so', async () => {
		const { prod, testId } = await productionAndLeftover();
		sim().state.clock.advance(10 * MINUTE);
		sim().addFault({ kind: 'status', status: 503, method: 'DELETE', path: `/webhooks/delete/${testId}` });
		await prod.restart();
		sim().clearRequests();
		expect(await prod.activate({ activation: 'init' })).toEqual({ existed: true });
		expect(prod.cleanups).toBe(0);
		expect(deletes().length).toBeGreaterThan(1);
		expect(deletes().every((line) => line.endsWith(' 503'))).toBe(true);
		expect(warnings(prod)).toEqual([expect.stringContaining(`could not delete test webhook ${testId}`)]);
		expect(await delivers(prod)).toBe(true);
	});
});

describe("case 4: the platform's clock, read strictly", () => {
	it('a createdAt without a zone (a platform writing its local time), a date alone, or a Date header not in RFC 7231 form keeps the webhook; an offset is read', async () => {
		const { prod, testId, record } = await productionAndLeftover();
		let now = sim().state.clock.now();
		const start = async () => {
			await prod.restart();
			sim().clearRequests();
			expect(await prod.activate({ activation: 'init' })).toEqual({ existed: true });
			return deletes();
		};

		// São Paulo's wall time (UTC-3) without a zone, 30 s ago: read in n8n's zone it looks hours old.
		record.createdAt = new Date(now - 30_000 - 3 * HOUR).toISOString().replace('Z', '');
		expect(await start()).toEqual([]);
		// A date alone, of a day that began over 3 minutes ago.
		sim().state.clock.advance(10 * MINUTE);
		now = sim().state.clock.now();
		record.createdAt = new Date(now - 10 * MINUTE).toISOString().slice(0, 10);
		expect(await start()).toEqual([]);
		// A Date header in the platform's local time without GMT (Tokyo, UTC+9), createdAt 30 s ago in UTC.
		record.createdAt = new Date(now - 30_000).toISOString();
		sim().dateHeader = (ms) => new Date(ms + 9 * HOUR).toUTCString().replace(' GMT', '');
		expect(await start()).toEqual([]);
		sim().dateHeader = (ms) => new Date(ms).toISOString();
		expect(await start()).toEqual([]);
		expect(ids()).toContain(testId);

		// With RFC 7231's Date header, an offset is read: 30 s old in Tokyo's time is kept, 10 minutes old goes.
		sim().dateHeader = undefined;
		const tokyo = (ms: number) => `${new Date(ms + 9 * HOUR).toISOString().replace('Z', '')}+09:00`;
		record.createdAt = tokyo(now - 30_000);
		expect(await start()).toEqual([]);
		sim().state.clock.advance(10 * MINUTE);
		expect(await start()).toEqual([`/webhooks/delete/${testId} 200`]);
		expect(ids()).not.toContain(testId);
	});
});
