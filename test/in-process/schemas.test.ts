/**
 * The schema preview files (nodes/SalesPayments/__schema__, shipped in dist/) against what the
 * node really outputs. Every operation runs against the simulator in every output variant its
 * options make (Simplify, Add Decimal Amounts, Movement's Summary, an accepted request answered
 * with nothing), and each output item is checked with ajv against the shipped file:
 * - every field the schema describes has the schema's JSON type (nested fields too);
 * - every top-level field of the output is described (a new output field needs the schema);
 * - every top-level field the schema describes appears in some variant (no stale field).
 * The files are generated (`npm run schemas`, test/support/schemas/); a stale file fails here.
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { IDataObject } from 'n8n-workflow';

import { runVariant, variantsOf } from '../support/helpers/contract';
import { listOperations } from '../support/helpers/operations';
import { useSimulator } from '../support/helpers/sim';
import { filesOnDisk, nodeVersions, readSchemaFile, schemaFiles } from '../support/schemas/files';
import type { JsonSchema } from '../support/schemas/shapes';

const sim = useSimulator();
const operations = listOperations();
const ajv = new Ajv({ strict: true, allErrors: true });

const JSON_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'];

/** Paths of every schema inside `schema` that has no JSON type (or an unknown one). */
function untyped(schema: JsonSchema, at = '$'): string[] {
	const types = Array.isArray(schema.type) ? schema.type : [schema.type];
	const own = types.length && types.every((t) => JSON_TYPES.includes(t)) ? [] : [at];
	const inner = Object.entries(schema.properties ?? {}).flatMap(([key, value]) => untyped(value, `${at}.${key}`));
	const items = schema.items ? untyped(schema.items, `${at}[]`) : [];
	const values = typeof schema.additionalProperties === 'object' ? untyped(schema.additionalProperties, `${at}.*`) : [];
	return [...own, ...inner, ...items, ...values];
}

/** The shipped schema of an operation (first version), as the editor downloads it. */
function shipped(resource: string, operation: string, version = nodeVersions()[0]): JsonSchema {
	return JSON.parse(readSchemaFile(`v${version}/${resource}/${operation}.json`)) as JsonSchema;
}

/** The same schema closed at the top level: a field it does not describe fails. */
function closed(schema: JsonSchema): JsonSchema {
	return { ...schema, additionalProperties: false };
}

function problems(validate: ValidateFunction, item: unknown): string[] {
	return validate(item) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '$'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

describe('schema files', () => {
	it('are the generated ones, one per operation and node version (run `npm run schemas` after changing outputs)', () => {
		const expected = schemaFiles();
		expect(filesOnDisk()).toEqual([...expected.keys()].sort());
		for (const [file, text] of expected) expect({ file, text: readSchemaFile(file) }).toEqual({ file, text });
		expect(expected.size).toBe(operations.length * nodeVersions().length);
		expect(operations.length).toBeGreaterThanOrEqual(52);
	});

	it.each(filesOnDisk())('%s is a schema the editor shows: an object with typed properties, valid for ajv', (file) => {
		const schema = JSON.parse(readSchemaFile(file)) as JsonSchema;
		// n8n's editor (getSchemaPreview) takes only `{ type, properties }` with properties.
		expect(schema.type).toBe('object');
		expect(Object.keys(schema.properties ?? {}).length).toBeGreaterThan(0);
		expect(schema.additionalProperties).toBe(true);
		expect(untyped(schema)).toEqual([]);
		expect(() => ajv.compile(schema)).not.toThrow();
	});

	it('the checks can fail: a wrong type, an undescribed field and an untyped property are caught', () => {
		const schema = shipped('order', 'createCharge');
		expect(problems(ajv.compile(schema), { orderId: 'a1' })).toEqual([]);
		expect(problems(ajv.compile(schema), { orderId: 42 })).toHaveLength(1);
		expect(problems(ajv.compile(schema), { orderId: 'a1', chargedAt: 'now' })).toEqual([]);
		expect(problems(ajv.compile(closed(schema)), { orderId: 'a1', chargedAt: 'now' })).toHaveLength(1);
		expect(untyped({ type: 'object', properties: { a: { type: 'string' }, b: {} as JsonSchema, c: { type: 'array', items: { type: 'text' } } } })).toEqual([
			'$.b',
			'$.c[]',
		]);
	});
});

describe.each(operations.map((op) => [op.key, op] as const))('%s', (_key, op) => {
	it('outputs what its schema describes, in every variant, and nothing else', async () => {
		const schema = shipped(op.resource, op.operation);
		const open = ajv.compile(schema);
		const strict = ajv.compile(closed(schema));
		const seen = new Set<string>();
		for (const variant of variantsOf(op)) {
			sim().clearRequests();
			const { error, items } = await runVariant(op, sim(), variant);
			// A read answered with nothing is an error, never an empty item (docs/pagination.md): no output to check.
			const read = sim().apiRequests.at(-1)?.method === 'GET';
			if (variant.emptyAnswer && read) {
				expect({ variant: variant.name, error: error?.message }).toEqual({
					variant: variant.name,
					error: "The platform's answer has an unexpected shape: it has an empty `data`",
				});
				continue;
			}
			expect({ variant: variant.name, error: error?.message }).toEqual({ variant: variant.name, error: undefined });
			expect({ variant: variant.name, items: items.length > 0 }).toEqual({ variant: variant.name, items: true });
			for (const [n, item] of items.entries()) {
				const json = item.json as IDataObject;
				const where = `${variant.name}, item ${n}`;
				expect({ where, wrongTypes: problems(open, json) }).toEqual({ where, wrongTypes: [] });
				expect({ where, undescribed: problems(strict, json) }).toEqual({ where, undescribed: [] });
				for (const key of Object.keys(json)) seen.add(key);
			}
		}
		// Each described field is output by some variant: the schema holds no field the node dropped.
		expect(Object.keys(schema.properties ?? {}).filter((key) => !seen.has(key))).toEqual([]);
	}, 60_000);
});
