import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { fieldError } from '../../transport/errors';
import { paymentLinkLocator } from '../../fields/locators';
import type { OperationDef } from '../../fields/types';
import { requestOnRecord } from '../../fields/recordRequest';
import { isPlainObject, recordOf } from '../../transport/records';
import { optionalText } from '../../fields/validation';
import { explainLinkRefusal, LINK_ID } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

/** The image formats the platform accepts (spec 4.8 and part 8): PNG, JPEG or JPG. */
const FORMATS = [
	{ label: 'PNG', mimeTypes: ['image/png'], extension: 'png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
	{ label: 'JPEG', mimeTypes: ['image/jpeg', 'image/jpg', 'image/pjpeg'], extension: 'jpg', magic: [0xff, 0xd8, 0xff] },
] as const;

/** Where n8n 2.x keeps an item's files in the workflows whose binary mode is "combined". */
const FILES_KEY = '_files';

/** A file as n8n holds it: its type, and its bytes inline (`data`) or in a store (`id`). */
function isFile(value: unknown): value is IBinaryData {
	return isPlainObject(value) && typeof value.mimeType === 'string' && ('data' in value || 'id' in value);
}

/** The value at a dotted path of the item's JSON (`_files.data`, `upload.picture`). */
function atPath(json: IDataObject, path: string): unknown {
	let value: unknown = json;
	for (const key of path.split('.')) {
		if (!isPlainObject(value)) return undefined;
		value = value[key];
	}
	return value;
}

interface InputFile {
	file: IBinaryData;
	/** What to hand n8n's helpers for the bytes: the binary field's name, or the file itself. */
	ref: string | IBinaryData;
	/** How the file is named in messages. */
	label: string;
}

/**
 * The image of input item `i`, however n8n holds it:
 * - a binary field name (`data`): the item's binary data, in the default, filesystem, database
 *   and S3 binary modes;
 * - in n8n 2.x workflows whose binary mode is "combined", the file object under the item's JSON
 *   `_files` (the same name, or a path such as `_files.data`);
 * - a file object given by expression (`{{ $json._files.data }}`, `{{ $binary.data }}`).
 */
function inputFile(ctx: IExecuteFunctions, i: number): InputFile {
	const given = ctx.getNodeParameter('binaryPropertyName', i, 'data') as unknown;
	if (isFile(given)) return { file: given, ref: given, label: 'The file given by expression' };
	const name = optionalText(given);
	if (name === undefined) fieldError(ctx, 'Input Binary Field is required', i);
	const item = ctx.getInputData()[i];
	const json = isPlainObject(item?.json) ? item.json : {};
	const settings = typeof ctx.getWorkflowSettings === 'function' ? ctx.getWorkflowSettings() : undefined;
	const combined = (settings as { binaryMode?: string } | undefined)?.binaryMode === 'combined';
	const label = `Input Binary Field "${name}"`;
	const binary = item?.binary?.[name];
	// By name where every n8n version reads it; by the file itself where n8n 2.x reads names as
	// JSON paths (combined mode).
	if (binary) return { file: binary, ref: combined ? binary : name, label };
	const files = json[FILES_KEY];
	const inFiles = isPlainObject(files) ? files[name] : undefined;
	if (isFile(inFiles)) return { file: inFiles, ref: inFiles, label };
	const inJson = atPath(json, name);
	if (isFile(inJson)) return { file: inJson, ref: inJson, label };
	const present = [
		...Object.keys(item?.binary ?? {}),
		...(isPlainObject(files) ? Object.keys(files).filter((k) => isFile(files[k])).map((k) => `${FILES_KEY}.${k}`) : []),
	];
	const has = present.length ? ` (it has: ${present.join(', ')})` : ' (it has no binary data)';
	return fieldError(ctx, `Input Binary Field: the input item has no binary field "${name}"${has}`, i);
}

/** The image of item `i` as the form the platform takes (`picture`), its type and content checked. */
async function imageForm(ctx: IExecuteFunctions, i: number): Promise<FormData> {
	const { file, ref, label } = inputFile(ctx, i);
	const mimeType = String(file.mimeType ?? '').split(';')[0].trim().toLowerCase();
	const format = FORMATS.find((f) => (f.mimeTypes as readonly string[]).includes(mimeType));
	if (!format) {
		fieldError(ctx, `${label} is a ${mimeType || 'file of unknown type'}; the platform accepts only PNG, JPEG or JPG images`, i);
	}
	const buffer = await ctx.helpers.getBinaryDataBuffer(i, ref);
	if (buffer.length < format.magic.length || !format.magic.every((byte, n) => buffer[n] === byte)) {
		fieldError(ctx, `${label} is labelled ${mimeType} but its content is not a ${format.label} image`, i);
	}
	const fileName = file.fileName?.trim() || `picture.${file.fileExtension ?? format.extension}`;
	const form = new FormData();
	form.append('picture', new Blob([new Uint8Array(buffer)], { type: mimeType }), fileName);
	return form;
}

const explainImageRefusal = explainLinkRefusal('changing its image');

export const uploadImage: OperationDef = {
	value: 'uploadImage',
	name: 'Upload Image',
	action: 'Upload an image to a payment link',
	description:
		'Set the picture of a payment link from a PNG or JPEG file of the input. The platform refuses once the link has a sale.',
	recordKey: 'paymentLinkId',
	properties: [
		paymentLinkLocator('The payment link whose image to set'),
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			required: true,
			default: 'data',
			hint: 'The name of the input binary field containing the image to upload (also found under _files in workflows that keep files in the JSON)',
			description:
				'PNG, JPEG or JPG file, sent to the platform as the `picture` of the link. Found by its binary field name in every binary data mode, under `_files` in workflows that keep files in the JSON (the same name, or a path such as _files.data), or given as a file object by expression.',
		},
	],
	async execute(i) {
		const { data } = await requestOnRecord.call(this, i, {
			...ENDPOINTS.paymentLink.uploadImage,
			id: LINK_ID,
			body: () => imageForm(this, i),
			explain: explainImageRefusal,
			acceptedHint: 'check the link\'s image with Payment Link > Get before uploading again.',
		});
		// `data.image`: name, path, url, isPublic, extension (spec part 2).
		return recordOf(data, 'image');
	},
};
