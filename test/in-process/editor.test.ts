/**
 * What a person reads in n8n's editor, checked on the node descriptions as n8n loads them: every
 * resource described, a readable subtitle, the node-picker entry's description, date and amount
 * filters that read in order. The editor test (test/e2e/demo.test.ts) shows the same in Chromium.
 */
import type { INode, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ACTION_TYPE, loadPackage, TRIGGER_TYPE } from '../support/harness/n8n-core';

let action: INodeTypeDescription;
let trigger: INodeTypeDescription;
let nodeTypes: Awaited<ReturnType<typeof loadPackage>>['nodeTypes'];

beforeAll(async () => {
	({ nodeTypes } = await loadPackage());
	action = nodeTypes.getByNameAndVersion(ACTION_TYPE, 1).description;
	trigger = nodeTypes.getByNameAndVersion(TRIGGER_TYPE, 2).description;
});

function subtitleFor(resource: string, operation: string): unknown {
	const node: INode = {
		id: 'n1',
		name: 'Sales & Payments',
		type: ACTION_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource, operation },
	};
	const workflow = new Workflow({ id: 'w', nodes: [node], connections: {}, nodeTypes, active: false });
	// As the editor computes a node's subtitle on the canvas.
	return workflow.expression.getSimpleParameterValue(node, action.subtitle as string, 'internal', {});
}

describe('the editor', () => {
	it('describes every resource in the Resource list', () => {
		const resources = action.properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[];
		expect(resources).toHaveLength(16);
		for (const r of resources) expect({ resource: r.name, described: (r.description ?? '').length > 10 }).toEqual({ resource: r.name, described: true });
	});

	it.each([
		['movement', 'getMany', 'Get Many: Movement'],
		['order', 'createCharge', 'Create Charge: Order'],
		['paymentLink', 'uploadImage', 'Upload Image: Payment Link'],
		['voucher', 'getByCode', 'Get by Code: Voucher'],
		['withdrawRequest', 'getMany', 'Get Many: Withdraw Request'],
		['identity', 'verify2fa', 'Verify 2FA: Identity'],
	])('shows the subtitle of %s.%s as people read it', (resource, operation, expected) => {
		expect(subtitleFor(resource, operation)).toBe(expected);
	});

	it('gives every operation a readable subtitle (no internal values)', () => {
		const resources = action.properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[];
		for (const resource of resources) {
			const ops = action.properties.find(
				(p) => p.name === 'operation' && (p.displayOptions?.show?.resource as string[]).includes(String(resource.value)),
			)!.options as INodePropertyOptions[];
			for (const op of ops) expect(subtitleFor(String(resource.value), String(op.value))).toBe(`${op.name}: ${resource.name}`);
		}
	});

	it("gives the node picker's merged entry the action node's description", () => {
		// n8n's node creator lists the trigger under the action node's entry and shows the
		// trigger's description for it (generateMergedNodesAndActions: app.description = trigger.description).
		expect(TRIGGER_TYPE.replace('Trigger', '')).toBe(ACTION_TYPE);
		expect(trigger.description).toBe(action.description);
		expect(action.description).toMatch(/^Products, subscriptions, refunds, orders, charges/);
	});

	it('lists date and amount ranges so that they read in order, with the same names everywhere', () => {
		const pairs: Array<[string, string]> = [
			['initialDate', 'endDate'],
			['createdAfter', 'createdBefore'],
			['updatedAfter', 'updatedBefore'],
			['initialValue', 'endValue'],
		];
		const checked: string[] = [];
		const polling = nodeTypes.getByNameAndVersion(`${ACTION_TYPE}PollingTrigger`, 1).description;
		const collections = [...action.properties, ...polling.properties].filter((p) => p.type === 'collection');
		for (const prop of collections) {
			const options = (prop.options ?? []) as INodeProperties[];
			const names = options.map((o) => o.name);
			const where = `${String(prop.displayOptions?.show?.resource)}.${prop.name}`;
			for (const [from, to] of pairs) {
				if (!names.includes(from) && !names.includes(to)) continue;
				expect({ where, from: names.indexOf(from) < names.indexOf(to) }).toEqual({ where, from: true });
				const fromLabel = options.find((o) => o.name === from)!.displayName;
				const toLabel = options.find((o) => o.name === to)!.displayName;
				expect(`${fromLabel} | ${toLabel}`).toMatch(/^(.+ From( \(Cents\))? \| .+ To( \(Cents\))?|Created After \| Created Before|Updated After \| Updated Before)$/);
				checked.push(`${where}: ${fromLabel} < ${toLabel}`);
			}
			expect(options.map((o) => o.displayName)).not.toEqual(expect.arrayContaining(['Initial Date']));
			expect(options.map((o) => o.displayName)).not.toEqual(expect.arrayContaining(['End Date']));
		}
		// Movements, commissions, withdraw requests, sales, subscriptions, customers, refunds,
		// products and webhooks all have a date range.
		expect(new Set(checked.map((c) => c.split('.')[0])).size).toBeGreaterThanOrEqual(9);
	});
});
