import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Field } from '../fields/fields';
import { field } from '../fields/fields';
import type { ListRequest } from '../paging/pages';
import {
	PRODUCT_STATUS_OPTIONS,
	PRODUCT_TYPE_OPTIONS,
	REFUND_STATUS_OPTIONS,
	SUBSCRIPTION_PAYMENT_METHOD_OPTIONS,
} from '../fields/values';
import { ENDPOINTS } from '../transport/endpoints';
import { compact } from '../fields/validation';

/**
 * What the polling trigger can watch, one entry per change the documented list endpoints can tell:
 * `cursor` events read records dated at or after a cursor (the endpoint's date filter); `snapshot`
 * events have no date, so each poll reads the whole watched set and compares remembered statuses.
 */

export type EventMode = 'cursor' | 'snapshot';

/** How a status-change event reports: a known record whose status moved, or one entering a set. */
export type StatusRule = 'changed' | 'entered';

export interface RequestContext {
	/** Converted values of the event's Filters collection. */
	filters: IDataObject;
	/** ISO 8601 date: only records at or after it (cursor events; snapshot events: the watched window's start). */
	since?: string;
	/** ISO 8601 date: only records at or before it (a window of a read in windows, see dateWindows.ts). */
	until?: string;
	/** Ask for the newest records first where the endpoint can sort (samples, memory seeding). */
	newestFirst?: boolean;
	/** Statuses chosen for the event (subscriptions: which lists to read). */
	statuses: string[];
}

export interface PollEvent {
	value: string;
	name: string;
	/** Shown in the event dropdown. */
	description: string;
	/** What the detection relies on: shown under the event. */
	notice: string;
	mode: EventMode;
	/** Record fields that carry the date the event goes by; the first one present is used. */
	timeFields: string[];
	/** Record fields of the date the endpoint's date filter applies to, when not `timeFields`. */
	windowFields?: string[];
	/** Status-change events: how a change is told. */
	status?: StatusRule;
	/** Snapshot events: the watched set is the records made within the Watch Window (else: every record of the lists). */
	watchWindow?: boolean;
	/** Whether "Start From" applies (a past date can only be replayed where records carry the date). */
	startFrom: boolean;
	/** Filters the endpoint can apply, under the event's Filters collection. */
	filterFields: Field[];
	/** Name of the event's statuses parameter, if it has one. */
	statusesParam?: string;
	/** The list requests that read the event's records. */
	requests(req: RequestContext): ListRequest[];
}

function refundRequest(dateKey: 'createdAt' | 'updatedAt', req: RequestContext): ListRequest {
	const qs: IDataObject = { orderByField: 'createdAt', orderDirection: req.newestFirst ? 'DESC' : 'ASC' };
	if (req.since) qs[`${dateKey}[startsAt]`] = req.since;
	if (req.until) qs[`${dateKey}[endsAt]`] = req.until;
	return { ...ENDPOINTS.refund.list, qs };
}

const withdrawFilterFields = [
	field.text('status', 'Status', 'Only withdraw requests in this status, as the platform names it', 'e.g. pending'),
	field.cents('initialValue', 'Value From (Cents)', 'Only withdraw requests of at least this amount, in cents'),
	field.cents('endValue', 'Value To (Cents)', 'Only withdraw requests of at most this amount, in cents'),
];

const movementFilterFields = [
	field.option(
		'direction',
		'Direction',
		[
			{ name: 'Credits and Debits', value: 'all' },
			{ name: 'Credits Only (Money In)', value: 'credit' },
			{ name: 'Debits Only (Money Out)', value: 'debit' },
		],
		'Which movements to report (sent as omitDebit / omitCredit)',
	),
	field.text('originType', 'Origin Type', 'Only movements of this origin, as the platform names it', 'e.g. sale'),
	field.cents('initialValue', 'Value From (Cents)', 'Only movements of at least this amount, in cents'),
	field.cents('endValue', 'Value To (Cents)', 'Only movements of at most this amount, in cents'),
];

const saleFilterFields = [
	field.text('status', 'Status', 'Only sales in this status, as the platform names it', 'e.g. paid'),
	field.email('email', 'Buyer Email', 'Only sales to the buyer with this email address'),
	field.ids('productIds', 'Product IDs', 'Only sales of these products (comma-separated product IDs)'),
];

const subscriptionFilterFields = [
	field.ids('productIds', 'Product IDs', 'Only subscriptions of these products (comma-separated product IDs)'),
	field.option('type', 'Payment Method', SUBSCRIPTION_PAYMENT_METHOD_OPTIONS, 'Only subscriptions paid with this method'),
	field.email('email', 'Customer Email', 'Only subscriptions of the customer with this email address'),
];

