import type { INodeProperties } from 'n8n-workflow';

import type { Field } from '../../fields/fields';
import { field } from '../../fields/fields';
import { extraFieldsOption } from '../../transport/records';

/**
 * The payment link's body fields (spec part 2): each n8n field, with its kind (fields/fields.ts),
 * and where it goes in the request body (`preference.*`, `paymentConfiguration.*` ...).
 */
export interface LinkField extends Field {
	path: readonly string[];
}

function at(path: readonly string[], f: Field): LinkField {
	return { ...f, path };
}

export const valueInCents = at(
	['valueInCents'],
	field.cents('valueInCents', 'Value in Cents', 'Price charged through the link, in cents (e.g. 4990 for 49.90)'),
);

export const nameField = at(['name'], field.text('name', 'Name', 'Name of the payment link, shown to buyers'));

/** Fields both Create and Update accept. */
export const commonFields: LinkField[] = [
	at(['description'], field.text('description', 'Description', 'Description shown on the checkout page')),
	at(['checkoutTemplateId'], field.text('checkoutTemplateId', 'Checkout Template ID', 'ID of the checkout template the link uses')),
	at(
		['preference', 'acceptCorporationBuyer'],
		field.boolean('acceptCorporationBuyer', 'Accept Corporation Buyer', 'Whether companies may buy through the link'),
	),
	at(
		['preference', 'acceptNaturalPersonBuyer'],
		field.boolean('acceptNaturalPersonBuyer', 'Accept Natural Person Buyer', 'Whether individuals may buy through the link'),
	),
	at(['preference', 'requestAddress'], field.boolean('requestAddress', 'Request Address', 'Whether the checkout asks for the buyer\'s address')),
	at(
		['preference', 'requestDeliveryAddress'],
		field.boolean('requestDeliveryAddress', 'Request Delivery Address', 'Whether the checkout asks for a delivery address'),
	),
	at(['preference', 'showSellerName'], field.boolean('showSellerName', 'Show Seller Name', 'Whether the checkout shows the seller\'s name')),
	at(
		['paymentConfiguration', 'billet', 'dueDateDelay'],
		field.integer('dueDateDelay', 'Billet Due Date Delay (Days)', 0, 3, 'Days until a bank billet issued through the link is due'),
	),
	at(
		['paymentConfiguration', 'creditCard', 'defaultInstallments'],
		field.integer('defaultInstallments', 'Default Installments', 1, 1, 'Number of card installments selected by default'),
	),
	at(
		['paymentConfiguration', 'pix', 'expirationInMinutes'],
		field.integer('expirationInMinutes', 'Pix Expiration (Minutes)', 1, 30, 'Minutes a Pix code issued through the link stays valid'),
	),
];

/** Fields only Create accepts (spec part 2, payment link create body). */
export const createOnlyFields: LinkField[] = [
	at(
		['paymentConfiguration', 'creditCard', 'invoiceDescription'],
		field.text('invoiceDescription', 'Invoice Description', 'Text on the buyer\'s card statement'),
	),
	at(
		['supportContact', 'contactEmailId'],
		field.text('contactEmailId', 'Support Contact Email ID', 'ID of the support email address shown to buyers'),
	),
	at(
		['interestSettings', 'sellerAbsorbsInterest'],
		field.boolean('sellerAbsorbsInterest', 'Seller Absorbs Interest', 'Whether the seller pays the installment interest instead of the buyer'),
	),
];

/** Fields only Update accepts (spec part 2, update body). */
export const updateOnlyFields: LinkField[] = [
	at(
		['paymentConfiguration', 'creditCard', 'maxInstallments'],
		field.integer('maxInstallments', 'Max Installments', 1, 12, 'Largest number of card installments a buyer may choose'),
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
export const paymentLinkRequiredProperties: INodeProperties[] = [
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
