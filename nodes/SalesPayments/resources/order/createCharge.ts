import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { addressProperty, deliveryAddressProperty, documentProperty, phoneProperty, readContactGroups } from '../../shared/contact';
import { businessIdOf } from '../../shared/credentials';
import { fieldError } from '../../shared/errors';
import { customerLocator } from '../../shared/locators';
import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { extraFieldsOption, fixedList, fixedValues, mergeBody } from '../../shared/records';
import {
	checkCents,
	checkEmail,
	checkId,
	checkInteger,
	compact,
	optionalText as text,
	parseJsonObject,
	requireString,
} from '../../shared/validation';


const properties: INodeProperties[] = [
	{
		displayName:
			'This operation charges the buyer for real: it creates an order and collects the payments below. It is not a simulation, and it is never retried once the platform may have received it.',
		name: 'chargeNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Business ID',
		name: 'businessId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 3f1c2a9e-7b7d-4c1e-9a55-0d2f6c1b8e21',
		description: 'Business that receives the charge. Leave empty to use the Business ID of the credential.',
	},
	{
		displayName: 'Buyer Name',
		name: 'buyerName',
		type: 'string',
		required: true,
		default: '',
		description: 'Full name of the person paying',
	},
	{
		displayName: 'Buyer Email',
		name: 'buyerEmail',
		type: 'string',
		required: true,
		placeholder: 'name@email.com',
		default: '',
		description: 'Email address of the person paying',
	},
	{
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
	},
	{
		displayName: 'Items',
		name: 'items',
		type: 'fixedCollection',
		required: true,
		typeOptions: { multipleValues: true },
		placeholder: 'Add item',
		default: {},
		description: 'What the buyer pays for',
		options: [
			{
				displayName: 'Item',
				name: 'item',
				values: [
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
								values: [
									{
										displayName: 'Commission in Cents',
										name: 'commissionedValueInCents',
										type: 'number',
										typeOptions: { minValue: 0, numberPrecision: 0 },
										default: 0,
										description: 'Fixed commission, in cents',
									},
									{
										displayName: 'Commission Percentage',
										name: 'commissionedPercentage',
										type: 'number',
										typeOptions: { minValue: 0, maxValue: 100 },
										default: 0,
										description: 'Commission as a percentage of the item (0 to 100)',
									},
									{
										displayName: 'Commissioned ID',
										name: 'commissionedId',
										type: 'string',
										default: '',
										description: 'ID of the participant who receives the commission',
									},
								],
							},
						],
					},
					{ displayName: 'Description', name: 'description', type: 'string', default: '' },
					{
						displayName: 'External Reference ID',
						name: 'externalReferenceId',
						type: 'string',
						default: '',
						description: 'Your own ID of the item',
					},
					{
						displayName: 'Image Reference',
						name: 'imageReference',
						type: 'string',
						default: '',
						description: 'Image of the item (for example its URL)',
					},
					{ displayName: 'Name', name: 'name', type: 'string', default: '', description: 'Name of the item' },
					{
						displayName: 'Payment Link ID',
						name: 'paymentLinkId',
						type: 'string',
						default: '',
						description: 'Payment link the item is sold through, if any',
					},
					{
						displayName: 'Price in Cents',
						name: 'priceInCents',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 0 },
						default: 0,
						description: 'Unit price in cents (e.g. 1990 for 19.90)',
					},
					{
						displayName: 'Quantity',
						name: 'quantity',
						type: 'number',
						typeOptions: { minValue: 1, numberPrecision: 0 },
						default: 1,
					},
				],
			},
		],
	},
	{
		displayName: 'Payments',
		name: 'payments',
		type: 'fixedCollection',
		required: true,
		typeOptions: { multipleValues: true },
		placeholder: 'Add payment',
		default: {},
		description: 'How the buyer pays; several payments split the amount',
		options: [
			{
				displayName: 'Payment',
				name: 'payment',
				values: [
					{
						displayName: 'Credit Card',
						name: 'creditCard',
						type: 'fixedCollection',
						placeholder: 'Add card',
						default: {},
						description: 'The tokenized card, for card payments',
						options: [
							{
								displayName: 'Card',
								name: 'values',
								values: [
									{
										displayName: 'Expires At Month',
										name: 'expiresAtMonth',
										type: 'number',
										typeOptions: { minValue: 1, maxValue: 12, numberPrecision: 0 },
										default: 1,
									},
									{
										displayName: 'Expires At Year',
										name: 'expiresAtYear',
										type: 'number',
										typeOptions: { minValue: 2000, numberPrecision: 0 },
										default: 2030,
									},
									{
										displayName: 'Flag',
										name: 'flag',
										type: 'string',
										default: 'visa',
										description:
											'Card brand as the platform names it. visa is the value the API documents; other brands can be typed in.',
									},
									{ displayName: 'Holder Name', name: 'holderName', type: 'string', default: '' },
									{
										displayName: 'Last 4 Numbers',
										name: 'last4Numbers',
										type: 'string',
										default: '',
										placeholder: 'e.g. 4242',
									},
									{
										displayName: 'Token',
										name: 'token',
										type: 'string',
										typeOptions: { password: true },
										default: '',
										description: 'Card token from the platform\'s tokenization (never the card number)',
									},
								],
							},
						],
					},
					{
						displayName: 'Method',
						name: 'method',
						type: 'string',
						default: 'pix',
						description:
							'Payment method as the platform names it. pix is the value the API documents; other methods the platform accepts can be typed in.',
					},
					{
						displayName: 'Number of Installments',
						name: 'numberInstallments',
						type: 'number',
						typeOptions: { minValue: 1, numberPrecision: 0 },
						default: 1,
					},
					{
						displayName: 'Value in Cents',
						name: 'valueInCents',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 0 },
						default: 0,
						description: 'Amount of this payment, in cents (e.g. 1990 for 19.90)',
					},
				],
			},
		],
	},
	{
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
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		options: [extraFieldsOption('charge request')],
	},
];

