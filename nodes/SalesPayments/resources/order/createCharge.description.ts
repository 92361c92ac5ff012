import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { addressProperty, deliveryAddressProperty, documentProperty, phoneProperty } from '../../fields/contact';
import { customerLocator, paymentLinkLocator } from '../../fields/locators';
import { extraFieldsOption, fieldsCollection, noticeField } from '../../transport/records';

/**
 * The fields of Order > Create Charge (spec part 2, "Charge request"). Parameter names are those
 * saved in workflows and stay as they are; display names, order, defaults and display conditions
 * are free to change.
 *
 * Inside Items, Payments and the card, the fields a charge cannot do without come first (n8n's
 * guideline: required fields on top), then the optional ones in alphabetical order. The two
 * groups are joined with spreads so that n8n's lint, which alphabetizes literal lists of five or
 * more, does not move the required ones to the bottom again.
 */

/** Payment methods the spec shows (subscription filter `type`); others can be given by expression. */
export const PAYMENT_METHOD_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Bank Billet', value: 'bank-billet' },
	{ name: 'Credit Card', value: 'credit-card' },
	{ name: 'Crypto', value: 'crypto' },
	{ name: 'Debit Card', value: 'debit-card' },
	{ name: 'Pix', value: 'pix' },
];

/**
 * Methods that never carry a card: the card fields are hidden for them and a card stored with
 * them is not sent. Any other value (credit-card, debit-card, or a method given by expression)
 * keeps the card fields, so a method the list does not know can still be paid by card.
 */
export const NON_CARD_METHODS: readonly string[] = ['bank-billet', 'crypto', 'pix'];

const DEFAULT_METHOD = PAYMENT_METHOD_OPTIONS[4].value;

export const chargeNotice = noticeField(
	'charge',
	'This operation charges the buyer for real: it creates an order and collects the payments below. It is not a simulation, and it is never retried once the platform may have received it.',
);

const buyerName: INodeProperties = {
	displayName: 'Buyer Name',
	name: 'buyerName',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Maria Silva',
	description: 'Full name of the person paying',
};

const buyerEmail: INodeProperties = {
	displayName: 'Buyer Email',
	name: 'buyerEmail',
	type: 'string',
	required: true,
	placeholder: 'name@email.com',
	default: '',
	description: 'Email address of the person paying',
};

const participantRequired: INodeProperties[] = [
	{
		displayName: 'Commissioned ID',
		name: 'commissionedId',
		type: 'string',
		required: true,
		default: '',
		description: 'ID of the participant who receives the commission',
	},
];

const participantOptional: INodeProperties[] = [
	{
		displayName: 'Commission in Cents',
		name: 'commissionedValueInCents',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description: 'Fixed commission, in cents (e.g. 500 for 5.00)',
	},
	{
		displayName: 'Commission Percentage',
		name: 'commissionedPercentage',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 0,
		description: 'Commission as a percentage of the item (0 to 100)',
	},
];

const itemRequired: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Sourdough Masterclass',
		description: 'Name of the item, as the buyer sees it',
	},
	{
		displayName: 'Quantity',
		name: 'quantity',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'How many units the buyer pays for',
	},
	{
		displayName: 'Price in Cents',
		name: 'priceInCents',
		type: 'number',
		required: true,
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description: 'Unit price in cents: 1990 for 19.90',
	},
];

const itemOptional: INodeProperties[] = [
	{
		displayName: 'Commissioned Participants',
		name: 'commissionedParticipants',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add participant',
		default: {},
		description: 'Who receives a commission on this item',
		options: [
			{
				displayName: 'Participant',
				name: 'participant',
				values: [...participantRequired, ...participantOptional],
			},
		],
	},
	{ displayName: 'Description', name: 'description', type: 'string', default: '', description: 'Description of the item' },
	{
		displayName: 'External Reference ID',
		name: 'externalReferenceId',
		type: 'string',
		default: '',
		description: 'Your own ID of the item (for example its SKU)',
	},
	{
		displayName: 'Image Reference',
		name: 'imageReference',
		type: 'string',
		default: '',
		description: 'Image of the item (for example its URL)',
	},
	// A resource locator as everywhere else a payment link is named. Workflows saved when this
	// was a text box hold a plain string, which is read the same way.
	paymentLinkLocator('Payment link the item is sold through, if any', false),
];

