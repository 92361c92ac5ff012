/**
 * Every event of the polling trigger as a test case: which list it reads, and how a test makes it
 * report one record (a new record, or a prepared one whose status flips). The polling suites
 * run over these; a check below keeps them in step with events.ts.
 */
import type { INodeParameters } from 'n8n-workflow';

import { EVENTS } from '../../../nodes/SalesPayments/polling/events';
import type { JsonObject } from '../simulator/core';
import type { PolledCollection } from '../simulator/routes/records';
import type { pollingSetup } from './polling';

export type Context = ReturnType<typeof pollingSetup>;

export interface EventCase {
	event: string;
	parameters?: INodeParameters;
	collection: PolledCollection;
	/** Path of the list the event reads. */
	path: string;
	/** Cursor events keep a cursor in static data; snapshot events do not. */
	cursor: boolean;
	/** Records made before activation (at `seconds`, default -100, one second apart when `spread`) that the event reports when they change (status events). */
	prepare?(t: Context, n: number, seconds?: number, spread?: boolean): JsonObject[];
	/** Makes the event report one record at `seconds` (a new one, or prepared[k] changed); its id. */
	produce(t: Context, seconds: number, k: number, prepared: JsonObject[]): string;
}

let serial = 0;
const added = (collection: PolledCollection, fields: (n: number) => JsonObject) => (t: Context, seconds: number) =>
	String(t.add(collection, seconds, fields(++serial)).id);
const flipped = (collection: PolledCollection, status: string) => (t: Context, seconds: number, k: number, prepared: JsonObject[]) =>
	String(t.update(collection, prepared[k].id, seconds, { status }).id);
const prepared = (make: (t: Context, seconds: number, k: number) => JsonObject) => (t: Context, n: number, seconds = -100, spread = false) =>
	Array.from({ length: n }, (_, k) => make(t, spread ? seconds + k : seconds, k));

function subscription(t: Context, seconds: number): JsonObject {
	const product = t.sim().state.col('products')[0];
	return t.add('subscriptions', seconds, {
		name: 'Monthly plan',
		status: 'active',
		customer: { email: 'sub@mail.example' },
		orderItem: { product: { id: product.id, name: product.name }, unitValueInCents: 1000, quantity: 1 },
		recurrenceValueInCents: 1000,
		paymentMethod: 'pix',
	});
}

export const EVENT_CASES: EventCase[] = [
	{ event: 'refundRequestCreated', collection: 'refunds', path: '/order-revert-requests/list', cursor: true, produce: added('refunds', () => ({})) },
	{
		event: 'refundRequestStatusChanged',
		collection: 'refunds',
		path: '/order-revert-requests/list',
		cursor: true,
		prepare: prepared((t, s) => t.add('refunds', s)),
		produce: flipped('refunds', 'confirmed'),
	},
	{
		event: 'withdrawRequestCreated',
		collection: 'withdrawRequests',
		path: '/withdraw-requests/filter',
		cursor: true,
		produce: added('withdrawRequests', () => ({ status: 'pending', valueInCents: 1000 })),
	},
	{
		event: 'withdrawRequestStatusChanged',
		collection: 'withdrawRequests',
		path: '/withdraw-requests/filter',
		cursor: false,
		prepare: prepared((t, s) => t.add('withdrawRequests', s, { status: 'pending', valueInCents: 1000 })),
		produce: flipped('withdrawRequests', 'completed'),
	},
	{
		event: 'commissionCreated',
		collection: 'commissions',
		path: '/commissions/list',
		cursor: true,
		produce: added('commissions', () => ({ status: 'pending', valueInCents: 300 })),
	},
	{
		event: 'customerCreated',
		collection: 'customers',
		path: '/customers/list',
		cursor: true,
		produce: added('customers', (n) => ({ name: `Buyer ${n}`, email: `buyer.${n}@mail.example` })),
	},
	{
		event: 'saleCreated',
		collection: 'sales',
		path: '/sales/filter',
		cursor: true,
		produce: added('sales', (n) => ({ status: 'paid', valueInCents: 100 * n })),
	},
	{
		event: 'movementCreated',
		collection: 'movements',
		path: '/movement/filter',
		cursor: true,
		produce: added('movements', (n) => ({ valueInCents: 990, originType: 'sale', subject: 'Sale', description: 'Sale', hash: `h${n}`, referenceId: 'r', groupId: 'g' })),
	},
	{
		event: 'subscriptionCanceledOrExpired',
		collection: 'subscriptions',
		path: '/subscriptions/filter',
		cursor: false,
		prepare: prepared((t, s) => subscription(t, s)),
		produce: flipped('subscriptions', 'canceled'),
	},
	{
		event: 'productStatusChanged',
		collection: 'products',
		path: '/products/filter',
		cursor: true,
		prepare: prepared((t, s, k) => t.add('products', s, { name: `Course ${k}`, status: 'available', type: 'Online-Course', priceInCents: 100 })),
		produce: flipped('products', 'unavailable'),
	},
];

// Every event of events.ts has its case, and nothing else.
const missing = EVENTS.map((e) => e.value).filter((v) => !EVENT_CASES.some((c) => c.event === v));
const extra = EVENT_CASES.map((c) => c.event).filter((v) => !EVENTS.some((e) => e.value === v));
if (missing.length || extra.length) throw new Error(`polling-events.ts is out of step with events.ts: missing ${missing.join(', ')}; unknown ${extra.join(', ')}`);

/** The event's definition in events.ts. */
export function eventOf(c: EventCase) {
	return EVENTS.find((e) => e.value === c.event)!;
}
