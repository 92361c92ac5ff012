/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Every operation of the built action node, read from its description in dist/, with a valid
 * baseline input for each (so that one changed field is the only thing wrong) and the bad-input
 * rows that can be derived from the fields themselves. Used by the validation table and by the
 * Request Options tests that run every operation.
 */
import path from 'node:path';

import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodeTypeDescription,
} from 'n8n-workflow';

import type { CredentialValues } from '../harness/n8n-core';
import { PACKAGE_DIR } from '../harness/n8n-core';
import { identityUrl, PLAIN_USER } from '../simulator/routes/identity';
import type { Simulator } from '../simulator/server';
import { dataCredentials } from './sim';

export interface OperationInfo {
	resource: string;
	operation: string;
	/** `resource.operation`, e.g. `order.createCharge`. */
	key: string;
	/** Fields shown for the operation (resource and operation selectors left out). */
	properties: INodeProperties[];
	/** Uses the identity credential. */
	identity: boolean;
}

let description: INodeTypeDescription | undefined;

/** The action node's description, from the built package (as n8n loads it). */
export function nodeDescription(): INodeTypeDescription {
	if (!description) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const mod = require(path.join(PACKAGE_DIR, 'dist/nodes/SalesPayments/SalesPayments.node.js')) as {
			SalesPayments: new () => { description: INodeTypeDescription };
		};
		description = new mod.SalesPayments().description;
	}
	return description;
}

function showsFor(prop: INodeProperties, resource: string, operation: string): boolean {
	const show = prop.displayOptions?.show;
	if (!show) return true;
	if (show.resource && !(show.resource as string[]).includes(resource)) return false;
	if (show.operation && !(show.operation as string[]).includes(operation)) return false;
	return true;
}

/** Every operation of every resource, in the editor's order. */
export function listOperations(): OperationInfo[] {
	const props = nodeDescription().properties;
	const resourceProp = props.find((p) => p.name === 'resource')!;
	const credentials = nodeDescription().credentials ?? [];
	const identityResources = new Set(
		credentials
			.filter((c) => c.name === 'salesPaymentsIdentityApi')
			.flatMap((c) => (c.displayOptions?.show?.resource as string[] | undefined) ?? []),
	);
	const ops: OperationInfo[] = [];
	for (const { value } of resourceProp.options as Array<{ value: string }>) {
		const resource = String(value);
		const opProp = props.find((p) => p.name === 'operation' && showsFor(p, resource, ''))!;
		for (const { value: opValue } of opProp.options as Array<{ value: string }>) {
			const operation = String(opValue);
			ops.push({
				resource,
				operation,
				key: `${resource}.${operation}`,
				properties: props.filter(
					(p) => p.name !== 'resource' && p.name !== 'operation' && showsFor(p, resource, operation),
				),
				identity: identityResources.has(resource),
			});
		}
	}
	return ops;
}

/** Whether a field's own display conditions (beyond resource/operation) hold for these parameters. */
export function isShown(prop: INodeProperties, params: INodeParameters, siblings: INodeProperties[]): boolean {
	const show = prop.displayOptions?.show ?? {};
	for (const [key, allowed] of Object.entries(show)) {
		if (key === 'resource' || key === 'operation') continue;
		const sibling = siblings.find((s) => s.name === key);
		const value = key in params ? params[key] : sibling?.default;
		if (!(allowed as unknown[]).includes(value)) return false;
	}
	return true;
}

export const SAMPLE_ID = 'abc123';
export const SAMPLE_EMAIL = 'buyer@mail.example';
export const SAMPLE_TOKEN = 'tok_sample_a1b2c3d4e5f6';
export const SAMPLE_REFRESH = 'rtk_sample_f6e5d4c3b2a1';

/** A real PNG header: enough for the upload's content check. */
export const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

