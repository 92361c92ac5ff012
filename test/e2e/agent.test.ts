/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The node as an AI agent's tool in real n8n 2.8.4 (docs/ai-agents.md): an AI Agent whose OpenAI
 * Chat Model's Base URL is a scripted OpenAI-compatible server (test/support/chat-model.ts), which
 * calls the Sales & Payments Tool nodes as a model would and records what n8n sent it: the tools
 * with their descriptions, and each tool's answer as the model reads it. The example agent
 * workflow runs as shipped at the end.
 */
import path from 'node:path';

import type { ChatModelServer } from '../support/chat-model';
import { startChatModel } from '../support/chat-model';
import { DATA_CREDENTIAL_ID, EXAMPLES_DIR } from '../support/demo';
import { figuresOnFailure } from '../support/helpers/figures';
import { baselineParameters, listOperations } from '../support/helpers/operations';
import { nodeOutput } from '../support/n8n-process';
import { addMovements } from '../support/simulator/routes/financials';
import { ordersOf } from '../support/simulator/routes/orders';
import { identityUrl, PLAIN_USER } from '../support/simulator/routes/identity';
import { addVoucher } from '../support/simulator/routes/vouchers';
import type { E2eSession } from './setup';
import { closeSession, dataCredential, INSTALL_TIMEOUT, openSession } from './setup';

/** The example's chat-model credential (its sticky note says to add one); here it points at the scripted model. */
const EXAMPLE_CHAT_CREDENTIAL_ID = 'spExampleOpenAi';
const EXAMPLE_ID = 'spExampleAgent';
/** One or two runs of an agent (about 20 s each as `n8n execute`, on a quiet machine; more under load). */
const TEST_TIMEOUT = 240_000;
const MONTH = { initialDate: '2031-03-01T00:00:00Z', endDate: '2031-03-31T23:59:59Z' };

let ctx: E2eSession;
let model: ChatModelServer;

interface ToolNode {
	name: string;
	parameters: Record<string, unknown>;
	onErrorContinue?: boolean;
	identity?: boolean;
}

let ids = 0;

/** Manual Trigger -> AI Agent (v3) with the OpenAI Chat Model (v1.2: Chat Completions) and the given Sales & Payments Tool nodes. */
function agentWorkflow(id: string, tools: ToolNode[]) {
	const node = (name: string, type: string, typeVersion: number, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
		id: `ag${++ids}`,
		name,
		type,
		typeVersion,
		position: [ids * 120, 0],
		parameters,
		...extra,
	});
	return {
		id,
		name: `e2e ${id}`,
		active: false,
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
			node('Agent', '@n8n/n8n-nodes-langchain.agent', 3, { promptType: 'define', text: 'Help the finance team.', options: {} }),
			node(
				'Chat Model',
				'@n8n/n8n-nodes-langchain.lmChatOpenAi',
				1.2,
				{ model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: { maxRetries: 0 } },
				{ credentials: { openAiApi: { id: 'chatModel', name: 'Scripted model' } } },
			),
			...tools.map((t) =>
				node(t.name, 'n8n-nodes-sales-payments.salesPaymentsTool', 1, t.parameters, {
					credentials: t.identity
						? { salesPaymentsIdentityApi: { id: 'spIdentity', name: 'Identity' } }
						: { salesPaymentsApi: { id: 'spGood', name: 'Sales & Payments spGood' } },
					...(t.onErrorContinue ? { onError: 'continueRegularOutput' } : {}),
				}),
			),
		],
		connections: {
			Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
			'Chat Model': { ai_languageModel: [[{ node: 'Agent', type: 'ai_languageModel', index: 0 }]] },
			...Object.fromEntries(tools.map((t) => [t.name, { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] }])),
		},
		settings: { executionOrder: 'v1' },
	};
}

const getOrder: ToolNode = {
	name: 'Get Order',
	parameters: { resource: 'order', operation: 'get', orderId: "={{ $fromAI('orderId', 'The ID of the order', 'string') }}" },
	onErrorContinue: true,
};

/** Operations that say they cannot be undone or act for real, and the text n8n must send for each. */
const WARNED = ['customer.delete', 'identity.refreshToken', 'order.createCharge', 'paymentLink.delete', 'pixel.delete', 'voucher.cancelRedemption', 'voucher.redeem', 'webhook.delete', 'webhook.flush', 'webhook.resume'];

function warnedTools(): ToolNode[] {
	return listOperations()
		.filter((op) => WARNED.includes(op.key))
		.map((op) => ({ name: `Tool ${op.key.replace('.', ' ')}`, parameters: baselineParameters(op) as Record<string, unknown>, identity: op.identity }));
}

