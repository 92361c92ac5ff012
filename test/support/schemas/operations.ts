/**
 * What each operation of the action node outputs, one item at a time: the record shapes of
 * shapes.ts put together per operation, with the fields its options add (Simplify's lifted
 * fields, Movement's Summary) and the node's own answer where the platform may say nothing
 * (`{ id, success: true }`, `{ id, deleted: true }` ...). Add Decimal Amounts is derived in
 * files.ts from the operation's fields.
 */
import { ORDER_SIMPLE_FIELDS } from '../../../nodes/SalesPayments/resources/order/get';
import { REFUND_SIMPLE_FIELDS } from '../../../nodes/SalesPayments/resources/refund/getMany';
import type { JsonSchema } from './shapes';
import * as s from './shapes';

export interface OperationSchema {
	/** What one output item is, for people reading the file. */
	about: string;
	properties: Record<string, JsonSchema>;
	/** Fields the node itself always writes, whatever the platform answers. */
	required?: string[];
}

const NOT_SHOWN = 'The spec does not show these fields: they are the simulator\'s, and the platform may differ.';
const EMPTY = (what: string) => `When the platform answers nothing, the node outputs ${what}.`;

/** Subscription Simplify's fields, in its order (subscription/helpers.ts). */
const SUBSCRIPTION_SIMPLE_FIELDS = ['id', 'name', 'status', 'subscriptionPaymentStatus', 'customerEmail', 'productId', 'productName', 'recurrenceValueInCents', 'periodicity', 'paymentMethod', 'nextPayment', 'expiration', 'subscribedAt', 'createdAt'];

/** The fields of the default (Simplify on) output first, in its order, then those Simplify leaves out. */
function simpleFirst(simple: readonly string[], properties: Record<string, JsonSchema>): Record<string, JsonSchema> {
	const first = simple.filter((key) => key in properties);
	const rest = Object.keys(properties).filter((key) => !first.includes(key));
	return Object.fromEntries([...first, ...rest].map((key) => [key, properties[key]]));
}

/** The node's answer for webhook calls the platform answers with nothing (webhook/helpers.ts: resultOr with { id, success: true }). */
const success = { id: s.str, success: s.bool };