/** Values for required fields that cannot be derived from the field alone. */
const OVERRIDES: Record<string, INodeParameters> = {
	'order.createCharge': {
		items: { item: [{ name: 'Course', quantity: 1, priceInCents: 1000 }] },
		payments: { payment: [{ method: 'pix', numberInstallments: 1, valueInCents: 1000 }] },
	},
	'webhook.create': {
		dispatchers: { http: [{ url: 'https://hooks.example.com/sales', method: 'POST' }] },
	},
	'identity.refreshToken': { accessToken: SAMPLE_TOKEN, refreshToken: SAMPLE_REFRESH },
	// Updates refuse to send nothing: one field changes.
	'customer.update': { updateFields: { name: 'Ana Souza' } },
	'paymentLink.update': { updateFields: { name: 'Course link' } },
	'pixel.update': { updateFields: { name: 'Main pixel' } },
	'webhook.update': { updateFields: { name: 'Sales hook' } },
};

function sampleFor(prop: INodeProperties): unknown {
	switch (prop.type) {
		case 'string':
			if (/email/i.test(prop.name)) return SAMPLE_EMAIL;
			if (prop.name === 'binaryPropertyName') return 'data';
			return SAMPLE_ID;
		case 'resourceLocator':
			return { __rl: true, mode: 'id', value: SAMPLE_ID };
		case 'number':
			return Math.max(Number(prop.typeOptions?.minValue ?? 0), 1000);
		case 'options':
			return prop.default;
		case 'multiOptions':
			return [(prop.options as Array<{ value: string }>)[0].value];
		default:
			return prop.default;
	}
}

export interface Baseline {
	parameters: INodeParameters;
	input: INodeExecutionData[];
	credentials: CredentialValues;
	nodeCredentials: string[];
}

/** Parameters that pass every check of the operation: its required fields filled in. */
export function baselineParameters(op: OperationInfo): INodeParameters {
	const params: INodeParameters = { resource: op.resource, operation: op.operation };
	const overrides = OVERRIDES[op.key] ?? {};
	for (const prop of op.properties) {
		if (prop.name in overrides) params[prop.name] = overrides[prop.name];
		else if (prop.required && isShown(prop, params, op.properties)) params[prop.name] = sampleFor(prop) as never;
	}
	// Operations after sign-in get a token, so that they make their own request first.
	if (op.identity && op.properties.some((p) => p.name === 'accessToken') && !('accessToken' in params)) {
		params.accessToken = SAMPLE_TOKEN;
	}
	return params;
}

export function baselineFor(op: OperationInfo, sim: Simulator): Baseline {
	const input: INodeExecutionData[] = [
		op.key === 'paymentLink.uploadImage'
			? {
					json: {},
					binary: { data: { data: PNG_BYTES.toString('base64'), mimeType: 'image/png', fileName: 'picture.png' } },
				}
			: { json: {} },
	];
	const credentials: CredentialValues = op.identity
		? {
				salesPaymentsIdentityApi: {
					identityUrl: identityUrl(sim),
					username: PLAIN_USER.username,
					password: PLAIN_USER.password,
					fingerprint: 'n8n-validation-table',
				},
			}
		: dataCredentials(sim);
	return {
		parameters: baselineParameters(op),
		input,
		credentials,
		nodeCredentials: op.identity ? ['salesPaymentsIdentityApi'] : ['salesPaymentsApi'],
	};
}

/** One wrong input: the field it concerns (by display name) and how to put it into the parameters. */
export interface BadInputRow {
	op: string;
	/** Display name the error must name. */
	field: string;
	/** What is wrong, for the test title, e.g. `empty`, `-1`, `'not-a-date'`. */
	what: string;
	/** Parameter path, e.g. ['filters', 'initialDate'] or ['items', 'item', 0, 'priceInCents']. */
	path: Array<string | number>;
	value: unknown;
}

const UNKNOWN_OPTION = 'zz-not-an-option';

/**
 * Option fields that take values outside their list by expression on purpose (the spec leaves
 * the full list open): `<resource.operation>:<path without indexes>`. Their other values are
 * sent as given, which the resource's own tests check.
 */
const OPEN_OPTIONS = new Set(['order.createCharge:payments.payment.method']);
/** An expression giving an empty text, like `{{ $json.id }}` on an item without `id`. */
const EMPTY_EXPRESSION = '={{ $json.missingField ?? "" }}';