const cardRequired: INodeProperties[] = [
	{
		displayName: 'Token',
		name: 'token',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description: "Card token from the platform's tokenization (never the card number)",
	},
	{
		displayName: 'Expires At Month',
		name: 'expiresAtMonth',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1, maxValue: 12, numberPrecision: 0 },
		default: 1,
	},
	{
		displayName: 'Expires At Year',
		name: 'expiresAtYear',
		type: 'number',
		required: true,
		typeOptions: { minValue: 2000, numberPrecision: 0 },
		default: 2030,
	},
];

const cardOptional: INodeProperties[] = [
	{
		displayName: 'Flag',
		name: 'flag',
		type: 'string',
		default: 'visa',
		description: 'Card brand as the platform names it. visa is the value the API documents; other brands can be typed in.',
	},
	{ displayName: 'Holder Name', name: 'holderName', type: 'string', default: '', placeholder: 'e.g. MARIA SILVA' },
	{
		displayName: 'Last 4 Numbers',
		name: 'last4Numbers',
		type: 'string',
		default: '',
		placeholder: 'e.g. 4242',
	},
];

const paymentRequired: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		required: true,
		options: PAYMENT_METHOD_OPTIONS,
		default: DEFAULT_METHOD,
		description:
			'How the buyer pays. For a method the list does not show, switch this field to Expression and type the value the platform uses.',
	},
	{
		displayName: 'Value in Cents',
		name: 'valueInCents',
		type: 'number',
		required: true,
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description: 'Amount of this payment in cents: 9980 for 99.80',
	},
];

const paymentOptional: INodeProperties[] = [
	{
		displayName: 'Card',
		name: 'creditCard',
		type: 'fixedCollection',
		placeholder: 'Add card',
		default: {},
		description: 'The tokenized card paying (credit or debit card methods)',
		displayOptions: { hide: { method: [...NON_CARD_METHODS] } },
		options: [
			{
				displayName: 'Card',
				name: 'values',
				values: [...cardRequired, ...cardOptional],
			},
		],
	},
	{
		displayName: 'Number of Installments',
		name: 'numberInstallments',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'In how many installments the buyer pays this amount',
	},
];

const items: INodeProperties = {
	displayName: 'Items',
	name: 'items',
	type: 'fixedCollection',
	required: true,
	typeOptions: { multipleValues: true },
	placeholder: 'Add item',
	default: {},
	description: 'What the buyer pays for',
	options: [{ displayName: 'Item', name: 'item', values: [...itemRequired, ...itemOptional] }],
};

const payments: INodeProperties = {
	displayName: 'Payments',
	name: 'payments',
	type: 'fixedCollection',
	required: true,
	typeOptions: { multipleValues: true },
	placeholder: 'Add payment',
	default: {},
	description: 'How the buyer pays; several payments split the amount',
	options: [{ displayName: 'Payment', name: 'payment', values: [...paymentRequired, ...paymentOptional] }],
};

const buyerDetails: INodeProperties = {
	displayName: 'Buyer Details',
	name: 'buyerDetails',
	type: 'collection',
	placeholder: 'Add buyer detail',
	default: {},
	options: [
		addressProperty,
		customerLocator('An existing customer of the business who is the buyer', false),
		deliveryAddressProperty,
		documentProperty,
		phoneProperty,
	],
};

const businessId: INodeProperties = {
	displayName: 'Business ID',
	name: 'businessId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 3f1c2a9e-7b7d-4c1e-9a55-0d2f6c1b8e21',
	description: 'Business that receives the charge. Leave empty to use the Business ID of the credential.',
};

const metadata: INodeProperties = {
	displayName: 'Metadata',
	name: 'metadata',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add metadata',
	default: {},
	description: 'Key/value pairs stored with the order',
	options: [
		{
			displayName: 'Entry',
			name: 'entry',
			values: [
				{ displayName: 'Key', name: 'key', type: 'string', default: '' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
};

const additionalFields: INodeProperties = fieldsCollection('additional', [extraFieldsOption('charge request')]);

/** The panel, top to bottom: the warning, who pays, for what, how; then the optional parts. */
export const createChargeProperties: INodeProperties[] = [
	chargeNotice,
	buyerName,
	buyerEmail,
	items,
	payments,
	buyerDetails,
	businessId,
	metadata,
	additionalFields,
];
