/**
 * The node as an AI agent's tool (docs/ai-agents.md), in-process: n8n's tool type of the node
 * (`salesPaymentsTool`, made as n8n makes it: test/support/harness/n8n-core.ts asAiTool) run
 * through WorkflowExecute as the AI Agent v3 runs a tool, its parameters `$fromAI` read from the
 * input item as n8n reads them. The real agent, chat model and n8n: test/e2e/agent.test.ts.
 */
import type { IDataObject, INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { runsAsTool, TOOL_DEFAULT_LIMIT, TOOL_MAX_LIMIT } from '../../nodes/SalesPayments/fields/tool';
import { ACTION_TYPE, loadPackage, runNode, TOOL_TYPE } from '../support/harness/n8n-core';
import type { RunResult } from '../support/harness/n8n-core';
import { figuresOnFailure } from '../support/helpers/figures';
import { nodeDescription } from '../support/helpers/operations';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import { addMovements } from '../support/simulator/routes/financials';

const sim = useSimulator({ size: 250 });

beforeEach(() => sim().clearRequests());

/** Runs the action node, or its tool (`asTool`), on one input item (a tool's: the model's arguments). */
async function run(parameters: INodeParameters, o: { asTool?: boolean; input?: IDataObject; continueOnFail?: boolean } = {}): Promise<RunResult> {
	return await runNode(
		{ type: o.asTool ? TOOL_TYPE : ACTION_TYPE, parameters, continueOnFail: o.continueOnFail },
		{ credentials: dataCredentials(sim()), input: [{ json: o.input ?? {} }] },
	);
}

const jsonOf = (result: RunResult) => result.items.map((item) => item.json);
/** What a model receives of a tool's answer: n8n sends the items' JSON as one JSON text (n8n-core, langchain buildSteps). */
const sent = (result: RunResult) => JSON.stringify(jsonOf(result));

interface ListCase {
	resource: string;
	params?: () => INodeParameters;
	/** The fields an agent reads, in order: a record's own, or money from `<name>InCents`, or lifted (`lifted`). */
	fields: string[];
	lifted?: Record<string, string>;
}

/** The product whose offers Offer › Get Many lists (the one with the most offers). */
function productWithOffers(): string {
	const { businessId } = sim().credentials;
	const counts = new Map<string, number>();
	for (const offer of sim().state.col('offers')) if (offer._businessId === businessId) counts.set(String(offer.productId), (counts.get(String(offer.productId)) ?? 0) + 1);
	return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

const LISTS: ListCase[] = [
	{ resource: 'business', fields: ['id', 'name', 'createdAt'] },
	{ resource: 'commission', fields: ['id', 'orderId', 'status', 'value', 'commissionedName', 'role', 'productName', 'createdAt', 'releaseAt'] },
	{ resource: 'customer', fields: ['id', 'name', 'email', 'createdAt'] },
	{ resource: 'movement', fields: ['id', 'type', 'value', 'description', 'referenceId', 'createdAt'] },
	{
		resource: 'offer',
		params: () => ({ productId: { __rl: true, mode: 'id', value: productWithOffers() } }),
		fields: ['id', 'name', 'status', 'value', 'paymentMethods', 'maxInstallments'],
	},
	{ resource: 'paymentLink', fields: ['id', 'name', 'status', 'value', 'url', 'salesCount', 'createdAt'] },
	{ resource: 'pixel', fields: ['id', 'name', 'platform', 'pixelId'] },
	{ resource: 'product', fields: ['id', 'name', 'type', 'status', 'price', 'createdAt'] },
	{ resource: 'refund', fields: ['id', 'orderId', 'status', 'value', 'buyerEmail', 'productName', 'motive', 'requestAt'] },
	{
		resource: 'sale',
		fields: ['id', 'orderId', 'status', 'value', 'paymentMethod', 'customerName', 'productName', 'createdAt', 'paidAt'],
		lifted: { customerName: 'customer.name', productName: 'product.name' },
	},
	{
		resource: 'subscription',
		fields: ['id', 'name', 'status', 'customerEmail', 'productName', 'recurrenceValue', 'periodicity', 'nextPayment', 'createdAt'],
		lifted: { customerEmail: 'customer.email', productName: 'orderItem.product.name' },
	},
	{ resource: 'webhook', fields: ['id', 'name', 'status', 'events', 'createdAt'] },
	{ resource: 'withdrawRequest', fields: ['id', 'status', 'value', 'fee', 'netValue', 'createdAt'] },
];

function at(record: IDataObject, path: string): unknown {
	return path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as IDataObject)[key] : undefined), record);
}