/**
 * IDs crafted to leave their path segment: dot segments, their percent-encoded forms,
 * backslashes (read as `/` by URL parsers), slashes, query and fragment marks, spaces.
 */
export const CRAFTED_IDS = ['..', '.', '%2e%2e', '%2E', '..%2F..', '..\\webhooks', 'a\\..\\b', '../webhooks/delete/x', 'x?y=1', 'x#y', 'a b', 'é'];

/** Text fields (not resource locators) whose value is placed in a request path (or checked as an ID). */
const PATH_TEXT_FIELDS: Record<string, string[]> = {
	'order.get': ['orderId'],
	'voucher.redeem': ['voucherId'],
	'voucher.cancelRedemption': ['voucherId'],
	'voucher.getByCode': ['code'],
	'*': ['businessId'],
};

function isPathText(opKey: string | undefined, name: string): boolean {
	return [...(PATH_TEXT_FIELDS['*'] ?? []), ...(opKey ? PATH_TEXT_FIELDS[opKey] ?? [] : [])].includes(name);
}

/** Whole numbers written so that a lenient parser would read another number. */
const LENIENT_INTEGERS: Array<{ what: string; value: unknown }> = [
	{ what: "'1e3' by expression", value: '={{ "1e3" }}' },
	{ what: "'0x10' by expression", value: '={{ "0x10" }}' },
	{ what: '1e21 by expression', value: '={{ 1e21 }}' },
	{ what: '2^53 by expression', value: '={{ 2 ** 53 }}' },
];

/** Dates a lenient parser would turn into another day. */
const LENIENT_DATES = ['2026-02-31', '2026-13-01', '1', 'March 7', '2026-01-01T24:00:00'];

/** The wrong values a user can type into a field, derived from its type and limits. */
export function badValuesFor(prop: INodeProperties, required: boolean, opKey?: string): Array<{ what: string; value: unknown }> {
	const rows: Array<{ what: string; value: unknown }> = [];
	switch (prop.type) {
		case 'string':
			if (isPathText(opKey, prop.name)) for (const id of CRAFTED_IDS) rows.push({ what: `crafted ${JSON.stringify(id)}`, value: id });
			// n8n itself refuses to start a workflow whose required field is literally empty; an
			// expression that evaluates to nothing (a missing input field) reaches the node.
			if (required) rows.push({ what: 'empty by expression', value: EMPTY_EXPRESSION }, { what: 'blank', value: '   ' });
			if (/email/i.test(prop.name) || /email/i.test(prop.displayName)) {
				if (!/id$/i.test(prop.name)) rows.push({ what: 'not an email', value: 'not-an-email' });
			}
			break;
		case 'resourceLocator':
			for (const id of CRAFTED_IDS) rows.push({ what: `crafted ${JSON.stringify(id)}`, value: { __rl: true, mode: 'id', value: id } });
			if (required) {
				rows.push(
					{ what: 'empty by expression', value: { __rl: true, mode: 'id', value: EMPTY_EXPRESSION } },
					{ what: 'blank by expression', value: { __rl: true, mode: 'id', value: '={{ "  " }}' } },
				);
			}
			break;
		case 'number': {
			const min = prop.typeOptions?.minValue;
			const max = prop.typeOptions?.maxValue;
			if (min !== undefined) {
				rows.push({ what: `${min - 1} (below ${min})`, value: min - 1 });
				if (min - 1 !== -1 && min >= 0) rows.push({ what: '-1', value: -1 });
			}
			if (max !== undefined) rows.push({ what: `${max + 1} (above ${max})`, value: max + 1 });
			if (prop.typeOptions?.numberPrecision === 0) {
				const base = Math.max(Number(min ?? 0), 1);
				rows.push({ what: `${base + 0.5} (not whole)`, value: base + 0.5 }, ...LENIENT_INTEGERS);
			}
			break;
		}
		case 'dateTime':
			rows.push({ what: "'not-a-date'", value: 'not-a-date' });
			for (const date of LENIENT_DATES) rows.push({ what: `lenient ${JSON.stringify(date)}`, value: date });
			break;
		case 'json':
			rows.push({ what: "'{bad'", value: '{bad' });
			break;
		case 'options':
			if (!prop.noDataExpression) rows.push({ what: 'unknown value by expression', value: `={{ "${UNKNOWN_OPTION}" }}` });
			break;
		case 'multiOptions':
			if (!prop.noDataExpression) rows.push({ what: 'unknown value', value: [UNKNOWN_OPTION] });
			break;
		default:
			break;
	}
	return rows;
}