function readItems(ctx: IExecuteFunctions, i: number): IDataObject[] {
	const entries = fixedList(ctx.getNodeParameter('items', i, {}), 'item');
	if (!entries.length) fieldError(ctx, 'Items: add at least one item', i);
	return entries.map((entry, n) => {
		const label = `Items ${n + 1}`;
		const name = text(entry.name);
		if (!name) fieldError(ctx, `${label}: Name is required`, i);
		const item: IDataObject = {
			name,
			quantity: checkInteger.call(ctx, entry.quantity ?? 1, i, `${label}: Quantity`, 1),
			priceInCents: checkCents.call(ctx, entry.priceInCents, i, `${label}: Price in Cents`),
			externalReferenceId: text(entry.externalReferenceId),
			description: text(entry.description),
			imageReference: text(entry.imageReference),
			paymentLinkId: text(entry.paymentLinkId),
		};
		const participants = fixedList(entry.commissionedParticipants, 'participant').map((p, m) => {
			const pLabel = `${label}: Commissioned Participants ${m + 1}`;
			const commissionedId = text(p.commissionedId);
			if (!commissionedId) fieldError(ctx, `${pLabel}: Commissioned ID is required`, i);
			const participant: IDataObject = { commissionedId };
			if (p.commissionedValueInCents !== undefined && p.commissionedValueInCents !== '') {
				participant.commissionedValueInCents = checkCents.call(ctx, p.commissionedValueInCents, i, `${pLabel}: Commission in Cents`);
			}
			if (p.commissionedPercentage !== undefined && p.commissionedPercentage !== '') {
				const pct = Number(p.commissionedPercentage);
				if (!Number.isFinite(pct) || pct < 0 || pct > 100) {
					fieldError(ctx, `${pLabel}: Commission Percentage must be a number from 0 to 100 (got ${JSON.stringify(p.commissionedPercentage)})`, i);
				}
				participant.commissionedPercentage = pct;
			}
			return participant;
		});
		if (participants.length) item.commissionedParticipants = participants;
		return compact(item);
	});
}