/** A record as the test expects an agent to read it, from the raw record (written out here, not taken from the node). */
function expectedForModel(raw: IDataObject, c: ListCase): IDataObject {
	const out: IDataObject = {};
	for (const key of c.fields) {
		const lifted = c.lifted?.[key];
		if (lifted !== undefined) {
			if (at(raw, lifted) !== undefined) out[key] = at(raw, lifted) as string;
		} else if (key in raw) out[key] = raw[key];
		else if (typeof raw[`${key}InCents`] === 'number') out[key] = Math.round(raw[`${key}InCents`] as number) / 100;
	}
	return out;
}

beforeAll(async () => {
	// Webhooks are not seeded: register a few, as a user would.
	for (const n of [1, 2, 3]) {
		const created = await run({
			resource: 'webhook',
			operation: 'create',
			name: `Agent test ${n}`,
			events: ['order.paid'],
			dispatchers: { http: [{ url: `https://hooks.example.com/${n}`, method: 'POST' }] },
		});
		expect(created.error).toBeUndefined();
	}
});

describe('how the node knows it runs as a tool', () => {
	it("reads n8n's own mark of a tool: its @tool display condition and isToolType agree on every type", async () => {
		const { nodeTypes } = await loadPackage();
		const tool = nodeTypes.getByNameAndVersion(TOOL_TYPE, 1).description;
		const action = nodeTypes.getByNameAndVersion(ACTION_TYPE, 1).description;
		const onlyTool: INodeProperties = { displayName: 'x', name: 'x', type: 'string', default: '', displayOptions: { show: { '@tool': [true] } } };
		const node = (type: string) => ({ type, typeVersion: 1, parameters: {} }) as unknown as INode;
		expect(NodeHelpers.displayParameter({}, onlyTool, node(TOOL_TYPE), tool)).toBe(true);
		expect(NodeHelpers.displayParameter({}, onlyTool, node(ACTION_TYPE), action)).toBe(false);
		for (const type of [TOOL_TYPE, ACTION_TYPE, 'CUSTOM.salesPaymentsTool', 'n8n-nodes-sales-payments.salesPaymentsTrigger', 'salesPaymentsTool']) {
			expect({ type, ours: runsAsTool({ getNode: () => node(type) }) }).toEqual({ type, ours: NodeHelpers.isToolType(type) });
		}
	});

	it("shows a tool the tool's Limit (default 20, at most 100) and Simplify, and hides Return All; the action node's fields are as before", async () => {
		const { nodeTypes } = await loadPackage();
		const defaults = (type: string, resource: string) => {
			const description = nodeTypes.getByNameAndVersion(type, 1).description as INodeTypeDescription;
			const node = { type, typeVersion: 1, parameters: { resource, operation: 'getMany' } } as unknown as INode;
			return NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node, description) as IDataObject;
		};
		for (const { resource } of LISTS) {
			const action = defaults(ACTION_TYPE, resource);
			expect({ resource, returnAll: action.returnAll, limit: action.limit, simplify: action.simplify }).toEqual({
				resource,
				returnAll: false,
				limit: 50,
				// Refunds and subscriptions have had Simplify (on) for people too.
				simplify: ['refund', 'subscription'].includes(resource) ? true : undefined,
			});
			const tool = defaults(TOOL_TYPE, resource);
			expect({ resource, returnAll: tool.returnAll, limit: tool.limit, simplify: tool.simplify }).toEqual({
				resource,
				returnAll: undefined,
				limit: TOOL_DEFAULT_LIMIT,
				simplify: true,
			});
			// A tool writing a file reads its whole list as ever.
			const fileTool = NodeHelpers.getNodeParameters(
				nodeTypes.getByNameAndVersion(TOOL_TYPE, 1).description.properties,
				{ resource, operation: 'getMany', output: 'csvFile' },
				true,
				false,
				{ type: TOOL_TYPE, typeVersion: 1, parameters: {} } as unknown as INode,
				nodeTypes.getByNameAndVersion(TOOL_TYPE, 1).description,
			) as IDataObject;
			expect({ resource, returnAll: fileTool.returnAll, limit: fileTool.limit }).toEqual({ resource, returnAll: false, limit: 50 });
		}
		expect(TOOL_DEFAULT_LIMIT).toBe(20);
		expect(TOOL_MAX_LIMIT).toBe(100);
	});
});

