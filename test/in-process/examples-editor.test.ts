/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The example workflows as n8n's editor shows them (issue 53): each Sales & Payments node's
 * parameters read from the built node's description with n8n's own display rules
 * (NodeHelpers.displayParameter, getNodeParameters), as the editor evaluates displayOptions. The
 * finance example's Excel export shows only what applies to an Excel file, with a fixed Output; the
 * CSV variant is a second node, disabled. No example sets a parameter the editor hides (it would
 * be dropped without a word when the node is edited).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INode, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { EXAMPLES_DIR, FINANCE_CSV_NODE, FINANCE_EXCEL_NODE } from '../support/demo';
import { loadPackage } from '../support/harness/n8n-core';

type ExampleNode = INode & { parameters: INodeParameters };
interface Example {
	file: string;
	nodes: ExampleNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const EXAMPLES: Example[] = readdirSync(EXAMPLES_DIR)
	.filter((f) => f.endsWith('.json'))
	.sort()
	.map((file) => ({ file, ...(JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as Omit<Example, 'file'>) }));

const FINANCE = EXAMPLES.find((e) => e.file === '1-finance-movements.json')!;
const EXCEL_NODE = FINANCE_EXCEL_NODE;
const CSV_NODE = FINANCE_CSV_NODE;

let describeType: (type: string, version: number) => INodeTypeDescription;

beforeAll(async () => {
	const { nodeTypes } = await loadPackage();
	describeType = (type, version) => nodeTypes.getByNameAndVersion(type, version).description;
});

function ours(node: INode): boolean {
	return node.type.startsWith('n8n-nodes-sales-payments.');
}

/** The node's top-level parameters the editor shows, in its order. */
function shown(node: ExampleNode): INodeProperties[] {
	const description = describeType(node.type, node.typeVersion);
	const values = NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node, description) ?? {};
	return description.properties.filter((p) => NodeHelpers.displayParameter(values, p, node, description, values));
}

/** The options a collection shown on the node offers under "Add option", evaluated against the node's parameters. */
function offered(node: ExampleNode, collection: string): INodeProperties[] {
	const property = shown(node).find((p) => p.name === collection);
	if (!property) return [];
	const description = describeType(node.type, node.typeVersion);
	const values = NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node, description) ?? {};
	const inside = (values[collection] ?? {}) as INodeParameters;
	return (property.options as INodeProperties[]).filter((o) => NodeHelpers.displayParameter(inside, o, node, description, values));
}

/** Every parameter the example sets that the editor would not show, as `path`. */
function hiddenButSet(node: ExampleNode): string[] {
	const visible = shown(node);
	const hidden: string[] = [];
	for (const [name, value] of Object.entries(node.parameters)) {
		const property = visible.find((p) => p.name === name);
		if (!property) {
			hidden.push(name);
			continue;
		}
		if (property.type !== 'collection' || typeof value !== 'object' || value === null) continue;
		const options = offered(node, name).map((o) => o.name);
		for (const key of Object.keys(value)) if (!options.includes(key)) hidden.push(`${name}.${key}`);
	}
	return hidden;
}

/** What a user sees of a node: each shown parameter with its value, File Options' options with theirs. */
function asSeen(node: ExampleNode): string[] {
	const lines: string[] = [];
	for (const p of shown(node)) {
		const value = node.parameters[p.name];
		if (p.type === 'collection') {
			const set = (value ?? {}) as INodeParameters;
			lines.push(`${p.displayName}: ${offered(node, p.name).map((o) => (o.name in set ? `${o.displayName} (set)` : o.displayName)).join(', ')}`);
			continue;
		}
		const option = (p.options as INodePropertyOptions[] | undefined)?.find((o) => o.value === value);
		lines.push(`${p.displayName}: ${option ? option.name : value === undefined ? '(default)' : typeof value === 'string' ? value : JSON.stringify(value)}`);
	}
	return lines;
}

