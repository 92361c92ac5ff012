import type { INodeProperties } from 'n8n-workflow';

import { addressProperty, documentProperty, phoneProperty } from '../../fields/contact';
import { extraFieldsOption } from '../../transport/records';

const nameProperty: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'Full name of the customer',
};

const emailProperty: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	placeholder: 'name@email.com',
	default: '',
	description: 'Email address of the customer',
};

/** Required Name and Email of Create. */
export const customerRequiredProperties: INodeProperties[] = [
	{ ...nameProperty, required: true },
	{ ...emailProperty, required: true },
];

/** Optional customer fields, as collection options sorted by display name. */
export function customerOptions(withNameAndEmail: boolean): INodeProperties[] {
	const options = [addressProperty, documentProperty, extraFieldsOption('customer'), phoneProperty];
	if (withNameAndEmail) options.push(nameProperty, emailProperty);
	return options.sort((a, b) => a.displayName.localeCompare(b.displayName));
}