describe.each(LISTS.map((c) => [c.resource, c] as const))('%s › Get Many as a tool', (_resource, c) => {
	let raw: IDataObject[];
	const params = () => ({ resource: c.resource, operation: 'getMany', ...(c.params?.() ?? {}) }) as INodeParameters;

	beforeAll(async () => {
		// The whole list as the action node gives it, every field (Simplify off where it has one).
		const all = await run({ ...params(), returnAll: true, simplify: false });
		expect(all.error).toBeUndefined();
		raw = jsonOf(all);
		expect(raw.length).toBeGreaterThanOrEqual(3);
	});

	it('gives at most 20 records, each the fields a person reads, amounts as money; says so when more match', async () => {
		const result = await run(params(), { asTool: true });
		expect(result.error).toBeUndefined();
		const shown = Math.min(raw.length, TOOL_DEFAULT_LIMIT);
		const records = jsonOf(result).slice(0, shown);
		expect(records).toEqual(raw.slice(0, shown).map((r) => expectedForModel(r, c)));
		for (const record of records) expect(Object.keys(record).every((key) => c.fields.includes(key))).toBe(true);
		const note = jsonOf(result).slice(shown);
		if (raw.length > TOOL_DEFAULT_LIMIT) {
			expect(note).toEqual([{ moreRecords: true, note: `Only the first 20 records are shown: more match. Narrow the filters, or raise Limit (at most 100).` }]);
		} else expect(note).toEqual([]);
		// One record more than it gives, to know whether more match.
		expect(sim().apiRequests.map((r) => r.query.limit)).toEqual([String(Math.min(TOOL_DEFAULT_LIMIT + 1, 1000))]);
	});

	it('takes the Limit the model sets ($fromAI), and Simplify off gives every field', async () => {
		const result = await run({ ...params(), limit: "={{ $fromAI('limit', 'How many records', 'number') }}", simplify: false }, { asTool: true, input: { limit: 2 } });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			...raw.slice(0, 2),
			{ moreRecords: true, note: 'Only the first 2 records are shown: more match. Narrow the filters, or raise Limit (at most 100).' },
		]);
	});

	it('refuses a Limit above 100 with an error naming the field, before any request', async () => {
		const result = await run({ ...params(), limit: "={{ $fromAI('limit', 'How many records', 'number') }}" }, { asTool: true, input: { limit: 500 } });
		expect(result.error?.message).toBe(
			"Limit must be a whole number from 1 to 100 when the node is an AI agent's tool (got 500): ask for fewer records, or narrow the filters",
		);
		expect(sim().apiRequests).toEqual([]);
	});

	it('outside a tool, nothing changes: Limit 50 (or Return All) gives the records as the platform lists them', async () => {
		const result = await run({ ...params(), simplify: false });
		expect(jsonOf(result)).toEqual(raw.slice(0, 50));
	});
});

describe('the 300-movement list an agent asked for', () => {
	it('goes from every field of every movement to 20 simplified ones and a note', async () => {
		const { businessId } = sim().credentials;
		const from = '2031-03-01T00:00:00.000Z';
		addMovements(sim(), businessId, 300, { from, to: '2031-04-01T00:00:00.000Z' });
		const month = { filters: { initialDate: '2031-03-01T00:00:00Z', endDate: '2031-03-31T23:59:59Z' } };
		// Before: the node as a tool with Return All and every field, as n8n 2.8.4 sent it (issue 54).
		const whole = await run({ resource: 'movement', operation: 'getMany', returnAll: true, ...month });
		expect(whole.items).toHaveLength(300);
		const after = await run({ resource: 'movement', operation: 'getMany', returnAll: true, ...month }, { asTool: true });
		expect(after.items).toHaveLength(TOOL_DEFAULT_LIMIT + 1);
		const atMost = await run({ resource: 'movement', operation: 'getMany', limit: TOOL_MAX_LIMIT, ...month }, { asTool: true });
		expect(atMost.items).toHaveLength(TOOL_MAX_LIMIT + 1);
		const figures = { before: sent(whole).length, after: sent(after).length, atLimit100: sent(atMost).length };
		figuresOnFailure('agent: characters a model receives for 300 movements', figures, () => {
			// 20 of 300 records, each about half as long: under a twentieth.
			expect(figures.after).toBeLessThan(figures.before / 20);
			expect(figures.atLimit100).toBeLessThan(figures.before / 4);
		});
	});
});

describe('file outputs as a tool', () => {
	it('stay as they are: one item, every record of the list in the file', async () => {
		const asAction = await run({ resource: 'sale', operation: 'getMany', returnAll: true, output: 'jsonLinesFile' });
		const asTool = await run({ resource: 'sale', operation: 'getMany', returnAll: true, output: 'jsonLinesFile' }, { asTool: true });
		expect(asTool.error).toBeUndefined();
		expect(asTool.items).toHaveLength(1);
		expect(asTool.items[0].json).toEqual(asAction.items[0].json);
		expect(asTool.items[0].json.records).toBeGreaterThan(TOOL_MAX_LIMIT);
	});
});

/** Operations whose effect moves money or value, or cannot be undone: by the verb of their value or name. */
const IRREVERSIBLE_VERB = /delete|remove|cancel|flush|discard|purge|refund|revert|charge|redeem|resume|retry|withdraw|transfer|refresh|pay(?!mentLink)/i;
const WARNING = /cannot be undone|for real/i;

