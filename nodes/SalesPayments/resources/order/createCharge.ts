import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readContactGroups } from '../../fields/contact';
import { businessIdOf } from '../../transport/credentials';
import { fieldError } from '../../transport/errors';
import type { OperationDef } from '../../fields/types';
import { NO_RECORD } from '../../fields/types';
import { apiRequest } from '../../transport/transport';
import { fixedList, fixedValues, mergeBody } from '../../transport/records';
import {
	checkCents,
	checkEmail,
	checkId,
	checkInteger,
	checkNumber,
	compact,
	isLocator,
	parseJsonObject,
	readText,
	requireString,
} from '../../fields/validation';
import { createChargeProperties, NON_CARD_METHODS } from './createCharge.description';
import { ENDPOINTS } from '../../transport/endpoints';

/**
 * The item's payment link: a resource locator (From list / By ID), or the plain text that
 * workflows saved before it was one hold. Read through n8n so that the locator's value is
 * extracted as for every other locator.
 */
function itemPaymentLink(ctx: IExecuteFunctions, i: number, index: number, label: string): string | undefined {
	const raw = ctx.getNodeParameter(`items.item[${index}].paymentLinkId`, i, '', { extractValue: true }) as unknown;
	const value = readText(ctx, isLocator(raw) ? raw.value : raw, `${label}: Payment Link`, i);
	return value === undefined ? undefined : checkId(ctx, value, `${label}: Payment Link`, i);
}

function readItems(ctx: IExecuteFunctions, i: number): IDataObject[] {
	const param = ctx.getNodeParameter('items', i, {}) as IDataObject;
	const raw = param.item;
	const entries = fixedList(param, 'item');
	if (!entries.length) fieldError(ctx, 'Items: add at least one item', i);
	return entries.map((entry, n) => {
		const label = `Items ${n + 1}`;
		const text = (value: unknown, field: string) => readText(ctx, value, `${label}: ${field}`, i);
		const name = text(entry.name, 'Name');
		if (!name) fieldError(ctx, `${label}: Name is required`, i);
		const index = Array.isArray(raw) ? raw.indexOf(entry) : n;
		const item: IDataObject = {
			name,
			quantity: checkInteger.call(ctx, entry.quantity ?? 1, i, `${label}: Quantity`, 1),
			priceInCents: checkCents.call(ctx, entry.priceInCents, i, `${label}: Price in Cents`),
			externalReferenceId: text(entry.externalReferenceId, 'External Reference ID'),
			description: text(entry.description, 'Description'),
			imageReference: text(entry.imageReference, 'Image Reference'),
			paymentLinkId: entry.paymentLinkId === undefined ? undefined : itemPaymentLink(ctx, i, index, label),
		};
		const participants = fixedList(entry.commissionedParticipants, 'participant').map((p, m) => {
			const pLabel = `${label}: Commissioned Participants ${m + 1}`;
			const commissionedId = readText(ctx, p.commissionedId, `${pLabel}: Commissioned ID`, i);
			if (!commissionedId) fieldError(ctx, `${pLabel}: Commissioned ID is required`, i);
			const participant: IDataObject = { commissionedId };
			if (p.commissionedValueInCents !== undefined && p.commissionedValueInCents !== '') {
				participant.commissionedValueInCents = checkCents.call(ctx, p.commissionedValueInCents, i, `${pLabel}: Commission in Cents`);
			}
			if (p.commissionedPercentage !== undefined && p.commissionedPercentage !== '') {
				participant.commissionedPercentage = checkNumber.call(ctx, p.commissionedPercentage, i, `${pLabel}: Commission Percentage`, 0, 100);
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
		const text = (value: unknown, field: string) => readText(ctx, value, `${label}: ${field}`, i);
		const method = text(entry.method, 'Method');
		if (!method) fieldError(ctx, `${label}: Method is required`, i);
		const payment: IDataObject = {
			method,
			numberInstallments: checkInteger.call(ctx, entry.numberInstallments ?? 1, i, `${label}: Number of Installments`, 1),
			valueInCents: checkCents.call(ctx, entry.valueInCents, i, `${label}: Value in Cents`),
		};
		// The card is hidden for methods that never use one; one stored with them is not sent.
		const card = NON_CARD_METHODS.includes(method) ? {} : fixedValues(entry.creditCard);
		if (Object.keys(card).length) {
			const token = text(card.token, 'Card Token');
			if (!token) fieldError(ctx, `${label}: Card Token is required when a card is given`, i);
			const month = checkInteger.call(ctx, card.expiresAtMonth, i, `${label}: Card Expires At Month`, 1);
			if (month > 12) fieldError(ctx, `${label}: Card Expires At Month must be from 1 to 12 (got ${month})`, i);
			const last4 = text(card.last4Numbers, 'Card Last 4 Numbers');
			if (last4 !== undefined && !/^\d{4}$/.test(last4)) {
				fieldError(ctx, `${label}: Card Last 4 Numbers must be exactly four digits`, i);
			}
			// The spec's field is `creditCard`, whatever the card method.
			payment.creditCard = compact({
				token,
				flag: text(card.flag, 'Card Flag'),
				last4Numbers: last4,
				expiresAtMonth: month,
				expiresAtYear: checkInteger.call(ctx, card.expiresAtYear, i, `${label}: Card Expires At Year`, 2000),
				holderName: text(card.holderName, 'Card Holder Name'),
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
	action: 'Charge a buyer for real (creates a real order and collects payment)',
	description:
		'Charge the buyer for real: creates an order and collects payment. Not a simulation. Never retried automatically.',
	recordKey: NO_RECORD,
	properties: createChargeProperties,
	async execute(i) {
		const buyerName = requireString.call(this, 'buyerName', i, 'Buyer Name');
		const buyerEmail = checkEmail.call(this, requireString.call(this, 'buyerEmail', i, 'Buyer Email'), i, 'Buyer Email');
		const details = this.getNodeParameter('buyerDetails', i, {}) as IDataObject;
		// The buyer's customer is a resource locator inside the collection: read its plain value.
		const customerId =
			details.customerId === undefined
				? undefined
				: readText(this, this.getNodeParameter('buyerDetails.customerId', i, '', { extractValue: true }), 'Customer', i);
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
			const key = readText(this, e.key, `Metadata ${n + 1}: Key`, i);
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
			...ENDPOINTS.order.createCharge,
			body,
			idempotent: false,
			itemIndex: i,
			explain: explainCharge,
			acceptedHint:
				'the charge has probably been created. Look for the order (Order > Get with the order ID from the platform, or the business\'s orders) before charging again.',
		});
	},
};
