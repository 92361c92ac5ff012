import type { IHttpRequestMethods } from 'n8n-workflow';

/**
 * Every endpoint of the platform, written once (spec part 4): operations, list searches, the
 * polling trigger's events and the webhook trigger read their method and path from here, so an
 * endpoint that moves changes in one place. Spread an entry into a request:
 * `apiRequest.call(this, { ...ENDPOINTS.customer.get, pathParams: { id } })`.
 */
export interface Endpoint {
	readonly method: IHttpRequestMethods;
	/** Path template below the service URL; `{name}` placeholders are filled by the one path builder. */
	readonly path: string;
	/**
	 * Send the credential's business id as `business-id`: the spec's KEYS+BIZ endpoints, and those
	 * whose headers the spec does not show but whose records belong to a business.
	 */
	readonly business?: boolean;
	/** Key of a list's records when it is not `docs`. */
	readonly itemsKey?: string;
	/** A list's filter on the records' creation date, where it has one (File Options › Order › Oldest First reads by it). */
	readonly dates?: DateFilter;
}

/** Where a list takes a date range, inclusive at both ends, and which record field it filters by. */
export interface DateFilter {
	readonly in: 'qs' | 'body';
	/** The range's start and end: a query key, or a path into the body. */
	readonly from: readonly string[];
	readonly to: readonly string[];
	/** The record fields that may hold that date, the first one present counting (names the spec leaves open). */
	readonly fields: readonly string[];
}

const QS_CREATED: DateFilter = { in: 'qs', from: ['createdAt[startsAt]'], to: ['createdAt[endsAt]'], fields: ['createdAt'] };
const BODY_INITIAL_END = { in: 'body', from: ['initialDate'], to: ['endDate'] } as const;

export const ENDPOINTS = {
	business: {
		balance: { method: 'GET', path: '/business/balance', business: true },
		listByOwner: { method: 'GET', path: '/business/list-businesses-by-owner' },
	},
	refund: {
		list: { method: 'GET', path: '/order-revert-requests/list', business: true, dates: QS_CREATED },
	},
	sale: {
		// Headers not shown (spec 4.3): sales belong to a business, so its id is sent.
		filter: { method: 'POST', path: '/sales/filter', business: true, dates: { ...BODY_INITIAL_END, fields: ['createdAt', 'date', 'paidAt'] } },
	},
	subscription: {
		filter: { method: 'POST', path: '/subscriptions/filter', business: true, dates: { ...BODY_INITIAL_END, fields: ['createdAt', 'subscribedAt'] } },
		get: { method: 'GET', path: '/subscriptions/{id}' },
	},
	withdrawRequest: {
		filter: { method: 'POST', path: '/withdraw-requests/filter', business: true, dates: { ...BODY_INITIAL_END, fields: ['createdAt', 'date', 'requestedAt'] } },
	},
	movement: {
		filter: { method: 'POST', path: '/movement/filter', business: true, itemsKey: 'movements', dates: { ...BODY_INITIAL_END, fields: ['createdAt', 'date'] } },
	},
	commission: {
		list: { method: 'GET', path: '/commissions/list', business: true, dates: { in: 'qs', from: ['initialDate'], to: ['endDate'], fields: ['createdAt', 'date'] } },
	},
	product: {
		filter: { method: 'POST', path: '/products/filter', business: true, dates: { in: 'body', from: ['createdAt', 'startsAt'], to: ['createdAt', 'endsAt'], fields: ['createdAt'] } },
	},
	offer: {
		listByProduct: { method: 'GET', path: '/offers/list-by-product/{id}' },
	},
	order: {
		get: { method: 'GET', path: '/orders/{id}', business: true },
		// KEYS only: the business is named by `businessId` in the body (spec 4.6).
		createCharge: { method: 'POST', path: '/orders/create-charge' },
	},
	customer: {
		list: { method: 'GET', path: '/customers/list', business: true, dates: QS_CREATED },
		get: { method: 'GET', path: '/customers/{id}' },
		remove: { method: 'DELETE', path: '/customers/remove/{id}' },
		// Headers not shown: customers are listed per business, so its id is sent.
		create: { method: 'POST', path: '/customers', business: true },
		update: { method: 'PATCH', path: '/customers/update/{id}', business: true },
	},
	// Headers of most payment link calls are not shown: business-id is sent on all, as on the documented ones.
	paymentLink: {
		create: { method: 'POST', path: '/payment-links', business: true },
		update: { method: 'PATCH', path: '/payment-links/{id}', business: true },
		list: { method: 'GET', path: '/payment-links/list', business: true, itemsKey: 'paymentLinks' },
		details: { method: 'GET', path: '/payment-links/details/{id}', business: true },
		publish: { method: 'PATCH', path: '/payment-links/publish/{id}', business: true },
		unpublish: { method: 'PATCH', path: '/payment-links/unpublish/{id}', business: true },
		remove: { method: 'DELETE', path: '/payment-links/delete/{id}', business: true },
		uploadImage: { method: 'PATCH', path: '/payment-links/upload-image/{id}', business: true },
	},
	// Pixel headers are not shown: pixels are linked to an account's business, so its id is sent.
	pixel: {
		create: { method: 'POST', path: '/pixels', business: true },
		update: { method: 'PATCH', path: '/pixels/{id}', business: true },
		list: { method: 'GET', path: '/pixels/list', business: true },
		details: { method: 'GET', path: '/pixels/details/{id}', business: true },
		remove: { method: 'DELETE', path: '/pixels/delete/{id}', business: true },
	},
	voucher: {
		byCode: { method: 'GET', path: '/vouchers/voucher-code/{id}', business: true },
		redeem: { method: 'PATCH', path: '/vouchers/redeem/{id}', business: true },
		cancelRedeem: { method: 'PATCH', path: '/vouchers/cancel-redeem/{id}', business: true },
	},
	// Every webhook call takes KEYS only (spec 4.11).
	webhook: {
		create: { method: 'POST', path: '/webhooks' },
		list: { method: 'GET', path: '/webhooks/list/{businessId}', dates: { in: 'qs', from: ['initialDate'], to: ['endDate'], fields: ['createdAt'] } },
		queue: { method: 'GET', path: '/webhooks/dynamic-queues/{id}' },
		details: { method: 'GET', path: '/webhooks/details/{id}' },
		update: { method: 'PATCH', path: '/webhooks/{id}' },
		activate: { method: 'PATCH', path: '/webhooks/activate/{id}' },
		deactivate: { method: 'PATCH', path: '/webhooks/deactivate/{id}' },
		flush: { method: 'PATCH', path: '/webhooks/flush/{id}' },
		resume: { method: 'PATCH', path: '/webhooks/resume/{id}' },
		remove: { method: 'DELETE', path: '/webhooks/delete/{id}' },
	},
	// Below the credential's Identity URL (spec 4.12).
	identity: {
		signIn: { method: 'POST', path: '/identity/sign-in' },
		verify2fa: { method: 'POST', path: '/accounts/verify-2fa' },
		refresh: { method: 'POST', path: '/identity/refresh' },
		registerDevice: { method: 'POST', path: '/identity/devices' },
		approveDevice: { method: 'PATCH', path: '/identity/devices/approve' },
		validateAccount: { method: 'PATCH', path: '/identity/accounts/validate' },
		emailOtp: { method: 'POST', path: '/identity/otps/email' },
		smsOtp: { method: 'POST', path: '/identity/otps/sms' },
	},
} as const satisfies Record<string, Record<string, Endpoint>>;
