import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlatformError } from '../../shared/transport';
import { extraFieldsOption, fixedList, fixedValues, mergeBody, setPath } from '../../shared/records';
import { checkCents, checkInteger, parseJsonObject } from '../../shared/validation';
import { idLocator } from '../../shared/locator';

/** The payment link to act on: picked from the business's links or typed as an ID. */
export function paymentLinkLocator(description: string): INodeProperties {
	return idLocator({ displayName: 'Payment Link', name: 'paymentLinkId', searchListMethod: 'searchPaymentLinks', description });
}

type Kind = 'boolean' | 'cents' | 'integer' | 'text';

/** One body field of the payment link: its n8n field and where it goes in the request body. */
interface LinkField {
	kind: Kind;
	path: readonly string[];
	/** Smallest value of an integer. */
	min?: number;
	property: INodeProperties;
}

function boolean(name: string, displayName: string, path: readonly string[], description: string): LinkField {
	return { kind: 'boolean', path, property: { displayName, name, type: 'boolean', default: false, description } };
}

function integer(
	name: string,
	displayName: string,
	path: readonly string[],
	min: number,
	def: number,
	description: string,
): LinkField {
	return {
		kind: 'integer',
		path,
		min,
		property: { displayName, name, type: 'number', typeOptions: { minValue: min, numberPrecision: 0 }, default: def, description },
	};
}

function textField(name: string, displayName: string, path: readonly string[], description: string): LinkField {
	return { kind: 'text', path, property: { displayName, name, type: 'string', default: '', description } };
}

const valueInCents: LinkField = {
	kind: 'cents',
	path: ['valueInCents'],
	property: {
		displayName: 'Value in Cents',
		name: 'valueInCents',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description: 'Price charged through the link, in cents (e.g. 4990 for 49.90)',
	},
};

const nameField = textField('name', 'Name', ['name'], 'Name of the payment link, shown to buyers');

/** Fields both Create and Update accept. */
const commonFields: LinkField[] = [
	textField('description', 'Description', ['description'], 'Description shown on the checkout page'),
	textField('checkoutTemplateId', 'Checkout Template ID', ['checkoutTemplateId'], 'ID of the checkout template the link uses'),
	boolean(
		'acceptCorporationBuyer',
		'Accept Corporation Buyer',
		['preference', 'acceptCorporationBuyer'],
		'Whether companies may buy through the link',
	),
	boolean(
		'acceptNaturalPersonBuyer',
		'Accept Natural Person Buyer',
		['preference', 'acceptNaturalPersonBuyer'],
		'Whether individuals may buy through the link',
	),
	boolean('requestAddress', 'Request Address', ['preference', 'requestAddress'], 'Whether the checkout asks for the buyer\'s address'),
	boolean(
		'requestDeliveryAddress',
		'Request Delivery Address',
		['preference', 'requestDeliveryAddress'],
		'Whether the checkout asks for a delivery address',
	),
	boolean('showSellerName', 'Show Seller Name', ['preference', 'showSellerName'], 'Whether the checkout shows the seller\'s name'),
	integer(
		'dueDateDelay',
		'Billet Due Date Delay (Days)',
		['paymentConfiguration', 'billet', 'dueDateDelay'],
		0,
		3,
		'Days until a bank billet issued through the link is due',
	),
	integer(
		'defaultInstallments',
		'Default Installments',
		['paymentConfiguration', 'creditCard', 'defaultInstallments'],
		1,
		1,
		'Number of card installments selected by default',
	),
	integer(
		'expirationInMinutes',
		'Pix Expiration (Minutes)',
		['paymentConfiguration', 'pix', 'expirationInMinutes'],
		1,
		30,
		'Minutes a Pix code issued through the link stays valid',
	),
];

