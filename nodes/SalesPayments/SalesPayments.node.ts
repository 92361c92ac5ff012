import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resources } from './resources';
import { describeResources, findOperation, PACKAGE_DESCRIPTION, subtitleOf } from './fields/describe';
import { asNodeError, fieldError } from './transport/errors';
import { listSearch } from './listSearch';
import { withDecimalAmounts } from './fields/simplify';
import { FileItem } from './fields/types';

export class SalesPayments implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sales & Payments',
		name: 'salesPayments',
		icon: { light: 'file:salesPayments.svg', dark: 'file:salesPayments.dark.svg' },
		group: ['transform'],
		version: 1,
		// "Get Many: Movement", not the values ("getMany: movement").
		subtitle: subtitleOf(resources),
		description: PACKAGE_DESCRIPTION,
		defaults: { name: 'Sales & Payments' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Written out literally: n8n's lint rules read this array from the source.
		credentials: [
			{
				name: 'salesPaymentsApi',
				required: true,
				displayOptions: { hide: { resource: ['identity'] } },
			},
			{
				name: 'salesPaymentsIdentityApi',
				required: true,
				displayOptions: { show: { resource: ['identity'] } },
			},
		],
		properties: describeResources(resources),
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			try {
				const resource = this.getNodeParameter('resource', i) as string;
				const operation = this.getNodeParameter('operation', i) as string;
				const op = findOperation(resources, resource, operation);
				if (!op) fieldError(this, `The operation "${operation}" of "${resource}" is not known`, i);
				const result = await op.execute.call(this, i);
				if (result instanceof FileItem) {
					// A list written to a file: its records were shaped (decimal amounts too) as they were written.
					out.push({ json: result.json, binary: result.binary, pairedItem: { item: i } });
					continue;
				}
				let records: IDataObject[] = Array.isArray(result) ? result : [result];
				if (op.amounts && this.getNodeParameter('decimalAmounts', i, false) === true) {
					records = records.map(withDecimalAmounts);
				}
				for (const json of records) out.push({ json, pairedItem: { item: i } });
			} catch (error) {
				if (this.continueOnFail()) {
					const description = (error as { description?: string }).description;
					const item: INodeExecutionData = {
						json: { error: (error as Error).message, ...(description ? { description } : {}) },
						pairedItem: { item: i },
					};
					// "Continue (using error output)" routes items that carry their error to the error
					// output; n8n then keeps only the message in their JSON, so only set it there.
					if (this.getNode().onError === 'continueErrorOutput') {
						item.error = asNodeError(this, error, i);
					}
					out.push(item);
					continue;
				}
				throw asNodeError(this, error, i);
			}
		}
		return [out];
	}
}