/** The movements of MONTH the list tools read (300 of them), and paid sales this month for the example. */
function seedData(): void {
	const { businessId } = ctx.sim.credentials;
	addMovements(ctx.sim, businessId, 300, { from: '2031-03-01T00:00:00.000Z', to: '2031-04-01T00:00:00.000Z' });
	const sales = ctx.sim.state.col('sales');
	const model = sales.find((s) => s._businessId === businessId)!;
	for (const n of [1, 2, 3]) sales.push({ ...model, id: `agent-sale-${n}`, status: 'paid', createdAt: new Date(Date.now() - n * 60_000).toISOString() });
	addVoucher(ctx.sim, businessId, 'AGENT-SAMPLE');
}

beforeAll(async () => {
	ctx = await openSession();
	model = await startChatModel();
	seedData();
	await ctx.session.addCredentials([
		dataCredential(ctx.sim, 'spGood'),
		{ ...dataCredential(ctx.sim, DATA_CREDENTIAL_ID), name: 'Sales & Payments (simulator)' },
		{
			id: 'spIdentity',
			name: 'Identity',
			type: 'salesPaymentsIdentityApi',
			data: { identityUrl: identityUrl(ctx.sim), username: PLAIN_USER.username, password: PLAIN_USER.password, fingerprint: 'n8n-e2e-agent' },
		},
		{ id: 'chatModel', name: 'Scripted model', type: 'openAiApi', data: { apiKey: 'sk-e2e-scripted', url: model.url } },
		{ id: EXAMPLE_CHAT_CREDENTIAL_ID, name: 'OpenAI', type: 'openAiApi', data: { apiKey: 'sk-e2e-scripted', url: model.url } },
	]);
	await ctx.session.addWorkflows([
		agentWorkflow('wfAgentRead', [getOrder]),
		agentWorkflow('wfAgentList', [
			{ name: 'Movements', parameters: { resource: 'movement', operation: 'getMany', returnAll: true, filters: MONTH } },
			{
				name: 'Some Movements',
				parameters: { resource: 'movement', operation: 'getMany', limit: "={{ $fromAI('limit', 'How many movements, 1 to 100', 'number') }}", filters: MONTH },
				onErrorContinue: true,
			},
		]),
		agentWorkflow('wfAgentWarnings', warnedTools()),
		agentWorkflow('wfAgentFails', [{ ...getOrder, onErrorContinue: false }]),
	]);
	await ctx.session.addWorkflowFiles([path.join(EXAMPLES_DIR, '6-agent-sales-assistant.json')]);
}, INSTALL_TIMEOUT);

afterAll(async () => {
	await model?.close();
	await closeSession(ctx);
}, 60_000);

const anOrder = () => ordersOf(ctx.sim, ctx.sim.credentials.businessId)[0];

