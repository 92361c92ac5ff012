import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { requestOptionsField } from './requestOptions';
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
			props.push(...op.properties.map((p) => withShow(p, show)));
		}
	}
	props.push(requestOptionsField);
	return props;
}

export function findOperation(resources: ResourceDef[], resource: string, operation: string): OperationDef | undefined {
	return resources.find((r) => r.value === resource)?.operations.find((o) => o.value === operation);
}