describe('the examples as the editor shows them', () => {
	it("sets no parameter on a Sales & Payments node that the editor hides (and would drop when the node is edited)", () => {
		const nodes = EXAMPLES.flatMap((e) => e.nodes.filter(ours).map((node) => ({ example: e.file, node })));
		expect(nodes.length).toBeGreaterThanOrEqual(8);
		for (const { example, node } of nodes) expect({ example, node: node.name, hidden: hiddenButSet(node) }).toEqual({ example, node: node.name, hidden: [] });
	});

	it('chooses Output with a fixed value, never an expression', () => {
		for (const example of EXAMPLES) {
			for (const node of example.nodes.filter((n) => ours(n) && 'output' in n.parameters)) {
				expect({ node: node.name, output: node.parameters.output }).toEqual({ node: node.name, output: expect.not.stringMatching(/^=/) });
			}
		}
	});
});

describe('the finance example', () => {
	const excel = () => FINANCE.nodes.find((n) => n.name === EXCEL_NODE)!;
	const csv = () => FINANCE.nodes.find((n) => n.name === CSV_NODE)!;

	it('exports to an Excel file and shows only the options of an Excel file', () => {
		expect(excel().disabled).toBeFalsy();
		expect(asSeen(excel())).toEqual([
			'Resource: Movement',
			'Operation: Get Many',
			'Output: Excel File (.xlsx)',
			'Return All: true',
			'Put Output File in Field: (default)',
			'File Options: Columns (set), Dates, File Name (set), Header Row, Order (set), Sheet Name (set)',
			'Pagination: Max Concurrent Requests, Max Pages, Page Size (set)',
			'Filters: Date From (set), Date To (set), Description, Group ID, Hash, Omit Credits, Omit Debits, Origin Type, Reference ID, Subject, Value From (Cents), Value To (Cents)',
			'Add Decimal Amounts: true',
			'Request Options: Timeout (Ms), Max Retries',
		]);
		const options = offered(excel(), 'fileOptions').map((o) => o.displayName);
		for (const csvOnly of ['Add Byte Order Mark (BOM)', 'Delimiter', 'Decimal Separator', 'Neutralize Formulas']) expect(options).not.toContain(csvOnly);
	});

	it('has the CSV variant as a second node, disabled, with the options of a CSV file, passing the Excel file on while disabled', () => {
		expect(csv().disabled).toBe(true);
		expect(csv().parameters.output).toBe('csvFile');
		const options = offered(csv(), 'fileOptions').map((o) => o.displayName);
		expect(options).toEqual(expect.arrayContaining(['Add Byte Order Mark (BOM)', 'Delimiter', 'Dates', 'Columns', 'File Name', 'Order']));
		expect(options).not.toContain('Sheet Name');
		expect(hiddenButSet(csv())).toEqual([]);
		// Settings -> Excel -> CSV (disabled: n8n passes its input on) -> Adds up?: enable one, disable the other.
		const next = (name: string) => FINANCE.connections[name].main[0].map((c) => c.node);
		expect([next('Settings'), next(EXCEL_NODE), next(CSV_NODE)]).toEqual([[EXCEL_NODE], [CSV_NODE], ['Adds up?']]);
		// Both read the month from Settings, whichever of them runs.
		for (const node of [excel(), csv()]) expect(JSON.stringify(node.parameters)).not.toContain('$json.month');
		const settings = FINANCE.nodes.find((n) => n.name === 'Settings')!.parameters as { assignments: { assignments: Array<{ name: string }> } };
		expect(settings.assignments.assignments.map((a) => a.name)).toEqual(['month', 'folder']);
	});

	it('lists Items first in Output, then Excel, CSV and JSON Lines', () => {
		const output = shown(excel()).find((p) => p.name === 'output')!;
		expect((output.options as INodePropertyOptions[]).map((o) => o.name)).toEqual(['Items', 'Excel File (.xlsx)', 'CSV File', 'JSON Lines File', 'Summary']);
	});
});
