import type { INodeProperties } from 'n8n-workflow';

import { extraFieldsOption } from '../../transport/records';

/**
 * Pixel bodies are not shown in the spec (4.9): the node sends the platform (Google or Meta),
 * a name and the platform's own pixel ID, and passes any further field through as JSON.
 */

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
