import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { requestOptionsField } from '../transport/requestOptions';
import { decimalAmountsField } from './simplify';
import type { OperationDef, ResourceDef } from './types';

function withShow(prop: INodeProperties, show: IDisplayOptions['show']): INodeProperties {
	return {
		...prop,
		displayOptions: {
			...(prop.displayOptions ?? {}),
			show: { ...(prop.displayOptions?.show ?? {}), ...show },
		},
	};
}

/**
 * What the package does, in one sentence. n8n's node picker shows the action node and the
 * trigger as ONE entry ("Sales & Payments", with the trigger's events among its actions) and
 * gives that entry the trigger's description, so both nodes carry this same sentence: the entry
 * then describes the action node, not only its trigger.
 */
export const PACKAGE_DESCRIPTION =
	'Products, subscriptions, refunds, orders, charges, customers, payment links, pixels, vouchers, financials, webhooks and identity of the Sales & Payments Platform';

/**
 * The node's subtitle on the canvas as people read it, e.g. `Get Many: Movement`: an n8n
 * expression that looks the operation and resource values up by name (falling back to the value).
 */
export function subtitleOf(resources: ResourceDef[]): string {
	const resourceNames: Record<string, string> = {};
	const operationNames: Record<string, string> = {};
	for (const resource of resources) {
		resourceNames[resource.value] = resource.name;
		for (const op of resource.operations) operationNames[`${resource.value}:${op.value}`] = op.name;
	}
	const operation = `(${JSON.stringify(operationNames)}[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"])`;
	const resource = `(${JSON.stringify(resourceNames)}[$parameter["resource"]] || $parameter["resource"])`;
	return `={{ ${operation} + ": " + ${resource} }}`;
}

/** The resource selector, one operation selector per resource, and every operation's fields. */
export function describeResources(resources: ResourceDef[]): INodeProperties[] {
	// Defaults are variables: n8n's lint accepts an identifier as a default it cannot evaluate.
	const firstResource = resources[0].value;
	const props: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map((r) => ({ name: r.name, value: r.value, description: r.description })),
			default: firstResource,
		},
	];
	for (const resource of resources) {
		const firstOperation = resource.operations[0].value;
		props.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: resource.operations.map((op) => ({
				name: op.name,
				value: op.value,
				action: op.action,
				description: op.description,
			})),
			default: firstOperation,
		});
	}
	for (const resource of resources) {
		for (const op of resource.operations) {
			const show = { resource: [resource.value], operation: [op.value] };
			const fields = op.amounts ? [...op.properties, decimalAmountsField] : op.properties;
			props.push(...fields.map((p) => withShow(p, show)));
		}
	}
	props.push(requestOptionsField);
	return props;
}

export function findOperation(resources: ResourceDef[], resource: string, operation: string): OperationDef | undefined {
	return resources.find((r) => r.value === resource)?.operations.find((o) => o.value === operation);
}