function childrenOf(prop: INodeProperties): INodeProperties[] {
	return (prop.options ?? []).filter((o): o is INodeProperties => 'type' in o);
}

/** Whether a collection's option is shown for this operation (its `/resource` and `/operation` conditions). */
function childShownFor(child: INodeProperties, op: OperationInfo): boolean {
	const rootOf = (key: string) => (key === '/operation' ? op.operation : key === '/resource' ? op.resource : undefined);
	for (const [key, values] of Object.entries(child.displayOptions?.hide ?? {})) {
		if (rootOf(key) !== undefined && (values as unknown[]).includes(rootOf(key))) return false;
	}
	for (const [key, values] of Object.entries(child.displayOptions?.show ?? {})) {
		if (rootOf(key) !== undefined && !(values as unknown[]).includes(rootOf(key))) return false;
	}
	return true;
}

function groupsOf(prop: INodeProperties): INodePropertyCollection[] {
	return (prop.options ?? []).filter((o): o is INodePropertyCollection => 'values' in o);
}

/**
 * The bad-input rows of an operation: its required text fields and resource locators left empty,
 * numbers outside their limits or not whole, dates that are not dates, broken JSON, unknown
 * option values and malformed emails, at the top level, inside collections (Filters, Options,
 * Additional Fields, Request Options ...) and inside the entries of the baseline's fixed collections.
 */
export function badInputRows(op: OperationInfo): BadInputRow[] {
	const params = baselineParameters(op);
	const rows: BadInputRow[] = [];
	const add = (field: string, pathTo: Array<string | number>, prop: INodeProperties, required: boolean) => {
		const open = OPEN_OPTIONS.has(`${op.key}:${pathTo.filter((p) => typeof p === 'string').join('.')}`);
		for (const bad of badValuesFor(prop, required, op.key)) {
			if (open && bad.what === 'unknown value by expression') continue;
			rows.push({ op: op.key, field, what: bad.what, path: pathTo, value: bad.value });
		}
	};
	for (const prop of op.properties) {
		if (prop.type === 'notice' || !isShown(prop, params, op.properties)) continue;
		if (prop.type === 'collection') {
			for (const child of childrenOf(prop)) if (childShownFor(child, op)) add(child.displayName, [prop.name, child.name], child, false);
			continue;
		}
		if (prop.type === 'fixedCollection') {
			const value = params[prop.name] as IDataObject | undefined;
			for (const group of groupsOf(prop)) {
				const entries = value?.[group.name];
				if (!Array.isArray(entries) || entries.length === 0) continue;
				for (const child of group.values) {
					if (child.type === 'fixedCollection' || child.type === 'collection') continue;
					add(child.displayName, [prop.name, group.name, 0, child.name], child, child.required === true);
				}
			}
			continue;
		}
		add(prop.displayName, [prop.name], prop, prop.required === true);
	}
	return rows;
}

/** A deep copy of the parameters with `value` put at `pathTo`. */
export function withValue(params: INodeParameters, pathTo: Array<string | number>, value: unknown): INodeParameters {
	const copy = JSON.parse(JSON.stringify(params)) as INodeParameters;
	let target = copy as unknown as Record<string | number, unknown>;
	for (const key of pathTo.slice(0, -1)) {
		if (target[key] === undefined || target[key] === null || typeof target[key] !== 'object') {
			target[key] = typeof key === 'number' ? [] : {};
		}
		target = target[key] as Record<string | number, unknown>;
	}
	target[pathTo[pathTo.length - 1]] = value;
	return copy;
}
