/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The schema preview files of the action node: one JSON Schema per operation and node version at
 * `nodes/SalesPayments/__schema__/v<major.minor.patch>/<resource>/<operation>.json`, where n8n
 * looks for them beside the built node (the build copies them to dist/). Generated from
 * operations.ts and the built node's description by `npm run schemas`; the contract test
 * (test/in-process/schemas.test.ts) fails when a file is stale or does not match the output.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { listOperations, nodeDescription } from '../helpers/operations';
import { OPERATION_SCHEMAS } from './operations';
import type { JsonSchema } from './shapes';
import { runCommand } from '../command';

export const SCHEMA_DIR = path.resolve(__dirname, '../../..', 'nodes/SalesPayments/__schema__');

/** A node version as n8n's editor pads it in the schema URL: 1 -> 1.0.0, 1.1 -> 1.1.0. */
export function padVersion(version: number): string {
	return String(version).split('.').concat(['0', '0']).slice(0, 3).join('.');
}

/** Every version of the action node, padded. */
export function nodeVersions(): string[] {
	const version = nodeDescription().version;
	return (Array.isArray(version) ? version : [version]).map(padVersion);
}

const IN_CENTS = /^(.+)InCents$/;

function isNumber(schema: JsonSchema): boolean {
	const types = Array.isArray(schema.type) ? schema.type : [schema.type];
	return types.includes('integer') || types.includes('number');
}

/**
 * Add Decimal Amounts (fields/simplify.ts) at every depth: next to each `...InCents` number its
 * decimal under the name without "InCents", or `<name>Decimal` where the record uses that name.
 */
export function withDecimals(schema: JsonSchema): JsonSchema {
	const out: JsonSchema = { ...schema };
	if (schema.items) out.items = withDecimals(schema.items);
	if (schema.properties) {
		const properties: Record<string, JsonSchema> = {};
		for (const [key, value] of Object.entries(schema.properties)) {
			properties[key] = withDecimals(value);
			const base = IN_CENTS.exec(key)?.[1];
			if (base === undefined || !isNumber(value)) continue;
			const decimal: string = base in schema.properties ? `${base}Decimal` : base;
			if (!(decimal in schema.properties)) properties[decimal] = { type: 'number' };
		}
		out.properties = properties;
	}
	return out;
}

const DECIMALS_NOTE = 'Add Decimal Amounts adds next to each ...InCents field its decimal (valueInCents 4959: value 49.59).';

/** The schema file of one operation (`resource.operation`), as n8n's editor reads it. */
export function operationSchema(key: string, amounts: boolean): Record<string, unknown> {
	const def = OPERATION_SCHEMAS[key];
	if (!def) throw new Error(`No output schema for ${key}: describe it in test/support/schemas/operations.ts`);
	const body = obj(def.properties);
	const properties = (amounts ? withDecimals(body) : body).properties;
	return {
		type: 'object',
		description: amounts ? `${def.about} ${DECIMALS_NOTE}` : def.about,
		properties,
		...(def.required ? { required: def.required } : {}),
		// A real platform may answer with more fields than the spec and the simulator show.
		additionalProperties: true,
	};
}

function obj(properties: Record<string, JsonSchema>): JsonSchema {
	return { type: 'object', properties };
}

/** Every schema file: path below __schema__ -> its text. */
export function schemaFiles(): Map<string, string> {
	const files = new Map<string, string>();
	const operations = listOperations();
	const known = new Set(operations.map((op) => op.key));
	const stray = Object.keys(OPERATION_SCHEMAS).filter((key) => !known.has(key));
	if (stray.length) throw new Error(`Output schemas of operations the node does not have: ${stray.join(', ')}`);
	for (const version of nodeVersions()) {
		for (const op of operations) {
			const amounts = op.properties.some((p) => p.name === 'decimalAmounts');
			const file = `v${version}/${op.resource}/${op.operation}.json`;
			files.set(file, `${JSON.stringify(operationSchema(op.key, amounts), null, '\t')}\n`);
		}
	}
	return files;
}

/** The schema files on disk, as paths below __schema__. */
export function filesOnDisk(dir = SCHEMA_DIR): string[] {
	let entries: string[];
	try {
		entries = readdirSync(dir, { recursive: true }) as string[];
	} catch {
		return [];
	}
	return entries.filter((f) => f.endsWith('.json')).map((f) => f.split(path.sep).join('/')).sort();
}

export function readSchemaFile(file: string, dir = SCHEMA_DIR): string {
	return readFileSync(path.join(dir, file), 'utf8');
}

/** Writes every schema file and removes those of operations or versions that no longer exist. */
export function writeSchemaFiles(): { written: number; removed: string[] } {
	const files = schemaFiles();
	const removed = filesOnDisk().filter((f) => !files.has(f));
	for (const file of removed) rmSync(path.join(SCHEMA_DIR, file));
	for (const [file, text] of files) {
		mkdirSync(path.dirname(path.join(SCHEMA_DIR, file)), { recursive: true });
		writeFileSync(path.join(SCHEMA_DIR, file), text);
	}
	return { written: files.size, removed };
}

/** `npm run schemas`. */
export function main(): void {
	const { written, removed } = writeSchemaFiles();
	const gone = removed.length ? `; removed ${removed.join(', ')}` : '';
	process.stdout.write(`Wrote ${written} schema files to ${path.relative(process.cwd(), SCHEMA_DIR)}${gone}\n`);
}

runCommand(module, main);
