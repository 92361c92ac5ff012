import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, getCachedCredentials } from '../../shared/transport';
import type { OperationDef } from '../../shared/types';
import { checkEmail, checkOneOf, requireId } from '../../shared/validation';
import { WEBHOOK_EVENT_OPTIONS, WEBHOOK_EVENTS } from './events';
import { idLocator } from '../../shared/locator';

/** Field definitions and readers shared by the Webhook operations. */

function fail(ctx: IExecuteFunctions, i: number, message: string): never {
	throw new NodeOperationError(ctx.getNode(), message, { itemIndex: i });
}

/** The webhook a single-webhook operation acts on: From list or By ID. */
export const webhookIdField: INodeProperties = idLocator({
	displayName: 'Webhook',
	name: 'webhookId',
	searchListMethod: 'searchWebhooks',
	description: 'The webhook to act on',
});

/** The chosen webhook's id (validated) and its URL-encoded form for paths. */
export function readWebhookId(this: IExecuteFunctions, i: number): { id: string; segment: string } {
	const id = requireId.call(this, 'webhookId', i, 'Webhook');
	return { id, segment: encodeURIComponent(id) };
}

export const eventsField: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	options: WEBHOOK_EVENT_OPTIONS,
	default: [],
	required: true,
	description: 'The events the webhook notifies',
};