const productFilterFields = [
	field.option('type', 'Type', PRODUCT_TYPE_OPTIONS, 'Only products of this type'),
	field.ids('productIds', 'Product IDs', 'Only these products (comma-separated product IDs)'),
];

export const EVENTS: PollEvent[] = [
	{
		value: 'refundRequestCreated',
		name: 'New Refund Request',
		description: 'A buyer asked for a refund (order revert request)',
		notice:
			'Goes by the refund request\'s creation date (createdAt): GET /order-revert-requests/list with createdAt[startsAt], oldest first.',
		mode: 'cursor',
		timeFields: ['createdAt', 'requestAt'],
		startFrom: true,
		filterFields: [],
		requests: (req) => [refundRequest('createdAt', req)],
	},
	{
		value: 'refundRequestStatusChanged',
		name: 'Refund Request Status Changed',
		description: 'A refund request moved to another status (requested, delayed, confirmed, canceled, failed)',
		notice:
			'Goes by the refund request\'s last update (updatedAt[startsAt]) and compares its status with the one the node remembers; a request it has not seen before is judged by its status history. The output has previousStatus.',
		mode: 'cursor',
		timeFields: ['updatedAt'],
		status: 'changed',
		startFrom: true,
		filterFields: [],
		statusesParam: 'refundStatuses',
		requests: (req) => [refundRequest('updatedAt', req)],
	},
	{
		value: 'withdrawRequestCreated',
		name: 'New Withdraw Request',
		description: 'A withdraw (transfer to the bank account) was requested',
		notice: 'Goes by the withdraw request\'s date: POST /withdraw-requests/filter with initialDate.',
		mode: 'cursor',
		timeFields: ['createdAt', 'date', 'requestedAt'],
		startFrom: true,
		filterFields: withdrawFilterFields,
		requests: (req) => [
			{
				...ENDPOINTS.withdrawRequest.filter,
				body: compact({ ...req.filters, initialDate: req.since, endDate: req.until }),
			},
		],
	},
	{
		value: 'withdrawRequestStatusChanged',
		name: 'Withdraw Request Status Changed',
		description: 'A recent withdraw request moved to another status',
		notice:
			'The withdraw filter has no update date: each poll reads the withdraw requests made in the Watch Window (Options) and compares their statuses with the ones the node remembers. Older requests are not watched. The output has previousStatus.',
		mode: 'snapshot',
		timeFields: ['updatedAt', 'createdAt', 'date'],
		windowFields: ['createdAt', 'date', 'requestedAt'],
		watchWindow: true,
		status: 'changed',
		startFrom: false,
		filterFields: withdrawFilterFields.filter((f) => f.property.name !== 'status'),
		statusesParam: 'withdrawStatuses',
		requests: (req) => [
			{
				...ENDPOINTS.withdrawRequest.filter,
				body: compact({ ...req.filters, initialDate: req.since, endDate: req.until }),
			},
		],
	},
	{
		value: 'commissionCreated',
		name: 'New Commission',
		description: 'A commission was created for the business',
		notice: 'Goes by the commission\'s date: GET /commissions/list with initialDate.',
		mode: 'cursor',
		timeFields: ['createdAt', 'date'],
		startFrom: true,
		filterFields: [field.text('status', 'Status', 'Only commissions in this status, as the platform names it', 'e.g. pending')],
		requests: (req) => [
			{
				...ENDPOINTS.commission.list,
				qs: compact({ ...req.filters, initialDate: req.since, endDate: req.until }),
			},
		],
	},
	{
		value: 'customerCreated',
		name: 'New Customer',
		description: 'A customer was added to the business',
		notice: 'Goes by the customer\'s creation date: GET /customers/list with createdAt[startsAt].',
		mode: 'cursor',
		timeFields: ['createdAt'],
		startFrom: true,
		filterFields: [],
		requests: (req) => [
			{
				...ENDPOINTS.customer.list,
				qs: compact({ 'createdAt[startsAt]': req.since, 'createdAt[endsAt]': req.until }),
			},
		],
	},
	{
		value: 'saleCreated',
		name: 'New Sale',
		description: 'A sale was made',
		notice:
			'Goes by the sale\'s date: POST /sales/filter with initialDate (the spec does not show this endpoint; the node sends the filters the action node\'s Sale › Get Many sends).',
		mode: 'cursor',
		timeFields: ['createdAt', 'date', 'paidAt'],
		startFrom: true,
		filterFields: saleFilterFields,
		requests: (req) => [
			{
				...ENDPOINTS.sale.filter,
				body: compact({ ...req.filters, initialDate: req.since, endDate: req.until }),
			},
		],
	},
	{
		value: 'movementCreated',
		name: 'New Movement',
		description: 'Money came in (credit) or went out (debit) of the business account',
		notice: 'Goes by the movement\'s date: POST /movement/filter with initialDate; credits or debits only through omitDebit / omitCredit.',
		mode: 'cursor',
		timeFields: ['createdAt', 'date'],
		startFrom: true,
		filterFields: movementFilterFields,
		requests: (req) => {
			const { direction, ...rest } = req.filters;
			const body: IDataObject = { ...rest, initialDate: req.since, endDate: req.until };
			if (direction === 'credit') body.omitDebit = true;
			if (direction === 'debit') body.omitCredit = true;
			return [{ ...ENDPOINTS.movement.filter, body: compact(body) }];
		},
	},
	{
		value: 'subscriptionCanceledOrExpired',
		name: 'Subscription Canceled or Expired',
		description: 'A subscription became canceled or expired (or inactive, if chosen)',
		notice:
			'Subscriptions carry no change date: each poll reads the subscriptions in the chosen statuses (POST /subscriptions/filter with status) and reports those that were not in that list before.',
		mode: 'snapshot',
		timeFields: ['createdAt', 'subscribedAt'],
		status: 'entered',
		startFrom: false,
		filterFields: subscriptionFilterFields,
		statusesParam: 'subscriptionStatuses',
		requests: (req) =>
			req.statuses.map((status) => ({
				...ENDPOINTS.subscription.filter,
				body: compact({
					...req.filters,
					status,
					initialDate: req.since,
					endDate: req.until,
					orderBy: { orderByField: 'createdAt', orderDirection: req.newestFirst ? 'DESC' : 'ASC' },
				}),
			})),
	},
	{
		value: 'productStatusChanged',
		name: 'Product Status Changed',
		description: 'A product moved to another status (draft, available, unavailable)',
		notice:
			'Goes by the product\'s last update (POST /products/filter with updatedAt.startsAt) and compares its status with the one the node remembers (it learns the statuses of the business\'s products when activated). The output has previousStatus.',
		mode: 'cursor',
		timeFields: ['updatedAt'],
		status: 'changed',
		startFrom: false,
		filterFields: productFilterFields,
		statusesParam: 'productStatuses',
		requests: (req) => [
			{
				...ENDPOINTS.product.filter,
				body: compact({ ...req.filters, updatedAt: req.since || req.until ? compact({ startsAt: req.since, endsAt: req.until }) : undefined }),
			},
		],
	},
];

