import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { NodeContext } from '../transport/errors';
import { fieldError } from '../transport/errors';
import { checkEmail, checkOptions, readText } from './validation';

/**
 * What the Webhook resource and the trigger node share: the registrable events, the failure
 * contact fields, and reading a webhook record from an answer.
 */

/**
 * The ten event values a webhook can subscribe to (spec part 6, "Registrable event values").
 * Sorted by name, as the editor lists them.
 */
export const WEBHOOK_EVENT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Order Canceled', value: 'order.canceled', description: 'An order was canceled' },
	{ name: 'Order Chargeback', value: 'order.chargeback', description: 'A chargeback was received for an order' },
	{ name: 'Order Created', value: 'order.created', description: 'An order was created' },
	{ name: 'Order Paid', value: 'order.paid', description: 'An order was fully paid' },
	{ name: 'Order Partially Paid', value: 'order.partiallyPaid', description: 'An order was partially paid' },
	{ name: 'Order Refunded', value: 'order.refunded', description: 'An order was refunded' },
	{ name: 'Order Updated', value: 'order.updated', description: 'An order was updated' },
	{ name: 'Subscription Activated', value: 'subscription.activated', description: 'A subscription was activated' },
	{ name: 'Subscription Created', value: 'subscription.created', description: 'A subscription was created' },
	{ name: 'Subscription Updated', value: 'subscription.updated', description: 'A subscription was updated' },
];

export const WEBHOOK_EVENTS: readonly string[] = WEBHOOK_EVENT_OPTIONS.map((o) => String(o.value));

/** Webhook statuses (spec part 3). */
export const WEBHOOK_STATUSES = ['active', 'inactive', 'unavailable'] as const;

/**
 * Catalogue kinds (spec part 6, "Event kinds of the event catalogue") that name the same thing
 * as a registrable value. Kinds without an obvious registrable twin (payments, recurrences,
 * subscription.canceled ...) are left as delivered.
 */
const CATALOGUE_TO_REGISTRABLE: Record<string, string> = {
	ORDER_CREATED: 'order.created',
	ORDER_UPDATED: 'order.updated',
	ORDER_PAID: 'order.paid',
	ORDER_PARTIALLY_PAID: 'order.partiallyPaid',
	ORDER_CANCELED: 'order.canceled',
	ORDER_CANCELLED: 'order.canceled',
	ORDER_REFUNDED: 'order.refunded',
	ORDER_CHARGEDBACK: 'order.chargeback',
	ORDER_CHARGEBACK: 'order.chargeback',
};

/**
 * Turns the event kind of a delivery into the registrable value it stands for:
 * `ORDER_PAID` -> `order.paid`, `Order.PartiallyPaid` -> `order.partiallyPaid`,
 * `order.chargedback` -> `order.chargeback`. Unknown kinds come back trimmed, unchanged.
 */
export function normalizeEventKind(kind: string): string {
	const text = kind.trim();
	const upper = text.toUpperCase();
	if (CATALOGUE_TO_REGISTRABLE[upper]) return CATALOGUE_TO_REGISTRABLE[upper];
	const dotted = upper.replace(/[._\s-]+/g, '');
	for (const [catalogue, value] of Object.entries(CATALOGUE_TO_REGISTRABLE)) {
		if (catalogue.replace(/_/g, '') === dotted) return value;
	}
	const registrable = WEBHOOK_EVENTS.find((value) => value.toLowerCase() === text.toLowerCase());
	return registrable ?? text;
}

/** The Events multi-select (required on Create and the trigger; a filter or a change elsewhere). */
export function eventsProperty(description: string, required = true): INodeProperties {
	return { displayName: 'Events', name: 'events', type: 'multiOptions', options: WEBHOOK_EVENT_OPTIONS, default: [], required, description };
}

/** Webhook statuses as options (spec part 3). */
export const WEBHOOK_STATUS_OPTIONS = WEBHOOK_STATUSES.map((value) => ({ name: value.charAt(0).toUpperCase() + value.slice(1), value }));

/** Reads a multi-select of events and checks every value is registrable; duplicates dropped. */
export function checkEvents(ctx: NodeContext, value: unknown, label: string, required: boolean, i?: number): string[] {
	const events = checkOptions.call(ctx, value, WEBHOOK_EVENTS, i, label);
	if (required && events.length === 0) fieldError(ctx, `${label}: choose at least one event`, i);
	return events;
}

/** Notify on Fail contact fields, shown in the Webhook resource's collections and the trigger's options. */
export const notifyOnFailFields: INodeProperties[] = [
	{
		displayName: 'Notify on Fail Email',
		name: 'notifyOnFailEmail',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Email address the platform notifies when a delivery fails',
	},
	{
		displayName: 'Notify on Fail Name',
		name: 'notifyOnFailName',
		type: 'string',
		default: '',
		description: 'Name of the contact notified when a delivery fails',
	},
];

/** Builds `notifyOnFail` from a collection holding the Notify on Fail fields. */
export function readNotifyOnFail(ctx: NodeContext, fields: IDataObject, i?: number): IDataObject | undefined {
	const email = readText(ctx, fields.notifyOnFailEmail, 'Notify on Fail Email', i);
	const name = readText(ctx, fields.notifyOnFailName, 'Notify on Fail Name', i);
	if (!email && !name) return undefined;
	const out: IDataObject = {};
	if (email) out.email = checkEmail.call(ctx, email, i, 'Notify on Fail Email');
	if (name) out.name = name;
	return out;
}