/** Reads a multi-select of events and checks every value is registrable. */
export function checkEvents(this: IExecuteFunctions, value: unknown, i: number, label: string, required: boolean): string[] {
	const list = Array.isArray(value) ? value : typeof value === 'string' && value.trim() ? value.split(',') : [];
	const events = list.map((e) => String(e).trim()).filter(Boolean);
	if (required && events.length === 0) fail(this, i, `${label}: choose at least one event`);
	for (const event of events) checkOneOf.call(this, event, WEBHOOK_EVENTS, i, label);
	return [...new Set(events)];
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** HTTP dispatchers: where and how the platform delivers notifications. */
export const dispatchersField: INodeProperties = {
	displayName: 'Dispatchers',
	name: 'dispatchers',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Dispatcher',
	default: {},
	description: 'HTTP endpoints the platform sends each notification to',
	options: [
		{
			displayName: 'HTTP Dispatcher',
			name: 'http',
			values: [
				{
					displayName: 'URL',
					name: 'url',
					type: 'string',
					default: '',
					required: true,
					placeholder: 'e.g. https://example.com/hooks/sales',
					description: 'Address the platform sends the notifications to',
				},
				{
					displayName: 'Method',
					name: 'method',
					type: 'options',
					options: [
						{ name: 'PATCH', value: 'PATCH' },
						{ name: 'POST', value: 'POST' },
						{ name: 'PUT', value: 'PUT' },
					],
					default: 'POST',
					description: 'HTTP method of the notification requests',
				},
				{
					displayName: 'Headers',
					name: 'headers',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					placeholder: 'Add Header',
					default: {},
					description: 'Headers sent with every notification, for example a shared secret your endpoint checks',
					options: [
						{
							displayName: 'Header',
							name: 'header',
							values: [
								{ displayName: 'Name', name: 'name', type: 'string', default: '' },
								{ displayName: 'Value', name: 'value', type: 'string', default: '' },
							],
						},
					],
				},
			],
		},
	],
};

/** Methods a dispatcher may use, as offered by its Method field. */
const DISPATCHER_METHODS = ['PATCH', 'POST', 'PUT'] as const;

/** Turns the Dispatchers field into the API's `dispatchers` array (type `http`). */
export function readDispatchers(this: IExecuteFunctions, i: number, required: boolean): IDataObject[] | undefined {
	const raw = this.getNodeParameter('dispatchers', i, {}) as IDataObject;
	const entries = Array.isArray(raw.http) ? (raw.http as IDataObject[]) : raw.http ? [raw.http as IDataObject] : [];
	if (entries.length === 0) {
		if (required) fail(this, i, 'Dispatchers: add at least one HTTP dispatcher');
		return undefined;
	}
	return entries.map((entry, n) => {
		const label = `Dispatchers (HTTP Dispatcher ${n + 1})`;
		const url = String(entry.url ?? '').trim();
		if (!/^https?:\/\/[^\s/]+\S*$/i.test(url)) fail(this, i, `${label}: URL must start with http:// or https:// (got "${url}")`);
		const method = checkOneOf.call(
			this,
			String(entry.method ?? 'POST').toUpperCase(),
			DISPATCHER_METHODS,
			i,
			`${label}: Method`,
		);
		const headerList = ((entry.headers as IDataObject | undefined)?.header ?? []) as IDataObject[];
		const headers: IDataObject = {};
		for (const header of Array.isArray(headerList) ? headerList : [headerList]) {
			const name = String(header.name ?? '').trim();
			if (!name) fail(this, i, `${label}: every header needs a Name`);
			if (!HEADER_NAME.test(name)) fail(this, i, `${label}: "${name}" is not a valid header name`);
			headers[name] = String(header.value ?? '');
		}
		return { type: 'http', method, url, headers };
	});
}

/** Notify on Fail contact fields, shown in Additional Fields / Update Fields. */
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
export function readNotifyOnFail(this: IExecuteFunctions, fields: IDataObject, i: number): IDataObject | undefined {
	const email = typeof fields.notifyOnFailEmail === 'string' ? fields.notifyOnFailEmail.trim() : '';
	const name = typeof fields.notifyOnFailName === 'string' ? fields.notifyOnFailName.trim() : '';
	if (!email && !name) return undefined;
	const out: IDataObject = {};
	if (email) out.email = checkEmail.call(this, email, i, 'Notify on Fail Email');
	if (name) out.name = name;
	return out;
}

/** The Business ID override or the credential's, for `externalAccountId` and the list path. */
export async function resolveBusinessId(this: IExecuteFunctions, override: unknown, i: number): Promise<string> {
	const given = typeof override === 'string' ? override.trim() : '';
	if (given) {
		if (/[/?#\s]/.test(given)) fail(this, i, `Business ID "${given}" is not a valid ID`);
		return given;
	}
	const credentials = await getCachedCredentials.call(this);
	const fromCredential = String(credentials.businessId ?? '').trim();
	if (!fromCredential) fail(this, i, 'Business ID is required: set it here or in the credential');
	return fromCredential;
}

export const businessIdOverrideField: INodeProperties = {
	displayName: 'Business ID',
	name: 'businessId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 3f1c2a9e-7b7d-4c1e-9a55-0d2f6c1b8e21',
	description: "Business the webhook belongs to. Leave empty to use the credential's Business ID.",
};

/**
 * The output of an operation whose response the spec does not show: what the API returned,
 * or, when it returned nothing, the webhook id and `success: true`.
 */
export function resultOrSuccess(data: IDataObject, id: string): IDataObject {
	return Object.keys(data).length > 0 ? data : { id, success: true };
}

/**
 * An operation on one webhook with no other input (get, queue, activate, deactivate, delete,
 * flush, resume): one request to `path(id)`, KEYS only, output as the API returns it.
 */
export function singleWebhookOperation(def: {
	value: string;
	name: string;
	action: string;
	description: string;
	method: 'GET' | 'PATCH' | 'DELETE';
	path: (segment: string) => string;
	/** Safe to repeat after a lost answer (GET, activate, deactivate, flush). */
	idempotent: boolean;
}): OperationDef {
	return {
		value: def.value,
		name: def.name,
		action: def.action,
		description: def.description,
		properties: [webhookIdField],
		async execute(i) {
			const { id, segment } = readWebhookId.call(this, i);
			const data = await apiRequest.call(this, {
				method: def.method,
				path: def.path(segment),
				idempotent: def.idempotent,
				itemIndex: i,
			});
			return resultOrSuccess(data, id);
		},
	};
}
