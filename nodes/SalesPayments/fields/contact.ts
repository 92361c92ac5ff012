import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { NodeContext } from '../transport/errors';
import { fieldError } from '../transport/errors';
import { fixedValues } from '../transport/records';
import { compact, readText } from './validation';

/**
 * The contact groups of the buyer shape (spec part 2, charge request `buyer`): address, delivery
 * address, document and phone, shared by Customer Create/Update and Order Create Charge.
 */

function addressField(name: string, displayName: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		placeholder: `Add ${displayName.toLowerCase()}`,
		default: {},
		description,
		options: [
			{
				displayName,
				name: 'values',
				values: [
					{ displayName: 'City', name: 'city', type: 'string', default: '' },
					{ displayName: 'Complement', name: 'complement', type: 'string', default: '', placeholder: 'e.g. Apt 12' },
					{ displayName: 'Neighborhood', name: 'neighborhood', type: 'string', default: '' },
					{ displayName: 'Number', name: 'number', type: 'string', default: '', placeholder: 'e.g. 100' },
					{ displayName: 'State', name: 'state', type: 'string', default: '', placeholder: 'e.g. SP' },
					{ displayName: 'Street', name: 'street', type: 'string', default: '' },
					{ displayName: 'Zip Code', name: 'zipCode', type: 'string', default: '', placeholder: 'e.g. 01310-100' },
				],
			},
		],
	};
}

export const addressProperty = addressField('address', 'Address', 'Postal address of the person');

export const deliveryAddressProperty = addressField(
	'deliveryAddress',
	'Delivery Address',
	'Where the purchase is delivered, when it differs from the address',
);

export const documentProperty: INodeProperties = {
	displayName: 'Document',
	name: 'document',
	type: 'fixedCollection',
	placeholder: 'Add document',
	default: {},
	description: 'Identity or tax document of the person',
	options: [
		{
			displayName: 'Document',
			name: 'values',
			values: [
				{
					displayName: 'Type',
					name: 'type',
					type: 'string',
					default: 'CPF',
					description:
						'Document type as the platform names it. CPF is the value the API documents; other types the platform accepts can be typed in.',
				},
				{
					displayName: 'Number',
					name: 'number',
					type: 'string',
					default: '',
					placeholder: 'e.g. 12345678909',
				},
			],
		},
	],
};

export const phoneProperty: INodeProperties = {
	displayName: 'Phone',
	name: 'phone',
	type: 'fixedCollection',
	placeholder: 'Add phone',
	default: {},
	options: [
		{
			displayName: 'Phone',
			name: 'values',
			values: [
				{
					displayName: 'Area Code',
					name: 'areaCode',
					type: 'string',
					default: '',
					placeholder: 'e.g. +55',
					description: 'Country calling code',
				},
				{
					displayName: 'DDD',
					name: 'ddd',
					type: 'string',
					default: '',
					placeholder: 'e.g. 11',
					description: 'Regional (long-distance) code',
				},
				{
					displayName: 'Is Mobile',
					name: 'isMobile',
					type: 'boolean',
					default: true,
					description: 'Whether the number is a mobile phone',
				},
				{ displayName: 'Number', name: 'number', type: 'string', default: '', placeholder: 'e.g. 912345678' },
			],
		},
	],
};

/** The text fields `keys` of a group; a value of another type is refused as `<group> › <key>`. */
function textObject(ctx: NodeContext, values: IDataObject, keys: readonly string[], group: string, i: number): IDataObject {
	const out: IDataObject = {};
	for (const key of keys) out[key] = readText(ctx, values[key], `${group} › ${key}`, i);
	return compact(out);
}

const ADDRESS_KEYS = ['zipCode', 'street', 'complement', 'neighborhood', 'city', 'state', 'number'] as const;

/**
 * Reads the address, delivery address, document and phone groups found in `fields` (a
 * collection's value) into the body shape of the platform. Groups left empty are not sent.
 */
export function readContactGroups(this: NodeContext, fields: IDataObject, i: number): IDataObject {
	const out: IDataObject = {};
	for (const [key, group] of [['address', 'Address'], ['deliveryAddress', 'Delivery Address']]) {
		if (fields[key] === undefined) continue;
		const address = textObject(this, fixedValues(fields[key]), ADDRESS_KEYS, group, i);
		if (Object.keys(address).length) out[key] = address;
	}
	if (fields.document !== undefined) {
		const document = textObject(this, fixedValues(fields.document), ['type', 'number'], 'Document', i);
		if (document.number === undefined && Object.keys(document).length) {
			fieldError(this, 'Document Number is required when a document is given', i);
		}
		if (document.number !== undefined && document.type === undefined) {
			fieldError(this, 'Document Type is required when a document number is given', i);
		}
		if (Object.keys(document).length) out.document = document;
	}
	if (fields.phone !== undefined) {
		const values = fixedValues(fields.phone);
		const phone = textObject(this, values, ['areaCode', 'ddd', 'number'], 'Phone', i);
		if (Object.keys(phone).length) {
			if (phone.number === undefined) {
				fieldError(this, 'Phone Number is required when a phone is given', i);
			}
			if (typeof values.isMobile === 'boolean') phone.isMobile = values.isMobile;
			out.phone = phone;
		}
	}
	return out;
}
