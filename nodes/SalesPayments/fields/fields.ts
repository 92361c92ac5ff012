import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { NodeContext } from '../transport/errors';
import {
	checkBoolean,
	checkCents,
	checkEmail,
	checkInteger,
	checkOneOf,
	checkOptions,
	parseJsonObject,
	readIds,
	readText,
	toIsoDate,
} from './validation';

/**
 * Fields declared once with their kind, and the one converter of a value of each kind (errors name
 * the field): the filters of the lists and the polling trigger, the payment link's body fields.
 */
export type FieldKind = 'boolean' | 'cents' | 'date' | 'email' | 'ids' | 'integer' | 'json' | 'option' | 'options' | 'text';

export interface Field {
	kind: FieldKind;
	property: INodeProperties;
	/** Smallest value of an integer. */
	min?: number;
}

/** A field of the given kind made of an existing property (e.g. the webhook Events multi-select). */
export function fieldOf(kind: FieldKind, property: INodeProperties): Field {
	return { kind, property };
}

/** A field typed as text: plain text, an email address or a list of IDs. */
function typed(kind: FieldKind, name: string, displayName: string, description: string, placeholder?: string): Field {
	return fieldOf(kind, { displayName, name, type: 'string', default: '', description, ...(placeholder ? { placeholder } : {}) });
}

export const field = {
	/** A date-time, sent as ISO 8601 UTC with milliseconds. */
	date(name: string, displayName: string, description: string): Field {
		return fieldOf('date', { displayName, name, type: 'dateTime', default: '', description });
	},
	/** An amount: a whole, non-negative number of cents. */
	cents(name: string, displayName: string, description: string): Field {
		return fieldOf('cents', {
			displayName,
			name,
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description,
		});
	},
	/** A whole number of at least `min`. */
	integer(name: string, displayName: string, min: number, def: number, description: string): Field {
		return {
			kind: 'integer',
			min,
			property: { displayName, name, type: 'number', typeOptions: { minValue: min, numberPrecision: 0 }, default: def, description },
		};
	},
	text(name: string, displayName: string, description: string, placeholder?: string): Field {
		return typed('text', name, displayName, description, placeholder);
	},
	email(name: string, displayName: string, description: string): Field {
		return typed('email', name, displayName, description, 'name@email.com');
	},
	/** A list of IDs typed as comma-separated text (or an array from an expression). */
	ids(name: string, displayName: string, description: string): Field {
		return typed('ids', name, displayName, description, 'e.g. 1b2c3d4e-..., 5f6a7b8c-...');
	},
	boolean(name: string, displayName: string, description: string): Field {
		return fieldOf('boolean', { displayName, name, type: 'boolean', default: false, description });
	},
	option(name: string, displayName: string, options: INodePropertyOptions[], description: string): Field {
		const sorted = [...options].sort((a, b) => a.name.localeCompare(b.name));
		// A variable: n8n's lint accepts an identifier as a default it cannot evaluate.
		const first = sorted[0].value;
		return fieldOf('option', { displayName, name, type: 'options', options: sorted, default: first, description });
	},
	/** A JSON object given as text (or an object from an expression). */
	json(name: string, displayName: string, description: string): Field {
		return fieldOf('json', { displayName, name, type: 'json', default: '{}', description });
	},
};

function optionValues(f: Field): string[] {
	return ((f.property.options ?? []) as INodePropertyOptions[]).map((o) => String(o.value));
}

/**
 * Reads one value of a field; undefined means "not set, send nothing". An empty date, email, text,
 * ID list or multi-select is not set; a number, switch or option given empty (by expression) is
 * refused, naming the field.
 */
export function readField(ctx: NodeContext, f: Field, value: unknown, i: number | undefined): unknown {
	const label = f.property.displayName;
	const blank = value === '' || value === undefined || value === null;
	switch (f.kind) {
		case 'boolean':
			return checkBoolean.call(ctx, value, i, label);
		case 'cents':
			return checkCents.call(ctx, value, i, label);
		case 'integer':
			return checkInteger.call(ctx, value, i, label, f.min ?? 0);
		case 'option':
			return checkOneOf.call(ctx, value, optionValues(f), i, label);
		case 'date':
			return blank ? undefined : toIsoDate.call(ctx, value, i, label);
		case 'email':
			return blank ? undefined : checkEmail.call(ctx, value, i, label);
		case 'ids': {
			const ids = readIds(ctx, value, i, label);
			return ids.length ? ids : undefined;
		}
		case 'options': {
			const values = checkOptions.call(ctx, value, optionValues(f), i, label);
			return values.length ? values : undefined;
		}
		case 'json':
			return parseJsonObject.call(ctx, value, i, label);
		case 'text':
			return readText(ctx, value, label, i);
	}
}