export const OPERATION_SCHEMAS: Record<string, OperationSchema> = {
	'business.getBalance': { about: "The balance of the credential's business.", properties: s.balance },
	'business.getMany': { about: "One item per business of the API key's owner.", properties: s.business },
	'commission.getMany': { about: `One item per commission. ${NOT_SHOWN}`, properties: s.commission },
	'customer.create': { about: `The customer created. ${NOT_SHOWN}`, properties: s.customer },
	'customer.delete': { about: 'Whether the customer was removed.', properties: { deleted: s.bool } },
	'customer.get': { about: `The customer. ${NOT_SHOWN}`, properties: s.customer },
	'customer.getMany': { about: `One item per customer. ${NOT_SHOWN}`, properties: s.customer },
	'customer.update': { about: `The customer as updated. ${NOT_SHOWN}`, properties: s.customer },
	'identity.approveDevice': { about: 'The approved device.', properties: s.device },
	'identity.refreshToken': {
		about: 'The new token pair in newTokens (its inner fields are not shown: the simulator\'s).',
		properties: { newTokens: s.obj({ token: s.str, refreshToken: s.str, authenticationType: s.str, expiresAt: s.str }) },
	},
	'identity.registerDevice': { about: 'The registered device, with the IP it was registered from.', properties: { ...s.device, ip: s.str } },
	'identity.requestEmailOtp': { about: 'Whether the code was sent by email.', properties: { otpHasBeenSentToEmail: s.bool } },
	'identity.requestSmsOtp': { about: 'Whether the code was sent by SMS.', properties: { otpHasBeenSentToPhone: s.bool } },
	'identity.signIn': {
		about: 'The token pair and the signed-in account (the inner fields of account, user and observation are not shown: the simulator\'s).',
		properties: {
			token: s.str,
			refreshToken: s.str,
			authenticationType: s.str,
			account: s.obj({ id: s.str, status: s.str }),
			user: s.obj({ id: s.str, name: s.str, email: s.str, phone: s.str, twoFactorEnabled: s.bool }),
			loggedAt: s.str,
			observation: s.obj({
				twoFactorRequired: s.bool,
				nextStep: s.str,
				message: s.str,
				accountStatus: s.str,
				channelsPendingValidation: s.arr(s.str),
			}),
		},
	},
	'identity.validateAccount': {
		about: 'The account status and the channels still pending validation.',
		properties: { accountStatus: s.str, channelsPendingValidation: s.arr(s.str) },
	},
	'identity.verify2fa': { about: 'The full token pair.', properties: { token: s.str, refreshToken: s.str, code: s.str } },
	'movement.getMany': {
		about: `One item per movement; with Output Summary, one item with count and totalValue (cents). ${NOT_SHOWN}`,
		properties: { ...s.movement, count: s.orNull(s.int), totalValue: s.orNull(s.int) },
	},
	'offer.getMany': { about: `One item per offer of the product. ${NOT_SHOWN}`, properties: s.offer },
	'order.createCharge': { about: 'The ID of the order the charge created.', properties: { orderId: s.str } },
	'order.get': {
		about: 'The order. Simplify leaves out coupon, statusHistory and metadata. The inner fields of the buyer, items, payments and history are not shown: the simulator keeps the charge request\'s.',
		properties: simpleFirst(ORDER_SIMPLE_FIELDS, s.order),
	},
	'paymentLink.create': { about: `The payment link created. ${NOT_SHOWN}`, properties: s.paymentLink },
	'paymentLink.delete': {
		about: `Whether the link was deleted. ${EMPTY('the link\'s id and deleted: true')}`,
		properties: { id: s.str, deleted: s.bool },
	},
	'paymentLink.get': { about: `The payment link. ${NOT_SHOWN}`, properties: s.paymentLink },
	'paymentLink.getMany': { about: `One item per payment link. ${NOT_SHOWN}`, properties: s.paymentLink },
	'paymentLink.publish': {
		about: `The published link. ${NOT_SHOWN} ${EMPTY('the link\'s id and published: true')}`,
		properties: { ...s.paymentLink, published: s.bool },
	},
	'paymentLink.unpublish': {
		about: `The unpublished link. ${NOT_SHOWN} ${EMPTY('the link\'s id and unpublished: true')}`,
		properties: { ...s.paymentLink, unpublished: s.bool },
	},
	'paymentLink.update': { about: "The link's id and whether it was updated.", properties: { id: s.str, updated: s.bool }, required: ['id'] },
	'paymentLink.uploadImage': { about: 'The image now set on the link.', properties: s.image },
	'pixel.create': { about: `The pixel created. ${NOT_SHOWN}`, properties: s.pixel },
	'pixel.delete': { about: `Whether the pixel was deleted. ${EMPTY('the pixel\'s id and deleted: true')}`, properties: { id: s.str, deleted: s.bool } },
	'pixel.get': { about: `The pixel. ${NOT_SHOWN}`, properties: s.pixel },
	'pixel.getMany': { about: `One item per pixel. ${NOT_SHOWN}`, properties: s.pixel },
	'pixel.update': { about: `The pixel as updated. ${NOT_SHOWN}`, properties: s.pixel },
	'product.getMany': { about: `One item per product. ${NOT_SHOWN}`, properties: s.product },
	'refund.getMany': {
		about: 'One item per refund request. Simplify keeps id, orderId, status, valueInCents, buyerEmail, productName, motive and the dates.',
		properties: simpleFirst(REFUND_SIMPLE_FIELDS, s.refund),
	},
	'sale.getMany': { about: `One item per sale. ${NOT_SHOWN}`, properties: s.sale },
	'subscription.get': {
		about: 'The subscription with its recurrences (whose fields are not shown: the simulator\'s). Simplify lifts customerEmail, productId and productName to the top.',
		properties: simpleFirst(SUBSCRIPTION_SIMPLE_FIELDS, { ...s.subscriptionCommon, ...s.subscriptionSimple, recurrences: s.arr(s.recurrence) }),
	},
	'subscription.getMany': {
		about: 'One item per subscription. Simplify lifts customerEmail, productId and productName to the top.',
		properties: simpleFirst(SUBSCRIPTION_SIMPLE_FIELDS, { ...s.subscriptionCommon, createdAt: s.str, nextPayment: s.str, ...s.subscriptionSimple }),
	},
	'voucher.cancelRedemption': { about: `The voucher, usable again. ${NOT_SHOWN}`, properties: s.voucher },
	'voucher.getByCode': { about: `The voucher. ${NOT_SHOWN}`, properties: s.voucher },
	'voucher.redeem': { about: `The redeemed voucher. ${NOT_SHOWN}`, properties: s.voucher },
	'webhook.activate': { about: `The webhook, now active. ${EMPTY('its id and success: true')}`, properties: { ...s.webhook, ...success } },
	'webhook.create': { about: 'The webhook created.', properties: s.webhook },
	'webhook.deactivate': { about: `The webhook, now inactive. ${EMPTY('its id and success: true')}`, properties: { ...s.webhook, ...success } },
	'webhook.delete': { about: `Whether the webhook was deleted. ${EMPTY('its id and success: true')}`, properties: { id: s.str, deleted: s.bool, success: s.bool } },
	'webhook.flush': {
		about: `How many notifications were discarded. ${NOT_SHOWN} ${EMPTY('its id and success: true')}`,
		properties: { id: s.str, flushed: s.int, messagesAvailable: s.int, success: s.bool },
	},
	'webhook.get': { about: 'The webhook.', properties: { ...s.webhook } },
	'webhook.getMany': { about: 'One item per webhook of the business.', properties: s.webhook },
	'webhook.getQueue': { about: "The webhook's queue of failed notifications.", properties: { ...s.webhookQueue } },
	'webhook.resume': {
		about: `How many notifications are sent again. ${NOT_SHOWN} ${EMPTY('its id and success: true')}`,
		properties: { id: s.str, resumed: s.int, success: s.bool },
	},
	'webhook.update': { about: `The webhook as updated. ${EMPTY('its id and success: true')}`, properties: { ...s.webhook, ...success } },
	'withdrawRequest.getMany': { about: `One item per withdraw request. ${NOT_SHOWN}`, properties: s.withdrawRequest },
};