function readPayments(ctx: IExecuteFunctions, i: number): IDataObject[] {
	const entries = fixedList(ctx.getNodeParameter('payments', i, {}), 'payment');
	if (!entries.length) fieldError(ctx, 'Payments: add at least one payment', i);
	return entries.map((entry, n) => {
		const label = `Payments ${n + 1}`;
		const method = text(entry.method);
		if (!method) fieldError(ctx, `${label}: Method is required`, i);
		const payment: IDataObject = {
			method,
			numberInstallments: checkInteger.call(ctx, entry.numberInstallments ?? 1, i, `${label}: Number of Installments`, 1),
			valueInCents: checkCents.call(ctx, entry.valueInCents, i, `${label}: Value in Cents`),
		};
		const card = fixedValues(entry.creditCard);
		if (Object.keys(card).length) {
			const token = text(card.token);
			if (!token) fieldError(ctx, `${label}: Credit Card Token is required when a card is given`, i);
			const month = checkInteger.call(ctx, card.expiresAtMonth, i, `${label}: Credit Card Expires At Month`, 1);
			if (month > 12) fieldError(ctx, `${label}: Credit Card Expires At Month must be from 1 to 12 (got ${month})`, i);
			const last4 = text(card.last4Numbers);
			if (last4 !== undefined && !/^\d{4}$/.test(last4)) {
				fieldError(ctx, `${label}: Credit Card Last 4 Numbers must be exactly four digits`, i);
			}
			payment.creditCard = compact({
				token,
				flag: text(card.flag),
				last4Numbers: last4,
				expiresAtMonth: month,
				expiresAtYear: checkInteger.call(ctx, card.expiresAtYear, i, `${label}: Credit Card Expires At Year`, 2000),
				holderName: text(card.holderName),
			});
		}
		return payment;
	});
}

/** Explains the platform's refusals of a charge in plain words. */
function explainCharge(error: { statusCode: number; message: string }): string | undefined {
	if (error.statusCode === 403) return 'The API key may not charge for this business (check the Business ID).';
	if (error.statusCode === 400 || error.statusCode === 422) return 'The platform refused the charge request; no order was created.';
	return undefined;
}

export const createCharge: OperationDef = {
	value: 'createCharge',
	name: 'Create Charge',
	action: 'Charge a buyer (creates a real order and collects payment)',
	description:
		'Charge the buyer: creates an order and collects payment. Not a simulation. Never retried automatically.',
	properties,
	async execute(i) {
		const buyerName = requireString.call(this, 'buyerName', i, 'Buyer Name');
		const buyerEmail = checkEmail.call(this, requireString.call(this, 'buyerEmail', i, 'Buyer Email'), i, 'Buyer Email');
		const details = this.getNodeParameter('buyerDetails', i, {}) as IDataObject;
		// The buyer's customer is a resource locator inside the collection: read its plain value.
		const customerId =
			details.customerId === undefined
				? undefined
				: text(this.getNodeParameter('buyerDetails.customerId', i, '', { extractValue: true }));
		if (customerId !== undefined) checkId(this, customerId, 'Customer', i);
		const buyer: IDataObject = {
			...(customerId ? { customerId } : {}),
			name: buyerName,
			email: buyerEmail,
			...readContactGroups.call(this, details, i),
		};
		const items = readItems(this, i);
		const payments = readPayments(this, i);
		const metadata = fixedList(this.getNodeParameter('metadata', i, {}), 'entry').map((e, n) => {
			const key = text(e.key);
			if (!key) fieldError(this, `Metadata ${n + 1}: Key is required`, i);
			return { key, value: e.value === undefined || e.value === null ? '' : String(e.value) };
		});
		const additional = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
		const extra = parseJsonObject.call(this, additional.extraFields, i, 'Extra Fields (JSON)');
		const businessId = await businessIdOf(this, this.getNodeParameter('businessId', i, ''), i);
		const body = mergeBody(extra, {
			businessId,
			buyer,
			items,
			...(metadata.length ? { metadata } : {}),
			payments,
		});
		// KEYS only (spec 4.6): the business is named by `businessId` in the body. A charge moves
		// money, so it is not repeated once the platform may have processed it (idempotent false).
		return await apiRequest.call(this, {
			method: 'POST',
			path: '/orders/create-charge',
			body,
			idempotent: false,
			itemIndex: i,
			explain: explainCharge,
			acceptedHint:
				'the charge has probably been created. Look for the order (Order > Get with the order ID from the platform, or the business\'s orders) before charging again.',
		});
	},
};