/** Fields only Create accepts (spec part 2, payment link create body). */
const createOnlyFields: LinkField[] = [
	textField(
		'invoiceDescription',
		'Invoice Description',
		['paymentConfiguration', 'creditCard', 'invoiceDescription'],
		'Text on the buyer\'s card statement',
	),
	textField(
		'contactEmailId',
		'Support Contact Email ID',
		['supportContact', 'contactEmailId'],
		'ID of the support email address shown to buyers',
	),
	boolean(
		'sellerAbsorbsInterest',
		'Seller Absorbs Interest',
		['interestSettings', 'sellerAbsorbsInterest'],
		'Whether the seller pays the installment interest instead of the buyer',
	),
];

/** Fields only Update accepts (spec part 2, update body). */
const updateOnlyFields: LinkField[] = [
	integer(
		'maxInstallments',
		'Max Installments',
		['paymentConfiguration', 'creditCard', 'maxInstallments'],
		1,
		12,
		'Largest number of card installments a buyer may choose',
	),
];

const installmentOptionsProperty: INodeProperties = {
	displayName: 'Installment Options',
	name: 'installmentOptions',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add installment option',
	default: {},
	description: 'Card installment plans offered by the link',
	options: [
		{
			displayName: 'Option',
			name: 'option',
			values: [
				{
					displayName: 'Installment Value in Cents',
					name: 'installmentValueInCents',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 0 },
					default: 0,
					description: 'Amount of each installment, in cents',
				},
				{
					displayName: 'Installments',
					name: 'installments',
					type: 'number',
					typeOptions: { minValue: 1, numberPrecision: 0 },
					default: 1,
					description: 'Number of installments',
				},
				{
					displayName: 'Interest Rate',
					name: 'interestRate',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 0,
					description: 'Interest rate of the plan, in percent',
				},
			],
		},
	],
};

const redirectProperty: INodeProperties = {
	displayName: 'Redirect',
	name: 'redirect',
	type: 'fixedCollection',
	placeholder: 'Add redirect',
	default: {},
	description: 'Where the buyer is sent after paying',
	options: [
		{
			displayName: 'Redirect',
			name: 'values',
			values: [
				{ displayName: 'Button Name', name: 'buttonName', type: 'string', default: '', placeholder: 'e.g. Back to the shop' },
				{
					displayName: 'Delay in Seconds',
					name: 'delayInSeconds',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 0 },
					default: 5,
				},
				{ displayName: 'URL', name: 'url', type: 'string', default: '', placeholder: 'https://example.com/thanks' },
			],
		},
	],
};