export function eventByValue(value: string): PollEvent | undefined {
	return EVENTS.find((e) => e.value === value);
}

export const EVENT_OPTIONS: INodePropertyOptions[] = [...EVENTS]
	.sort((a, b) => a.name.localeCompare(b.name))
	.map((e) => ({ name: e.name, value: e.value, description: e.description }));

/** Where a status-change event's output lists which statuses count. */
export const STATUS_PARAMETERS: INodeProperties[] = [
	{
		displayName: 'To Statuses',
		name: 'refundStatuses',
		type: 'multiOptions',
		options: REFUND_STATUS_OPTIONS,
		default: [],
		description: 'Only report moves into these statuses (none chosen: every status change)',
		displayOptions: { show: { event: ['refundRequestStatusChanged'] } },
	},
	{
		displayName: 'To Statuses',
		name: 'withdrawStatuses',
		type: 'string',
		default: '',
		placeholder: 'e.g. completed, rejected',
		description:
			'Only report moves into these statuses, comma-separated, as the platform names them (empty: every status change). The spec does not list the withdraw statuses.',
		displayOptions: { show: { event: ['withdrawRequestStatusChanged'] } },
	},
	{
		displayName: 'Statuses',
		name: 'subscriptionStatuses',
		type: 'multiOptions',
		options: [
			{ name: 'Canceled', value: 'canceled' },
			{ name: 'Expired', value: 'expired' },
			{ name: 'Inactive', value: 'inactive', description: 'The catalogue\'s subscription.inactivated' },
		],
		default: ['canceled', 'expired'],
		description: 'Report a subscription when it enters one of these statuses',
		displayOptions: { show: { event: ['subscriptionCanceledOrExpired'] } },
	},
	{
		displayName: 'To Statuses',
		name: 'productStatuses',
		type: 'multiOptions',
		options: PRODUCT_STATUS_OPTIONS,
		default: [],
		description: 'Only report moves into these statuses (none chosen: every status change)',
		displayOptions: { show: { event: ['productStatusChanged'] } },
	},
];