describe('an AI Agent with the Sales & Payments Tool in real n8n 2.8.4', () => {
	it('a read round-trips: the model calls Get Order, n8n runs the tool and hands the order back', async () => {
		const order = anOrder();
		model.script([{ toolCalls: [{ name: 'Get_Order', args: { orderId: order.id } }] }, { text: 'The order is paid.' }]);
		const run = await ctx.session.runOk('wfAgentRead');
		expect(nodeOutput(run, 'Agent')).toEqual([{ output: 'The order is paid.' }]);
		const [tool] = model.requests[0].tools;
		expect(tool.function.name).toBe('Get_Order');
		expect(tool.function.description).toBe('Get an order in Sales & Payments');
		expect(Object.keys((tool.function.parameters as { properties: object }).properties)).toEqual(['orderId']);
		const [answer] = model.toolAnswers();
		expect(JSON.parse(answer)).toEqual([expect.objectContaining({ id: order.id, status: order.status })]);
	}, TEST_TIMEOUT);

	it('a Get Many as a tool gives the model at most Limit records and says more match; a Limit above 100 is an error it can fix', async () => {
		model.script([
			{ toolCalls: [{ name: 'Movements', args: {} }] },
			{ toolCalls: [{ name: 'Some_Movements', args: { limit: 500 } }] },
			{ toolCalls: [{ name: 'Some_Movements', args: { limit: 5 } }] },
			{ text: 'Here they are.' },
		]);
		await ctx.session.runOk('wfAgentList');
		const [all, tooMany, five] = model.toolAnswers();
		const records = JSON.parse(all) as Array<Record<string, unknown>>;
		figuresOnFailure('agent e2e: characters the model received for the 300-movement list', { chars: all.length, records: records.length }, () => {
			// Return All set in the tool: 20 movements of the month's 300, then the note.
			expect(records).toHaveLength(21);
			expect(Object.keys(records[0])).toEqual(['id', 'type', 'value', 'description', 'referenceId', 'createdAt']);
			expect(records[20]).toEqual({ moreRecords: true, note: 'Only the first 20 records are shown: more match. Narrow the filters, or raise Limit (at most 100).' });
			expect(all.length).toBeLessThan(6000);
			expect(JSON.parse(tooMany)).toEqual([{ error: "Limit must be a whole number from 1 to 100 when the node is an AI agent's tool (got 500): ask for fewer records, or narrow the filters" }]);
			expect(JSON.parse(five)).toHaveLength(6);
		});
	}, TEST_TIMEOUT);

	it('every warning reaches the model: the tool descriptions n8n sends carry each one', async () => {
		model.script([{ text: 'Nothing to do.' }]);
		await ctx.session.runOk('wfAgentWarnings');
		const sent = Object.fromEntries(model.requests[0].tools.map((t) => [t.function.name, t.function.description]));
		expect(Object.keys(sent)).toHaveLength(WARNED.length);
		for (const key of WARNED) {
			const description = sent[`Tool_${key.replace('.', '_')}`];
			expect({ key, description, warns: /cannot be undone|for real/.test(description ?? '') }).toEqual({ key, description, warns: true });
		}
		expect(sent.Tool_webhook_delete).toBe('Delete a webhook permanently (cannot be undone) in Sales & Payments');
	}, TEST_TIMEOUT);

	it('with On Error: Continue, a bad ID\'s error reaches the model, and it then succeeds with a good one', async () => {
		const order = anOrder();
		model.script([
			{ toolCalls: [{ name: 'Get_Order', args: { orderId: 'no-such-order' } }] },
			{ toolCalls: [{ name: 'Get_Order', args: { orderId: order.id } }] },
			{ text: 'Found it.' },
		]);
		const run = await ctx.session.runOk('wfAgentRead');
		expect(nodeOutput(run, 'Agent')).toEqual([{ output: 'Found it.' }]);
		const [bad, good] = model.toolAnswers();
		expect(JSON.parse(bad)).toEqual([expect.objectContaining({ error: expect.stringMatching(/not found|no order/i) as unknown })]);
		expect(bad).toContain("No order with this ID exists in the credential's business.");
		expect(JSON.parse(good)).toEqual([expect.objectContaining({ id: order.id })]);
	}, TEST_TIMEOUT);

	it("without it, n8n ends the agent's run at the tool's error and the model never sees it (n8n's behaviour, as the README says)", async () => {
		model.script([{ toolCalls: [{ name: 'Get_Order', args: { orderId: 'no-such-order' } }] }, { text: 'Never asked.' }]);
		const { status } = await ctx.session.run('wfAgentFails');
		expect(status).toBe('error');
		expect(model.requests).toHaveLength(1);
	}, TEST_TIMEOUT);
});

describe('the example agent workflow as shipped', () => {
	it('answers from the three tools: an order, this month\'s paid sales, a voucher', async () => {
		const order = anOrder();
		model.script([
			{
				toolCalls: [
					{ name: 'Get_an_order', args: { orderId: order.id } },
					{ name: 'Paid_sales_this_month', args: {} },
					{ name: 'Look_up_a_voucher', args: { code: 'AGENT-SAMPLE' } },
				],
			},
			{ text: 'All three answered.' },
		]);
		const run = await ctx.session.runOk(EXAMPLE_ID);
		expect(nodeOutput(run, 'AI Agent')).toEqual([{ output: 'All three answered.' }]);
		const names = model.requests[0].tools.map((t) => t.function.name).sort();
		expect(names).toEqual(['Get_an_order', 'Look_up_a_voucher', 'Paid_sales_this_month']);
		const [orderAnswer, sales, voucher] = model.toolAnswers().map((a) => JSON.parse(a) as Array<Record<string, unknown>>);
		expect(orderAnswer[0]).toMatchObject({ id: order.id });
		expect(sales.length).toBeLessThanOrEqual(21);
		expect(sales.map((s) => s.id)).toEqual(expect.arrayContaining(['agent-sale-1', 'agent-sale-2', 'agent-sale-3']));
		for (const sale of sales.filter((s) => !s.moreRecords)) expect(sale.status).toBe('paid');
		expect(voucher[0]).toMatchObject({ code: 'AGENT-SAMPLE' });
	}, TEST_TIMEOUT);
});