function sortByName(props: INodeProperties[]): INodeProperties[] {
	return props.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** The required Name and Value in Cents of Create. */
export const createRequiredProperties: INodeProperties[] = [
	{ ...nameField.property, required: true },
	{ ...valueInCents.property, required: true },
];

/** Additional Fields of Create (every other create field of the spec), sorted by name. */
export const createOptions: INodeProperties[] = sortByName([
	...[...commonFields, ...createOnlyFields].map((f) => f.property),
	installmentOptionsProperty,
	redirectProperty,
	extraFieldsOption('payment link'),
]);

/** Update Fields (the update fields of the spec), sorted by name. */
export const updateOptions: INodeProperties[] = sortByName([
	...[nameField, valueInCents, ...commonFields, ...updateOnlyFields].map((f) => f.property),
	extraFieldsOption('payment link'),
]);

function fail(ctx: IExecuteFunctions, i: number, message: string): never {
	throw new NodeOperationError(ctx.getNode(), message, { itemIndex: i });
}

function readField(ctx: IExecuteFunctions, f: LinkField, value: unknown, i: number): unknown {
	const label = f.property.displayName;
	switch (f.kind) {
		case 'boolean':
			if (typeof value !== 'boolean') fail(ctx, i, `${label} must be true or false (got ${JSON.stringify(value)})`);
			return value;
		case 'cents':
			return checkCents.call(ctx, value, i, label);
		case 'integer':
			return checkInteger.call(ctx, value, i, label, f.min ?? 0);
		case 'text': {
			const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
			return text === '' ? undefined : text;
		}
	}
}

function readInstallmentOptions(ctx: IExecuteFunctions, value: unknown, i: number): IDataObject[] {
	return fixedList(value, 'option').map((o, n) => {
		const label = `Installment Options ${n + 1}`;
		const rate = Number(o.interestRate ?? 0);
		if (!Number.isFinite(rate) || rate < 0) {
			fail(ctx, i, `${label}: Interest Rate must be a number of at least 0 (got ${JSON.stringify(o.interestRate)})`);
		}
		return {
			installments: checkInteger.call(ctx, o.installments, i, `${label}: Installments`, 1),
			installmentValueInCents: checkCents.call(ctx, o.installmentValueInCents, i, `${label}: Installment Value in Cents`),
			interestRate: rate,
		};
	});
}

function readRedirect(ctx: IExecuteFunctions, value: unknown, i: number): IDataObject | undefined {
	const r = fixedValues(value);
	if (!Object.keys(r).length) return undefined;
	const url = typeof r.url === 'string' ? r.url.trim() : '';
	if (!/^https?:\/\/\S+$/i.test(url)) fail(ctx, i, `Redirect URL must start with http:// or https:// (got ${JSON.stringify(r.url ?? '')})`);
	const out: IDataObject = { url };
	const buttonName = typeof r.buttonName === 'string' ? r.buttonName.trim() : '';
	if (buttonName) out.buttonName = buttonName;
	if (r.delayInSeconds !== undefined && r.delayInSeconds !== '') {
		out.delayInSeconds = checkInteger.call(ctx, r.delayInSeconds, i, 'Redirect Delay in Seconds', 0);
	}
	return out;
}

/**
 * Builds the request body from the item's Name/Value (Create) and a collection's value: each
 * field goes to its place in the spec's body (`preference.*`, `paymentConfiguration.*` ...).
 */
export function readLinkBody(
	this: IExecuteFunctions,
	fields: IDataObject,
	i: number,
	mode: 'create' | 'update',
): IDataObject {
	const known = mode === 'create' ? [nameField, valueInCents, ...commonFields, ...createOnlyFields] : [nameField, valueInCents, ...commonFields, ...updateOnlyFields];
	const body: IDataObject = {};
	for (const f of known) {
		if (!(f.property.name in fields)) continue;
		const value = readField(this, f, fields[f.property.name], i);
		if (value !== undefined) setPath(body, f.path, value);
	}
	if (mode === 'create') {
		const options = readInstallmentOptions(this, fields.installmentOptions, i);
		if (options.length) setPath(body, ['paymentConfiguration', 'creditCard', 'installmentOptions'], options);
		const redirect = readRedirect(this, fields.redirect, i);
		if (redirect) setPath(body, ['advanced', 'redirect'], redirect);
	}
	const extra = parseJsonObject.call(this, fields.extraFields, i, 'Extra Fields (JSON)');
	return mergeBody(extra, body);
}

/** Plain words for a refused change of a link (spec part 3: locked once a sale exists). */
export function explainLinkRefusal(change: string): (error: PlatformError) => string | undefined {
	return (error) => {
		if (error.statusCode === 404) return 'No payment link with this ID exists in the credential\'s business.';
		if (/\bsales?\b|\bsold\b/i.test(error.message)) {
			return `This payment link already has a sale, so the platform no longer allows ${change}.`;
		}
		if (error.statusCode === 409 || error.statusCode === 422) {
			return `The platform refused ${change} in the link's current state (a link that has a sale can no longer be changed).`;
		}
		return undefined;
	};
}

/** Plain words for a link that does not exist. */
export function explainLinkNotFound(error: PlatformError): string | undefined {
	return error.statusCode === 404 ? 'No payment link with this ID exists in the credential\'s business.' : undefined;
}
