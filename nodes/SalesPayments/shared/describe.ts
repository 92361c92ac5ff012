import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

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

/** Timeout and retries, read by the transport for every request of an item. */
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30000,
			description: 'How long to wait for the platform to answer one request, in milliseconds',
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 3,
			description:
				'How often to repeat a request refused with 429 (rate limit), or, for reads only, one that failed with 502/503/504 or a dropped connection. Writes such as charges and redemptions are never repeated once the platform may have processed them.',
		},
	],
};

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
