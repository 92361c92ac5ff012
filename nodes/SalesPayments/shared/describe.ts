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
	const props: INodeProperties[] = [
		// eslint-disable-next-line n8n-nodes-base/node-param-default-missing -- default comes from the registry
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map((r) => ({ name: r.name, value: r.value, description: r.description })),
			default: resources[0].value,
		},
	];
	for (const resource of resources) {
		// eslint-disable-next-line n8n-nodes-base/node-param-default-missing -- default comes from the registry
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
			default: resource.operations[0].value,
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
