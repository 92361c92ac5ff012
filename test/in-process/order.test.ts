import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';
import { orderView } from '../support/simulator/routes/orders';

const sim = useSimulator();

beforeEach(() => sim().clearRequests());

async function run(operation: string, parameters: Record<string, unknown>, overrides: Record<string, string> = {}) {
	return await runNode(
		{ parameters: { resource: 'order', operation, ...parameters } as never },
		{ credentials: dataCredentials(sim(), overrides) },
	);
}

function ordersOfPrimary(): JsonObject[] {
	return sim().state.col('orders').filter((o) => o.businessId === sim().credentials.businessId);
}

/** A complete charge as a user would fill it in. */
function chargeParameters(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		buyerName: 'Lucas Ferreira',
		buyerEmail: 'lucas.ferreira@mail.example',
		buyerDetails: {
			document: { values: { type: 'CPF', number: '52998224725' } },
			phone: { values: { areaCode: '+55', ddd: '21', number: '998877665', isMobile: true } },
			address: {
				values: {
					zipCode: '20040-002',
					street: 'Rua da Assembleia',
					number: '10',
					complement: 'Sala 501',
					neighborhood: 'Centro',
					city: 'Rio de Janeiro',
					state: 'RJ',
				},
			},
		},
		items: {
			item: [
				{
					name: 'Sourdough Masterclass',
					quantity: 2,
					priceInCents: 4990,
					externalReferenceId: 'sku-77',
					description: 'Two seats',
					commissionedParticipants: {
						participant: [{ commissionedId: 'aff-1', commissionedValueInCents: 500, commissionedPercentage: 10 }],
					},
				},
			],
		},
		payments: {
			payment: [
				{
					method: 'credit-card',
					numberInstallments: 3,
					valueInCents: 9980,
					creditCard: {
						values: {
							token: 'tok_card_1a2b3c',
							flag: 'visa',
							last4Numbers: '4242',
							expiresAtMonth: 12,
							expiresAtYear: 2031,
							holderName: 'LUCAS FERREIRA',
						},
					},
				},
			],
		},
		metadata: { entry: [{ key: 'campaign', value: 'spring' }] },
		...overrides,
	};
}

