import { fieldError } from '../../shared/errors';
import { paymentLinkLocator } from '../../shared/locators';
import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { recordOf } from '../../shared/records';
import { requireId, requireString } from '../../shared/validation';
import { explainLinkRefusal } from './helpers';

/** The image formats the platform accepts (spec 4.8 and part 8): PNG, JPEG or JPG. */
const FORMATS = [
	{ label: 'PNG', mimeTypes: ['image/png'], extension: 'png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
	{ label: 'JPEG', mimeTypes: ['image/jpeg', 'image/jpg', 'image/pjpeg'], extension: 'jpg', magic: [0xff, 0xd8, 0xff] },
] as const;

export const uploadImage: OperationDef = {
	value: 'uploadImage',
	name: 'Upload Image',
	action: 'Upload an image to a payment link',
	description:
		'Set the picture of a payment link from a PNG or JPEG file of the input. The platform refuses once the link has a sale.',
	properties: [
		paymentLinkLocator('The payment link whose image to set'),
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			required: true,
			default: 'data',
			hint: 'The name of the input binary field containing the image to upload',
			description: 'PNG, JPEG or JPG file, sent to the platform as the `picture` of the link',
		},
	],
	async execute(i) {
		const id = requireId.call(this, 'paymentLinkId', i, 'Payment Link');
		const property = requireString.call(this, 'binaryPropertyName', i, 'Input Binary Field');
		const item = this.getInputData()[i];
		if (!item?.binary?.[property]) {
			const present = Object.keys(item?.binary ?? {});
			const has = present.length ? ` (it has: ${present.join(', ')})` : ' (it has no binary data)';
			fieldError(this, `Input Binary Field: the input item has no binary field "${property}"${has}`, i);
		}
		const binary = this.helpers.assertBinaryData(i, property);
		const mimeType = String(binary.mimeType ?? '').split(';')[0].trim().toLowerCase();
		const format = FORMATS.find((f) => (f.mimeTypes as readonly string[]).includes(mimeType));
		if (!format) {
			fieldError(
				this,
				`Input Binary Field "${property}" is a ${mimeType || 'file of unknown type'}; the platform accepts only PNG, JPEG or JPG images`,
				i,
			);
		}
		const buffer = await this.helpers.getBinaryDataBuffer(i, property);
		if (buffer.length < format.magic.length || !format.magic.every((byte, n) => buffer[n] === byte)) {
			fieldError(
				this,
				`Input Binary Field "${property}" is labelled ${mimeType} but its content is not a ${format.label} image`,
				i,
			);
		}
		const fileName = binary.fileName?.trim() || `picture.${binary.fileExtension ?? format.extension}`;
		const form = new FormData();
		form.append('picture', new Blob([new Uint8Array(buffer)], { type: mimeType }), fileName);
		const data = await apiRequest.call(this, {
			method: 'PATCH',
			path: '/payment-links/upload-image/{id}',
			pathParams: { id: { value: id, label: 'Payment Link' } },
			body: form,
			business: true,
			itemIndex: i,
			explain: explainLinkRefusal('changing its image'),
			acceptedHint: 'check the link\'s image with Payment Link > Get before uploading again.',
		});
		// `data.image`: name, path, url, isPublic, extension (spec part 2).
		return recordOf(data, 'image');
	},
};
