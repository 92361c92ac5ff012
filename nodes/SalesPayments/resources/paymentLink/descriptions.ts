import type { INodeProperties } from 'n8n-workflow';

import { extraFieldsOption } from '../../shared/records';

/**
 * The payment link's body fields (spec part 2): each n8n field with where it goes in the
 * request body (`preference.*`, `paymentConfiguration.*` ...) and how its value is read.
 */

export type Kind = 'boolean' | 'cents' | 'integer' | 'text';

/** One body field of the payment link: its n8n field and where it goes in the request body. */
export interface LinkField {
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

export const valueInCents: LinkField = {
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

export const nameField = textField('name', 'Name', ['name'], 'Name of the payment link, shown to buyers');

/** Fields both Create and Update accept. */
export const commonFields: LinkField[] = [
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
export const createOnlyFields: LinkField[] = [
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
export const updateOnlyFields: LinkField[] = [
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
