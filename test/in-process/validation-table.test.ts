/**
 * The validation table: for EVERY operation of the node (read from the built description, so a
 * new operation is covered without editing this file), each wrong input a user can type gives a
 * NodeOperationError that names the field, and no request reaches the platform.
 *
 * Rows derived from the fields: required text fields and resource locators left empty (or blank),
 * numbers below their minimum, above their maximum or not whole (Limit 0 and -1, cents -1 and
 * 1.5, Page Size, Max Retries ...), dates that are not dates, invalid JSON, unknown option values
 * given by expression, malformed emails; at the top level, inside collections (Filters, Options,
 * Additional Fields, Request Options ...) and inside fixed-collection entries. Hand-written rows
 * follow for inputs the fields' types cannot describe.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../support/harness/n8n-core';
import type { RunResult } from '../support/harness/n8n-core';
import type { Baseline, BadInputRow, OperationInfo } from '../support/helpers/operations';
import { badInputRows, baselineFor, listOperations, withValue } from '../support/helpers/operations';
import { useSimulator } from '../support/helpers/sim';

const sim = useSimulator();

beforeEach(() => {
	sim().clearRequests();
	sim().faults.clear();
});

const operations = listOperations();
const byKey = new Map(operations.map((op) => [op.key, op]));

async function run(op: OperationInfo, parameters: INodeParameters, base?: Baseline): Promise<RunResult> {
	const baseline = base ?? baselineFor(op, sim());
	return await runNode(
		{ parameters, credentials: baseline.nodeCredentials },
		{ credentials: baseline.credentials, input: baseline.input },
	);
}

function expectRefusal(result: RunResult, field: string): void {
	const { error } = result;
	expect(error).toBeDefined();
	expect(error?.name).toBe('NodeOperationError');
	expect(`${error?.message} ${error?.description ?? ''}`).toContain(field);
	expect(sim().apiRequests).toEqual([]);
	expect(result.items).toHaveLength(0);
}

describe('the table covers the node', () => {
	it('lists every operation of every resource', () => {
		expect(operations.length).toBeGreaterThanOrEqual(50);
		for (const key of ['order.createCharge', 'voucher.redeem', 'movement.getMany', 'identity.signIn', 'webhook.create']) {
			expect(byKey.has(key)).toBe(true);
		}
	});

	it('derives rows of every kind', () => {
		const rows = operations.flatMap(badInputRows);
		const whats = new Set(rows.map((r) => r.what));
		for (const kind of ['empty by expression', 'blank', '0 (below 1)', '-1', "'not-a-date'", "'{bad'", 'unknown value by expression', 'not an email']) {
			expect(whats.has(kind)).toBe(true);
		}
		// Every operation has at least the Request Options rows.
		for (const op of operations) expect(badInputRows(op).some((r) => r.field === 'Timeout (Ms)')).toBe(true);
		expect(rows.length).toBeGreaterThan(300);
	});
});

describe.each(operations.map((op) => [op.key, op] as const))('%s', (_key, op) => {
	it('accepts the baseline input (a request is sent)', async () => {
		// A 503 before processing: the request is counted, nothing is created.
		sim().addFault({ kind: 'status', status: 503 });
		const result = await run(op, { ...baselineFor(op, sim()).parameters, requestOptions: { maxRetries: 0 } });
		expect(result.error?.name).toBe('NodeApiError');
		expect(sim().apiRequests.length).toBeGreaterThanOrEqual(1);
	});

	const rows = badInputRows(op);
	it.each(rows.map((row) => [row.field, row.what, row] as const))(
		'%s: %s is refused, naming the field, before any request',
		async (_field, _what, row: BadInputRow) => {
			const baseline = baselineFor(op, sim());
			const result = await run(op, withValue(baseline.parameters, row.path, row.value), baseline);
			expectRefusal(result, row.field);
		},
	);
});

/** Inputs the field types cannot describe: written out by hand. */
interface HandRow {
	op: string;
	field: string;
	what: string;
	change: Record<string, unknown>;
	/** Paths set inside the baseline parameters. */
	paths?: Array<[Array<string | number>, unknown]>;
}

