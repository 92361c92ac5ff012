import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { PlatformError } from '../../shared/transport';
import { extraFieldsOption, mergeBody } from '../../shared/records';
import { checkOneOf, parseJsonObject } from '../../shared/validation';
import { idLocator } from '../../shared/locator';

/**
 * Pixel bodies are not shown in the spec (4.9): the node sends the platform (Google or Meta),
 * a name and the platform's own pixel ID, and passes any further field through as JSON.
 */

export const PLATFORMS = ['google', 'meta'] as const;

/** The pixel to act on: picked from the business's pixels or typed as an ID. */
export function pixelLocator(description: string): INodeProperties {
	return idLocator({ displayName: 'Pixel', name: 'pixelId', searchListMethod: 'searchPixels', description });
}

export const platformProperty: INodeProperties = {
	displayName: 'Platform',
	name: 'platform',
	type: 'options',
	options: [
		{ name: 'Google', value: 'google' },
		{ name: 'Meta', value: 'meta' },
	],
	default: 'google',
	description: 'Advertising platform the pixel reports to',
};

export const nameProperty: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'Name that identifies the pixel in the platform',
};

export const trackingIdProperty: INodeProperties = {
	displayName: 'Platform Pixel ID',
	name: 'platformPixelId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 123456789012345 or G-XXXXXXXXXX',
	description: 'The ID Google (tag or conversion ID) or Meta (pixel ID) gave the pixel; sent as `pixelId`',
};

export const extraOption = extraFieldsOption('pixel');

function text(value: unknown): string | undefined {
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'string') return undefined;
	const t = value.trim();
	return t === '' ? undefined : t;
}

/** The pixel body from the given values: `platform`, `name`, `pixelId`, plus the JSON pass-through. */
export function readPixelBody(this: IExecuteFunctions, values: IDataObject, i: number): IDataObject {
	const extra = parseJsonObject.call(this, values.extraFields, i, 'Extra Fields (JSON)');
	const body: IDataObject = {};
	if (values.platform !== undefined) body.platform = checkOneOf.call(this, values.platform, PLATFORMS, i, 'Platform');
	if (text(values.name) !== undefined) body.name = text(values.name);
	if (text(values.platformPixelId) !== undefined) body.pixelId = text(values.platformPixelId);
	return mergeBody(extra, body);
}

export function explainPixelNotFound(error: PlatformError): string | undefined {
	return error.statusCode === 404 ? 'No pixel with this ID exists in the credential\'s business.' : undefined;
}
