import type { IDataObject, INodeProperties } from 'n8n-workflow';

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/** Keeps the listed keys of a record (those present), in that order. */
export function pick(record: IDataObject, keys: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const key of keys) if (key in record) out[key] = record[key];
	return out;
}
