/**
 * Runs every operation of the action node for real against the simulator, in every output
 * variant its options make (Simplify on and off, Add Decimal Amounts on and off, Movement's
 * Summary, and the answer an open operation gets when the platform says nothing), for the
 * schema contract test (test/in-process/schemas.test.ts). The baseline parameters come from
 * the operations table (operations.ts); this file only adds records that exist in the simulator.
 */
import axios from 'axios';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunResult } from '../harness/n8n-core';
import { runNode } from '../harness/n8n-core';
import type { JsonObject } from '../simulator/core';
import { ofBusiness } from '../simulator/filtering';
import { identityUrl, lastCode, PLAIN_USER, TWO_FACTOR_USER } from '../simulator/routes/identity';
import { ordersOf } from '../simulator/routes/orders';
import { productsOf } from '../simulator/routes/products';
import type { Simulator } from '../simulator/server';
import type { OperationInfo } from './operations';
import { baselineFor } from './operations';

/** The device fingerprint of the identity credential the operations table uses. */
const FINGERPRINT = 'n8n-validation-table';

let serial = 0;

function locator(value: unknown): IDataObject {
	return { __rl: true, mode: 'id', value: String(value) };
}

/** A record of the credential's business in a simulator collection (`pick` chooses among them). */
function recordOf(sim: Simulator, collection: string, pick: (r: JsonObject) => boolean = () => true): JsonObject {
	const found = ofBusiness(sim.state.col(collection), sim.credentials.businessId).filter(pick);
	if (!found.length) throw new Error(`the simulator has no ${collection} record to run the operation on`);
	return found[found.length - 1];
}

async function identityCall(sim: Simulator, method: 'POST' | 'PATCH', path: string, token?: string, body?: IDataObject): Promise<IDataObject> {
	const headers: Record<string, string> = { 'x-fingerprint-id': FINGERPRINT };
	if (token) headers.Authorization = `Bearer ${token}`;
	const res = await axios.request({ method, url: `${identityUrl(sim)}${path}`, headers, data: body });
	return (res.data as { data: IDataObject }).data;
}

async function signIn(sim: Simulator, user = PLAIN_USER): Promise<{ token: string; refreshToken: string }> {
	const data = await identityCall(sim, 'POST', '/identity/sign-in', undefined, { username: user.username, password: user.password });
	return { token: String(data.token), refreshToken: String(data.refreshToken) };
}

/** A data API call with the primary account's keys (and business, for KEYS+BIZ endpoints). */
async function dataCall(sim: Simulator, path: string, body: IDataObject, business = false): Promise<IDataObject> {
	const headers: Record<string, string> = { 'x-api-key': sim.credentials.apiKey, 'x-api-secret': sim.credentials.apiSecret };
	if (business) headers['business-id'] = sim.credentials.businessId;
	const res = await axios.post(`${sim.url}${path}`, body, { headers });
	return (res.data as { data: IDataObject }).data;
}

const place = { street: 'Rua Augusta', number: '100', complement: 'Apt 12', neighborhood: 'Centro', city: 'Sao Paulo', state: 'SP', zipCode: '01310-100' };

/** A customer with every field of the buyer shape, created through the API. */
async function newCustomer(sim: Simulator): Promise<string> {
	const data = await dataCall(
		sim,
		'/customers',
		{
			name: 'Ana Souza',
			email: `contract.${++serial}@mail.example`,
			document: { type: 'CPF', number: '12345678909' },
			phone: { areaCode: '+55', ddd: '11', number: '912345678', isMobile: true },
			address: place,
			deliveryAddress: place,
		},
		true,
	);
	return String((data.customer as IDataObject).id);
}

async function newWebhook(sim: Simulator): Promise<string> {
	const data = await dataCall(sim, '/webhooks', {
			externalAccountId: sim.credentials.businessId,
			name: `Contract ${++serial}`,
			events: ['order.paid'],
			dispatchers: [{ type: 'http', method: 'POST', url: 'https://hooks.example.com/contract', headers: {} }],
		notifyOnFail: { email: 'ops@mail.example', name: 'Ops' },
	});
	return String(data.id);
}

const address = { values: place };
const contact: IDataObject = {
	address,
	document: { values: { type: 'CPF', number: '12345678909' } },
	phone: { values: { areaCode: '+55', ddd: '11', number: '912345678', isMobile: true } },
};

