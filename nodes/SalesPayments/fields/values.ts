import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The value lists the spec documents (part 3 and the filters of part 4), as dropdown options,
 * for every node that offers them. Lists the spec leaves open (withdraw request, commission and
 * sale statuses, movement origin types) are free text where they are used.
 */

/** Refund request `status` (spec part 3). */
export const REFUND_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Canceled', value: 'canceled' },
	{ name: 'Confirmed', value: 'confirmed' },
	{ name: 'Delayed', value: 'delayed' },
	{ name: 'Failed', value: 'failed' },
	{ name: 'Requested', value: 'requested' },
];

/** Subscription `status` (spec part 3). */
export const SUBSCRIPTION_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Active', value: 'active' },
	{ name: 'Canceled', value: 'canceled' },
	{ name: 'Expired', value: 'expired' },
	{ name: 'Inactive', value: 'inactive' },
];

/** Subscription filter `type`: the payment method (spec 4.4). */
export const SUBSCRIPTION_PAYMENT_METHOD_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Bank Billet', value: 'bank-billet' },
	{ name: 'Credit Card', value: 'credit-card' },
	{ name: 'Crypto', value: 'crypto' },
	{ name: 'Debit Card', value: 'debit-card' },
	{ name: 'Pix', value: 'pix' },
];

/** Product `status` filter values (spec part 3). */
export const PRODUCT_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Available', value: 'available' },
	{ name: 'Draft', value: 'draft' },
	{ name: 'Unavailable', value: 'unavailable' },
];

/** Product `type` filter values (spec 4.5). */
export const PRODUCT_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'App', value: 'App' },
	{ name: 'Community', value: 'Community' },
	{ name: 'Consultancy', value: 'Consultancy' },
	{ name: 'Downloadable File', value: 'Downloadable-File' },
	{ name: 'E-Book', value: 'E-Book' },
	{ name: 'Face-to-Face Event', value: 'Face-to-face-Event' },
	{ name: 'Mentoring', value: 'Mentoring' },
	{ name: 'Online Course', value: 'Online-Course' },
	{ name: 'Online Event', value: 'Online-Event' },
	{ name: 'Others', value: 'Others' },
	{ name: 'Physical Product', value: 'Physical-Product' },
	{ name: 'Services', value: 'Services' },
	{ name: 'Subscription', value: 'Subscription' },
];