describe('Order: Create Charge', () => {
	it('sends KEYS only with the business in the body, creates a pending order and emits order.created', async () => {
		const before = ordersOfPrimary().length;
		const events = sim().state.events.length;
		const { items, error } = await run('createCharge', chargeParameters());
		expect(error).toBeUndefined();
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect(req.method).toBe('POST');
		expect(req.path).toBe('/orders/create-charge');
		expect(req.query).toEqual({});
		expectAuth(sim(), req, 'keys');
		expect(req.body).toEqual({
			businessId: sim().credentials.businessId,
			buyer: {
				name: 'Lucas Ferreira',
				email: 'lucas.ferreira@mail.example',
				address: {
					zipCode: '20040-002',
					street: 'Rua da Assembleia',
					complement: 'Sala 501',
					neighborhood: 'Centro',
					city: 'Rio de Janeiro',
					state: 'RJ',
					number: '10',
				},
				document: { type: 'CPF', number: '52998224725' },
				phone: { areaCode: '+55', ddd: '21', number: '998877665', isMobile: true },
			},
			items: [
				{
					name: 'Sourdough Masterclass',
					quantity: 2,
					priceInCents: 4990,
					externalReferenceId: 'sku-77',
					description: 'Two seats',
					commissionedParticipants: [
						{ commissionedId: 'aff-1', commissionedValueInCents: 500, commissionedPercentage: 10 },
					],
				},
			],
			metadata: [{ key: 'campaign', value: 'spring' }],
			payments: [
				{
					method: 'credit-card',
					numberInstallments: 3,
					valueInCents: 9980,
					creditCard: {
						token: 'tok_card_1a2b3c',
						flag: 'visa',
						last4Numbers: '4242',
						expiresAtMonth: 12,
						expiresAtYear: 2031,
						holderName: 'LUCAS FERREIRA',
					},
				},
			],
		});
		expect(req.status).toBe(201);
		const orders = ordersOfPrimary();
		expect(orders).toHaveLength(before + 1);
		const order = orders[orders.length - 1];
		expect(jsonOf(items)).toEqual([{ orderId: order.id }]);
		expect(order).toMatchObject({ businessId: sim().credentials.businessId, status: 'pending', paidAt: null });
		expect(order.statusHistory).toEqual([{ status: 'pending', date: order.date }]);
		expect(JSON.stringify(order)).not.toContain('tok_card_1a2b3c');
		const emitted = sim().state.events.slice(events);
		expect(emitted.map((e) => [e.kind, e.businessId, e.data.id])).toEqual([
			['order.created', sim().credentials.businessId, order.id],
		]);
	});

	it('a Business ID given on the node goes into the body instead of the credential one', async () => {
		const second = sim().state.accounts[0].businessIds[1];
		const { items, error } = await run(
			'createCharge',
			chargeParameters({ businessId: second, buyerDetails: {}, metadata: {}, payments: { payment: [{ method: 'pix', valueInCents: 9980 }] } }),
		);
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect(req.body).toMatchObject({ businessId: second, payments: [{ method: 'pix', numberInstallments: 1, valueInCents: 9980 }] });
		expect((req.body as JsonObject).metadata).toBeUndefined();
		expectAuth(sim(), req, 'keys');
		const order = sim().state.col('orders').find((o) => o.id === items[0].json.orderId);
		expect(order?.businessId).toBe(second);
	});

	it('the buyer can be an existing customer picked with the Customer locator', async () => {
		const customer = sim().state.col('customers').find((c) => c._businessId === sim().credentials.businessId)!;
		const { items, error } = await run(
			'createCharge',
			chargeParameters({ buyerDetails: { customerId: { __rl: true, mode: 'list', value: customer.id } } }),
		);
		expect(error).toBeUndefined();
		expect((sim().apiRequests[0].body as JsonObject).buyer).toEqual({
			customerId: customer.id,
			name: 'Lucas Ferreira',
			email: 'lucas.ferreira@mail.example',
		});
		const order = sim().state.col('orders').find((o) => o.id === items[0].json.orderId)!;
		expect((order.orderBuyer as JsonObject).customerId).toBe(customer.id);
	});

	it("an item's Payment Link is a locator (From list or By ID); a plain ID saved before it was one is read the same", async () => {
		const link = sim().state.col('paymentLinks').find((l) => l._businessId === sim().credentials.businessId)!;
		const item = (paymentLinkId: unknown) => ({
			items: { item: [{ name: 'Sourdough Masterclass', quantity: 1, priceInCents: 4990, paymentLinkId }] },
		});
		for (const value of [{ __rl: true, mode: 'list', value: link.id }, { __rl: true, mode: 'id', value: link.id }, link.id]) {
			sim().clearRequests();
			const { error } = await run('createCharge', chargeParameters(item(value)));
			expect(error).toBeUndefined();
			expect((sim().apiRequests[0].body as JsonObject).items).toEqual([
				{ name: 'Sourdough Masterclass', quantity: 1, priceInCents: 4990, paymentLinkId: link.id },
			]);
		}
		sim().clearRequests();
		const { error } = await run('createCharge', chargeParameters(item({ __rl: true, mode: 'id', value: '../x' })));
		expect(error?.message).toBe('Items 1: Payment Link "../x" is not a valid ID (letters, digits, "-" and "_" only, at most 128)');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('sends the card only for methods that can carry one: not for pix, yes for debit-card and for a method given by expression', async () => {
		const card = { values: { token: 'tok_card_9z8y', expiresAtMonth: 6, expiresAtYear: 2032 } };
		const sent = async (method: string) => {
			sim().clearRequests();
			const { error } = await run(
				'createCharge',
				chargeParameters({ payments: { payment: [{ method, valueInCents: 9980, creditCard: card }] } }),
			);
			expect(error).toBeUndefined();
			return (sim().apiRequests[0].body as { payments: JsonObject[] }).payments;
		};
		expect(await sent('pix')).toEqual([{ method: 'pix', numberInstallments: 1, valueInCents: 9980 }]);
		// n8n fills in the card's defaults (Flag: visa) as the editor does.
		const cardSent = { token: 'tok_card_9z8y', flag: 'visa', expiresAtMonth: 6, expiresAtYear: 2032 };
		expect(await sent('debit-card')).toEqual([{ method: 'debit-card', numberInstallments: 1, valueInCents: 9980, creditCard: cardSent }]);
		expect(await sent('={{ "wallet-card" }}')).toEqual([
			{ method: 'wallet-card', numberInstallments: 1, valueInCents: 9980, creditCard: cardSent },
		]);
	});

	it('an unknown buyer customer is refused by the platform (400), explained', async () => {
		const before = ordersOfPrimary().length;
		const { error } = await run(
			'createCharge',
			chargeParameters({ buyerDetails: { customerId: { __rl: true, mode: 'id', value: '00000000-0000-4000-8000-00000000abcd' } } }),
		);
		expect(error?.httpCode).toBe('400');
		expect(error?.message).toBe('Invalid param: [buyer.customerId]');
		expect(error?.description).toContain('The platform refused the charge request; no order was created.');
		expect(ordersOfPrimary()).toHaveLength(before);
	});

	it('is not retried when the answer is lost after the platform processed it', async () => {
		const before = ordersOfPrimary().length;
		sim().addFault({ kind: 'status', status: 503, path: '/orders/create-charge', afterProcessing: true, times: 1 });
		const { error } = await run('createCharge', chargeParameters());
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('503');
		expect(sim().apiRequests).toHaveLength(1);
		expect(ordersOfPrimary()).toHaveLength(before + 1);
	});

	it.each([
		['buyerEmail', { buyerEmail: 'lucas@' }, 'Buyer Email must be a valid email address'],
		['buyerName', { buyerName: '   ' }, 'Buyer Name is required'],
		['no items', { items: {} }, 'Items: add at least one item'],
		['no payments', { payments: { payment: [] } }, 'Payments: add at least one payment'],
		[
			'negative price',
			{ items: { item: [{ name: 'X', quantity: 1, priceInCents: -5 }] } },
			'Items 1: Price in Cents must be a whole, non-negative number of cents',
		],
		[
			'fractional payment',
			{ payments: { payment: [{ method: 'pix', valueInCents: 99.5 }] } },
			'Payments 1: Value in Cents must be a whole, non-negative number of cents',
		],
		[
			'card without token',
			{ payments: { payment: [{ method: 'credit-card', valueInCents: 100, creditCard: { values: { flag: 'visa', expiresAtMonth: 1, expiresAtYear: 2030 } } }] } },
			'Payments 1: Card Token is required when a card is given',
		],
		// Name is a required field: left empty by an expression it is refused here (left empty by
		// hand, n8n refuses the workflow itself, see below).
		['item name empty by expression', { items: { item: [{ name: '={{ "  " }}', quantity: 1, priceInCents: 100 }] } }, 'Items 1: Name is required'],
		['bad JSON', { additionalFields: { extraFields: '[1,2]' } }, 'Extra Fields (JSON) must be a JSON object'],
	])('bad input (%s) is refused naming the field, before any request', async (_case, overrides, message) => {
		const { error } = await run('createCharge', chargeParameters(overrides));
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain(message);
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('an item without a Name is a workflow issue: n8n refuses to run it, nothing is sent', async () => {
		await expect(run('createCharge', chargeParameters({ items: { item: [{ quantity: 1, priceInCents: 100 }] } }))).rejects.toThrow(
			'The workflow has issues and cannot be executed',
		);
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('without a Business ID anywhere it is refused before any request', async () => {
		const { error } = await run('createCharge', chargeParameters(), { businessId: '' });
		expect(error?.message).toBe('Business ID is required: set it here or in the credential');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('a business of another account is refused by the platform with 403, explained', async () => {
		const foreign = sim().state.accounts[1].businessIds[0];
		const { error } = await run('createCharge', chargeParameters({ businessId: foreign }));
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('403');
		expect(error?.message).toBe('Forbidden resource');
		expect(error?.description).toContain('may not charge for this business');
	});

	it('describes itself so that an AI agent cannot mistake it for a simulation', async () => {
		const { loadPackage, ACTION_TYPE } = await import('../support/harness/n8n-core');
		const { nodeTypes } = await loadPackage();
		const type = nodeTypes.getByNameAndVersion(ACTION_TYPE, 1);
		const operation = type.description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('order'),
		);
		const option = (operation?.options as Array<{ value: string; action?: string; description?: string }>).find(
			(o) => o.value === 'createCharge',
		);
		expect(option?.action).toMatch(/charge a buyer/i);
		expect(option?.description).toContain('Charge the buyer for real: creates an order and collects payment. Not a simulation.');
	});
});

describe('Order: Create Charge in the editor', () => {
	async function chargeProperty(name: string) {
		const { loadPackage, ACTION_TYPE } = await import('../support/harness/n8n-core');
		const { nodeTypes } = await loadPackage();
		const type = nodeTypes.getByNameAndVersion(ACTION_TYPE, 1);
		return type.description.properties.find(
			(p) => p.name === name && p.displayOptions?.show?.operation?.includes('createCharge'),
		) as unknown as { options: Array<{ values: Array<Record<string, unknown>> }> } & Record<string, unknown>;
	}

	it('lists the fields an item cannot do without first, required; the payment link is a locator', async () => {
		const [item] = (await chargeProperty('items')).options;
		expect(item.values.map((v) => [v.name, v.required === true])).toEqual([
			['name', true],
			['quantity', true],
			['priceInCents', true],
			['commissionedParticipants', false],
			['description', false],
			['externalReferenceId', false],
			['imageReference', false],
			['paymentLinkId', false],
		]);
		const link = item.values.find((v) => v.name === 'paymentLinkId')!;
		expect(link.type).toBe('resourceLocator');
		expect((link.modes as Array<{ name: string; typeOptions?: { searchListMethod?: string } }>).map((m) => m.name)).toEqual(['list', 'id']);
		expect((link.modes as Array<{ typeOptions?: { searchListMethod?: string } }>)[0].typeOptions?.searchListMethod).toBe('searchPaymentLinks');
	});

	it("offers the spec's payment methods as a list, and shows the card fields only for card methods", async () => {
		const [payment] = (await chargeProperty('payments')).options;
		expect(payment.values.map((v) => [v.name, v.required === true])).toEqual([
			['method', true],
			['valueInCents', true],
			['creditCard', false],
			['numberInstallments', false],
		]);
		const method = payment.values[0];
		expect(method.type).toBe('options');
		expect((method.options as Array<{ value: string }>).map((o) => o.value).sort()).toEqual(
			['bank-billet', 'credit-card', 'crypto', 'debit-card', 'pix'],
		);
		expect(method.noDataExpression).toBeUndefined();
		expect(method.default).toBe('pix');
		const card = payment.values.find((v) => v.name === 'creditCard')!;
		expect(card.displayOptions).toEqual({ hide: { method: ['bank-billet', 'crypto', 'pix'] } });
		const cardValues = (card.options as Array<{ values: Array<{ name: string; required?: boolean }> }>)[0].values;
		expect(cardValues.filter((v) => v.required).map((v) => v.name)).toEqual(['token', 'expiresAtMonth', 'expiresAtYear']);
	});

	it('reads top to bottom: notice, buyer, items, payments, then the optional parts', async () => {
		const { loadPackage, ACTION_TYPE } = await import('../support/harness/n8n-core');
		const { nodeTypes } = await loadPackage();
		const names = nodeTypes
			.getByNameAndVersion(ACTION_TYPE, 1)
			.description.properties.filter((p) => p.displayOptions?.show?.operation?.includes('createCharge'))
			.map((p) => p.name);
		expect(names).toEqual([
			'chargeNotice',
			'buyerName',
			'buyerEmail',
			'items',
			'payments',
			'buyerDetails',
			'businessId',
			'metadata',
			'additionalFields',
		]);
	});
});

describe('Order: Get', () => {
	it('sends KEYS+BIZ and returns the simplified order', async () => {
		const order = ordersOfPrimary()[0];
		const { items, error } = await run('get', { orderId: order.id });
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect(req.method).toBe('GET');
		expect(req.path).toBe(`/orders/${String(order.id)}`);
		expectAuth(sim(), req, 'keys+biz');
		const view = orderView(order);
		expect(jsonOf(items)).toEqual([
			{
				id: view.id,
				status: view.status,
				date: view.date,
				paidAt: view.paidAt,
				orderBuyer: view.orderBuyer,
				items: view.items,
				payments: view.payments,
			},
		]);
	});

	it('with Simplify off returns the whole order, and reads back a charge just created', async () => {
		const created = await run('createCharge', chargeParameters());
		const orderId = created.items[0].json.orderId;
		sim().clearRequests();
		const { items, error } = await run('get', { orderId, simplify: false });
		expect(error).toBeUndefined();
		const order = sim().state.col('orders').find((o) => o.id === orderId)!;
		expect(jsonOf(items)).toEqual([orderView(order)]);
		expect(items[0].json).toMatchObject({
			status: 'pending',
			orderBuyer: { email: 'lucas.ferreira@mail.example' },
			payments: [{ method: 'credit-card', valueInCents: 9980, creditCard: { last4Numbers: '4242', flag: 'visa' } }],
		});
		expect(items[0].json.statusHistory).toEqual([{ status: 'pending', date: order.date }]);
	});

	it('an order of another business is not found (404, explained)', async () => {
		const other = sim().state.col('orders').find((o) => o.businessId !== sim().credentials.businessId)!;
		const { error } = await run('get', { orderId: other.id });
		expect(error?.httpCode).toBe('404');
		expect(error?.message).toBe('Order not found');
		expect(error?.description).toContain('No order with this ID exists');
	});

	it('a malformed Order ID is refused before any request', async () => {
		const { error } = await run('get', { orderId: 'a b' });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe('Order ID "a b" is not a valid ID (letters, digits, "-" and "_" only, at most 128)');
		expect(sim().apiRequests).toHaveLength(0);
	});
});

test('seeded orders exist for the primary business and another one', () => {
	expect(ordersOfPrimary().length).toBeGreaterThan(0);
	expect(sim().state.col('orders').some((o) => o.businessId !== sim().credentials.businessId)).toBe(true);
});