/** Every field of a payment link's create body. */
const linkFields: IDataObject = {
	description: 'Lifetime access',
	checkoutTemplateId: 'tpl-1',
	acceptCorporationBuyer: true,
	acceptNaturalPersonBuyer: true,
	requestAddress: false,
	requestDeliveryAddress: false,
	showSellerName: true,
	dueDateDelay: 3,
	defaultInstallments: 1,
	expirationInMinutes: 30,
	invoiceDescription: 'ACME SHOP',
	contactEmailId: 'support-1',
	sellerAbsorbsInterest: false,
	installmentOptions: { option: [{ installments: 3, installmentValueInCents: 1700, interestRate: 1.5 }] },
	redirect: { values: { url: 'https://acme-shop.example/thanks', buttonName: 'Back', delayInSeconds: 5 } },
};

type Setup = (sim: Simulator) => Promise<IDataObject> | IDataObject;

/** Parameters naming records that exist (and fields that fill the answer), per operation. */
const SETUP: Record<string, Setup> = {
	// Customers have no Delivery Address field: the buyer shape's one goes through Extra Fields (JSON).
	'customer.create': () => ({
		email: `contract.${++serial}@mail.example`,
		name: 'Ana Souza',
		additionalFields: { ...contact, extraFields: JSON.stringify({ deliveryAddress: place }) },
	}),
	'customer.delete': async (sim) => ({ customerId: locator(await newCustomer(sim)) }),
	'customer.get': async (sim) => ({ customerId: locator(await newCustomer(sim)) }),
	// The newest customer comes first: the list's first page shows every field.
	'customer.getMany': async (sim) => {
		await newCustomer(sim);
		return {};
	},
	'customer.update': async (sim) => ({ customerId: locator(await newCustomer(sim)), updateFields: { name: 'Ana Lima' } }),
	'offer.getMany': (sim) => ({ productId: locator(productsOf(sim, sim.credentials.businessId)[0].id) }),
	'order.createCharge': () => ({ buyerName: 'Lucas Ferreira', buyerEmail: 'lucas.ferreira@mail.example' }),
	'order.get': (sim) => ({ orderId: String(ordersOf(sim, sim.credentials.businessId).find((o) => o.status === 'paid')?.id) }),
	'paymentLink.create': () => ({ name: 'Sourdough Masterclass', valueInCents: 4990, additionalFields: linkFields }),
	'paymentLink.delete': (sim) => ({ paymentLinkId: locator(recordOf(sim, 'paymentLinks').id) }),
	'paymentLink.get': (sim) => ({ paymentLinkId: locator(recordOf(sim, 'paymentLinks').id) }),
	'paymentLink.publish': (sim) => ({ paymentLinkId: locator(recordOf(sim, 'paymentLinks').id) }),
	'paymentLink.unpublish': (sim) => ({ paymentLinkId: locator(recordOf(sim, 'paymentLinks').id) }),
	'paymentLink.update': (sim) => ({ paymentLinkId: locator(recordOf(sim, 'paymentLinks', (l) => l.salesCount === 0).id) }),
	'paymentLink.uploadImage': (sim) => ({ paymentLinkId: locator(recordOf(sim, 'paymentLinks', (l) => l.salesCount === 0).id) }),
	'pixel.delete': (sim) => ({ pixelId: locator(recordOf(sim, 'pixels').id) }),
	'pixel.get': (sim) => ({ pixelId: locator(recordOf(sim, 'pixels').id) }),
	'pixel.update': (sim) => ({ pixelId: locator(recordOf(sim, 'pixels').id) }),
	'subscription.get': (sim) => ({ subscriptionId: locator(recordOf(sim, 'subscriptions').id) }),
	'voucher.getByCode': (sim) => ({ code: String(recordOf(sim, 'vouchers').code) }),
	'voucher.redeem': (sim) => ({ voucherId: String(recordOf(sim, 'vouchers', (v) => v.status === 'available').id) }),
	'voucher.cancelRedemption': (sim) => {
		const voucher = recordOf(sim, 'vouchers', (v) => v.status === 'available');
		Object.assign(voucher, { status: 'redeemed', redeemedAt: sim.state.clock.iso() });
		return { voucherId: String(voucher.id) };
	},
	'identity.approveDevice': async (sim) => {
		const { token } = await signIn(sim);
		await identityCall(sim, 'POST', '/identity/devices', token, { name: `Contract ${++serial}` });
		return { accessToken: token, code: lastCode(sim, { to: PLAIN_USER.username, purpose: 'device-approval' }) };
	},
	'identity.refreshToken': async (sim) => {
		const { token, refreshToken } = await signIn(sim);
		return { accessToken: token, refreshToken };
	},
	'identity.registerDevice': async (sim) => ({ accessToken: (await signIn(sim)).token, name: `Contract ${++serial}` }),
	'identity.requestEmailOtp': async (sim) => ({ accessToken: (await signIn(sim)).token }),
	'identity.requestSmsOtp': async (sim) => ({ accessToken: (await signIn(sim)).token }),
	'identity.validateAccount': async (sim) => {
		const { token } = await signIn(sim);
		await identityCall(sim, 'POST', '/identity/otps/email', token);
		return { accessToken: token, code: lastCode(sim, { to: PLAIN_USER.username, purpose: 'account-validation' }) };
	},
	'identity.verify2fa': async (sim) => {
		const { token } = await signIn(sim, TWO_FACTOR_USER);
		return { accessToken: token, code: lastCode(sim, { to: TWO_FACTOR_USER.username, purpose: 'two-factor' }) };
	},
};