describe('warnings an agent reads', () => {
	const options = () =>
		nodeDescription()
			.properties.filter((p) => p.name === 'operation')
			.flatMap((p) =>
				(p.options as Array<{ value: string; name: string; action: string; description: string }>).map((o) => ({
					key: `${String((p.displayOptions?.show?.resource as string[])[0])}.${o.value}`,
					...o,
				})),
			);

	it('every operation that deletes, cancels, flushes, moves money or value or resumes a queue says so in its action and description', () => {
		const warned = options().filter((o) => !/^get/i.test(o.value) && IRREVERSIBLE_VERB.test(`${o.value} ${o.name}`));
		for (const o of warned) {
			expect({ key: o.key, action: WARNING.test(o.action), description: WARNING.test(o.description) }).toEqual({ key: o.key, action: true, description: true });
		}
		expect(warned.map((o) => o.key).sort()).toEqual(
			[
				'customer.delete',
				'identity.refreshToken',
				'order.createCharge',
				'paymentLink.delete',
				'pixel.delete',
				'voucher.cancelRedemption',
				'voucher.redeem',
				'webhook.delete',
				'webhook.flush',
				'webhook.resume',
			].sort(),
		);
		// Reads never carry one.
		for (const o of options().filter((x) => /^get/i.test(x.value))) expect({ key: o.key, warns: WARNING.test(o.action) }).toEqual({ key: o.key, warns: false });
	});

	it('n8n sends the action text as the tool description, so the warning reaches the model', async () => {
		const { nodeTypes } = await loadPackage();
		const tool = nodeTypes.getByNameAndVersion(TOOL_TYPE, 1);
		const node = { type: TOOL_TYPE, typeVersion: 1, name: 'Delete', parameters: { resource: 'webhook', operation: 'delete' } } as unknown as INode;
		expect(NodeHelpers.getToolDescriptionForNode(node, tool)).toBe('Delete a webhook permanently (cannot be undone) in Sales & Payments');
	});
});

describe('errors a model can act on', () => {
	const cases: Array<[string, INodeParameters, IDataObject, string]> = [
		['an object as Order ID', { resource: 'order', operation: 'get', orderId: "={{ $fromAI('orderId', '', 'json') }}" }, { orderId: { id: 'x' } }, 'Order ID must be text; received an object'],
		['true as Order ID', { resource: 'order', operation: 'get', orderId: "={{ $fromAI('orderId', '', 'boolean') }}" }, { orderId: true }, 'Order ID must be text; received a boolean (true)'],
		[
			'an object as a Customer locator',
			{ resource: 'customer', operation: 'get', customerId: { __rl: true, mode: 'id', value: "={{ $fromAI('customer', '', 'json') }}" } },
			{ customer: { name: 'Ana' } },
			'Customer must be text; received an object',
		],
		['a list as a voucher code', { resource: 'voucher', operation: 'getByCode', code: "={{ $fromAI('code', '', 'json') }}" }, { code: ['A', 'B'] }, 'Voucher Code must be text; received a list'],
		[
			'an object as a text filter',
			{ resource: 'commission', operation: 'getMany', filters: { status: "={{ $fromAI('status', '', 'json') }}" } },
			{ status: { is: 'paid' } },
			'Status must be text; received an object',
		],
		[
			'an object as an email filter',
			{ resource: 'customer', operation: 'getMany', filters: { email: "={{ $fromAI('email', '', 'json') }}" } },
			{ email: { address: 'a@b.c' } },
			'Email must be text; received an object',
		],
		[
			'an object among product IDs',
			{ resource: 'sale', operation: 'getMany', filters: { productIds: "={{ $fromAI('ids', '', 'json') }}" } },
			{ ids: [{ id: 'p1' }] },
			'Product IDs must be text; received an object',
		],
		[
			"an object as the webhook list's Business ID (never the credential's instead)",
			{ resource: 'webhook', operation: 'getMany', filters: { businessId: "={{ $fromAI('business', '', 'json') }}" } },
			{ business: { id: 'b1' } },
			'Business ID must be text; received an object',
		],
	];

	it.each(cases)('%s is named as the wrong type, before any request', async (_what, parameters, input, message) => {
		const result = await run(parameters, { asTool: true, input });
		expect(result.error?.message).toBe(message);
		expect(sim().apiRequests).toEqual([]);
	});

	it('with On Error: Continue, the error is the answer the model reads', async () => {
		const result = await run(cases[0][1], { asTool: true, input: cases[0][2], continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(sent(result)).toBe(JSON.stringify([{ error: 'Order ID must be text; received an object' }]));
	});
});
