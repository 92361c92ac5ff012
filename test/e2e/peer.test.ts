/**
 * The workflows of the bench's peer rows (test/support/bench/peer-workflows.ts, issue 40) in a real
 * n8n 2.8.4, on a short list, through the bench's own runner (peer-run.ts) but in one n8n: HTTP
 * Request v4.4's Pagination with this API's completion expression ends, and HTTP Request + Split Out
 * (+ Convert to File to CSV and XLSX) outputs every movement once, in the platform's order, as the
 * package's Get Many does (items, CSV File, Excel File); with n8n's default *Complete When: Response
 * Is Empty* it never ends on its own, which is why the bench's workflow has the expression. Timed
 * nothing: the bench measures (npm run bench -- --only peer).
 */
import { listed } from '../support/helpers/reads';
import { N8nInstance } from '../support/n8n-process';
import { addMovements } from '../support/simulator/routes/financials';
import type { Simulator } from '../support/simulator/server';
import { startSimulator } from '../support/simulator/server';
import type { PeerRun } from '../support/bench/peer-run';
import { PeerSetup, RecordDigest } from '../support/bench/peer-run';
import type { PeerContender } from '../support/bench/peer-workflows';
import { PEER_CONTENDERS } from '../support/bench/peer-workflows';
import { toStderr } from '../support/progress';
import { INSTALL_TIMEOUT, teardown } from './setup';

/** 5 pages of 100, the last one short (450), then a sixth full one (600): both ends of the expression. */
const PAGE_SIZE = 100;
const NEVER_ENDS: PeerContender = { id: 'http-default-end', client: 'httpRequest', output: 'items', label: 'HTTP Request, Complete When: Response Is Empty', completeWhen: 'responseIsEmpty' };

let sim: Simulator;
let n8n: N8nInstance;
let setup: PeerSetup;

beforeAll(async () => {
	sim = await startSimulator();
	n8n = new N8nInstance();
	setup = await PeerSetup.prepare(n8n, sim, { log: toStderr, pageSize: PAGE_SIZE, timeoutSeconds: 120, freshProcessPerRun: false, contenders: [...PEER_CONTENDERS, NEVER_ENDS] });
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await teardown({ n8n, sim });
}, 60_000);

/** Grows the primary business' movements to `total`; returns what every output must hold. */
function grow(total: number): ReturnType<RecordDigest['result']> {
	const { businessId } = sim.credentials;
	const missing = total - listed(sim, 'movements').length;
	if (missing < 0) throw new Error(`the simulator already holds more than ${total} movements`);
	addMovements(sim, businessId, missing);
	const expected = new RecordDigest();
	for (const m of listed(sim, 'movements')) expected.add(m.id, m.valueInCents);
	return expected.result();
}

const essentials = (r: PeerRun) => ({ error: r.error, status: r.status, requests: r.requests, refusals: r.refusals, records: r.records, digest: r.digest, valueSum: r.valueSum });

describe.each([
	[450, 5],
	[600, 7],
])('the peer workflows in real n8n 2.8.4: %i movements at 100 a page', (total, httpRequests) => {
	let expected: ReturnType<RecordDigest['result']>;
	beforeAll(() => {
		expected = grow(total);
	});

	it.each(PEER_CONTENDERS.map((c) => [c.label, c] as const))('%s outputs every movement once, in order', async (_, c) => {
		const run = await setup.run(c, 120_000);
		// HTTP Request stops at the first page shorter than the limit: after 600, an empty seventh one.
		// The package reads the number of pages the first one announces.
		expect(essentials(run)).toEqual({ ...expected, error: undefined, status: 'success', requests: c.client === 'httpRequest' ? httpRequests : Math.ceil(total / PAGE_SIZE), refusals: {} });
		if (c.output !== 'items') expect(run.fileBytes).toBeGreaterThan(0);
	}, 180_000);
});

it("with n8n's default Complete When (Response Is Empty) HTTP Request never ends on this API: n8n stops it at the fifth identical empty page, with an error", async () => {
	grow(600);
	const run = await setup.run(NEVER_ENDS, 120_000);
	// 600 movements: 6 full pages, then empty pages 7 to 11 (the body, an object, is never "empty"),
	// until n8n's guard against a loop sees the same answer 5 times.
	expect({ status: run.status, requests: run.requests }).toEqual({ status: 'error', requests: 11 });
	expect(run.error).toContain('The returned response was identical 5x');
}, 180_000);