SETUP['webhook.getMany'] = async (sim) => {
	await newWebhook(sim);
	return {};
};
for (const op of ['activate', 'deactivate', 'delete', 'flush', 'get', 'getQueue', 'resume', 'update']) {
	SETUP[`webhook.${op}`] = async (sim) => ({ webhookId: locator(await newWebhook(sim)) });
}

/** One output variant of an operation: its name, the parameters it sets, and how the platform answers. */
export interface Variant {
	name: string;
	parameters: INodeParameters;
	/** The platform accepts the request and answers `data: {}` (what the node outputs then). */
	emptyAnswer?: boolean;
}

/** The output variants of an operation, read from its fields. */
export function variantsOf(op: OperationInfo): Variant[] {
	const has = (name: string) => op.properties.some((p) => p.name === name);
	const simplify = has('simplify') ? [true, false] : [undefined];
	const decimals = has('decimalAmounts') ? [false, true] : [undefined];
	const variants: Variant[] = [];
	for (const s of simplify) {
		for (const d of decimals) {
			const parameters: INodeParameters = {};
			const words: string[] = [];
			if (s !== undefined) {
				parameters.simplify = s;
				words.push(`Simplify ${s ? 'on' : 'off'}`);
			}
			if (d !== undefined) {
				parameters.decimalAmounts = d;
				words.push(`Add Decimal Amounts ${d ? 'on' : 'off'}`);
			}
			variants.push({ name: words.join(', ') || 'default', parameters });
		}
	}
	// Movement's Output: one summary item instead of the records.
	const output = op.properties.find((p) => p.name === 'output' && p.type === 'options');
	if (output?.options?.some((o) => 'value' in o && o.value === 'summary')) {
		variants.push({ name: 'Output: Summary', parameters: { output: 'summary', decimalAmounts: true } });
	}
	// Single-record answers: what the node makes of an accepted request answered with nothing.
	if (!has('returnAll')) variants.push({ name: 'empty answer', parameters: {}, emptyAnswer: true });
	return variants;
}

/** Runs one variant of an operation against the simulator, with records that exist. */
export async function runVariant(op: OperationInfo, sim: Simulator, variant: Variant): Promise<RunResult> {
	const baseline = baselineFor(op, sim);
	const setup = ((await SETUP[op.key]?.(sim)) ?? {}) as INodeParameters;
	const parameters = { ...baseline.parameters, ...setup, ...variant.parameters };
	// After the setup's own requests: the operation's one request is processed, then answered `data: {}`.
	if (variant.emptyAnswer) sim.addFault({ kind: 'malformed', body: EMPTY_ANSWER, afterProcessing: true, times: 1 });
	try {
		return await runNode({ parameters, credentials: baseline.nodeCredentials }, { credentials: baseline.credentials, input: baseline.input });
	} finally {
		sim.faults.clear();
	}
}

const EMPTY_ANSWER = JSON.stringify({ statusCode: 200, data: {} });