const handRows: HandRow[] = [
	{ op: 'customer.create', field: 'Email', what: 'no domain', change: { email: 'ana@' } },
	{ op: 'customer.create', field: 'Email', what: 'two @', change: { email: 'ana@@mail.example' } },
	{ op: 'customer.create', field: 'Email', what: 'spaces inside', change: { email: 'ana souza@mail.example' } },
	{ op: 'customer.update', field: 'Email', what: 'not an email', change: {}, paths: [[['updateFields', 'email'], 'ana.mail.example']] },
	{ op: 'order.createCharge', field: 'Buyer Email', what: 'not an email', change: { buyerEmail: 'buyer at mail' } },
	{ op: 'paymentLink.create', field: 'Value in Cents', what: '-1', change: { valueInCents: -1 } },
	{ op: 'paymentLink.create', field: 'Value in Cents', what: '12.5', change: { valueInCents: 12.5 } },
	{ op: 'paymentLink.create', field: 'Value in Cents', what: "'12abc' by expression", change: { valueInCents: '={{ "12abc" }}' } },
	{ op: 'paymentLink.update', field: 'Value in Cents', what: '-5', change: {}, paths: [[['updateFields', 'valueInCents'], -5]] },
	{
		op: 'order.createCharge',
		field: 'Price in Cents',
		what: '9.99 (reais, not cents)',
		change: {},
		paths: [[['items', 'item', 0, 'priceInCents'], 9.99]],
	},
	{
		op: 'order.createCharge',
		field: 'Value in Cents',
		what: '-100',
		change: {},
		paths: [[['payments', 'payment', 0, 'valueInCents'], -100]],
	},
	{
		op: 'order.createCharge',
		field: 'Commission in Cents',
		what: '-1',
		change: {},
		paths: [
			[
				['items', 'item', 0, 'commissionedParticipants'],
				{ participant: [{ commissionedId: 'partner-1', commissionedValueInCents: -1 }] },
			],
		],
	},
	{
		op: 'paymentLink.create',
		field: 'Installment Value in Cents',
		what: '-1',
		change: {},
		paths: [
			[['additionalFields', 'installmentOptions'], { option: [{ installments: 2, installmentValueInCents: -1, interestRate: 0 }] }],
		],
	},
	{
		op: 'movement.getMany',
		field: 'Value From (Cents)',
		what: "'ten' by expression",
		change: {},
		paths: [[['filters', 'initialValue'], '={{ "ten" }}']],
	},
	{ op: 'business.getMany', field: 'Limit', what: "'all' by expression", change: { limit: '={{ "all" }}' } },
	{ op: 'refund.getMany', field: 'Created After', what: "'yesterday'", change: {}, paths: [[['filters', 'createdAfter'], 'yesterday']] },
	{ op: 'sale.getMany', field: 'Extra Fields (JSON)', what: 'a JSON array', change: {}, paths: [[['filters', 'extraFields'], '[1,2]']] },
	{ op: 'webhook.create', field: 'URL', what: 'not a URL', change: {}, paths: [[['dispatchers', 'http', 0, 'url'], 'hooks.example.com']] },
	{ op: 'webhook.create', field: 'Events', what: 'none, by expression', change: { events: '={{ [] }}' } },
	{
		op: 'webhook.create',
		field: 'Notify on Fail Email',
		what: 'not an email',
		change: {},
		paths: [[['additionalFields', 'notifyOnFailEmail'], 'ops-team']],
	},
	{ op: 'voucher.getByCode', field: 'Voucher Code', what: 'blank', change: { code: '  ' } },
	{ op: 'order.get', field: 'Order ID', what: 'a path', change: { orderId: '../business/balance' } },
	{ op: 'customer.get', field: 'Customer', what: 'an ID with a slash', change: { customerId: { __rl: true, mode: 'id', value: 'a/b' } } },
];

describe('hand-written rows', () => {
	it.each(handRows.map((row) => [row.op, row.field, row.what, row] as const))(
		'%s: %s %s is refused before any request',
		async (_op, _field, _what, row: HandRow) => {
			const op = byKey.get(row.op);
			if (!op) throw new Error(`No operation ${row.op} in the node`);
			const baseline = baselineFor(op, sim());
			let params: INodeParameters = { ...baseline.parameters, ...(row.change as INodeParameters) };
			for (const [pathTo, value] of row.paths ?? []) params = withValue(params, pathTo, value);
			const result = await run(op, params, baseline);
			expectRefusal(result, row.field);
		},
	);
});
