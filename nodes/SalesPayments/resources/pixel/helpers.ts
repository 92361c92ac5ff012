import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { notFound } from '../../transport/errors';
import type { RecordId } from '../../fields/recordRequest';
import { mergeBody } from '../../transport/records';
import { checkOneOf, parseJsonObject, readText } from '../../fields/validation';

export const PLATFORMS = ['google', 'meta'] as const;

/** The pixel body from the given values: `platform`, `name`, `pixelId`, plus the JSON pass-through. */
export function readPixelBody(this: IExecuteFunctions, values: IDataObject, i: number): IDataObject {
	const extra = parseJsonObject.call(this, values.extraFields, i, 'Extra Fields (JSON)');
	const body: IDataObject = {};
	if (values.platform !== undefined) body.platform = checkOneOf.call(this, values.platform, PLATFORMS, i, 'Platform');
	const name = readText(this, values.name, 'Name', i);
	if (name !== undefined) body.name = name;
	const pixelId = readText(this, values.platformPixelId, 'Platform Pixel ID', i);
	if (pixelId !== undefined) body.pixelId = pixelId;
	return mergeBody(extra, body);
}

export const explainPixelNotFound = notFound('pixel');

export const PIXEL_ID: RecordId = { name: 'pixelId', label: 'Pixel' };
