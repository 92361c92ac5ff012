import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { fieldError } from './errors';
import { runCache } from './cache';
import { checkSegment } from './paths';

/** Every n8n context this package makes requests from. */
export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

export const DATA_CREDENTIAL = 'salesPaymentsApi';
export const IDENTITY_CREDENTIAL = 'salesPaymentsIdentityApi';

/** Credential values are read once per run, not once per request. */
export async function getCachedCredentials(this: ApiContext, type: string = DATA_CREDENTIAL): Promise<ICredentialDataDecryptedObject> {
	return await runCache(this, `credentials:${type}`, async () => await this.getCredentials(type));
}

/**
 * The business an operation acts on: `override` when the user gave one (a webhook's Business ID
 * field), otherwise the credential's Business ID. Either is checked as an ID, since it is placed
 * in paths (`/webhooks/list/{businessId}`) and headers.
 */
export async function businessIdOf(ctx: ApiContext, override?: unknown, itemIndex?: number): Promise<string> {
	// Given in any form (a number, an object by expression): checked as given, never passed over for the credential's.
	const unset = override === undefined || override === null || (typeof override === 'string' && override.trim() === '');
	if (!unset) return checkSegment(ctx, override, 'Business ID', 'id', itemIndex);
	const credentials = await getCachedCredentials.call(ctx);
	const value = credentials.businessId;
	if (typeof value !== 'string' || value.trim() === '') {
		// An operation with its own Business ID field says where it can be set.
		const where = override === undefined ? 'The credential has no Business ID, which this operation needs' : 'Business ID is required: set it here or in the credential';
		fieldError(ctx, where, itemIndex);
	}
	return checkSegment(ctx, value, "The credential's Business ID", 'id', itemIndex);
}

/**
 * A credential's service address, checked: http(s), no user name or password in it, no query or
 * fragment; trailing slashes removed. Requests and the redirects they may follow stay on its origin.
 */
export function serviceUrl(ctx: ApiContext, value: unknown, label: string, itemIndex?: number): { base: string; origin: string } {
	const text = typeof value === 'string' ? value.trim().replace(/\/+$/, '') : '';
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || !/^https?:$/.test(url.protocol) || !/^https?:\/\//i.test(text)) {
		fieldError(ctx, `The credential's ${label} must start with http:// or https://`, itemIndex);
	}
	if (url.username || url.password || url.search || url.hash) {
		fieldError(ctx, `The credential's ${label} must be a plain address, without a user name, query or fragment`, itemIndex);
	}
	return { base: text, origin: url.origin };
}
