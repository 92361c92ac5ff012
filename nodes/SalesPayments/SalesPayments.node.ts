import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resources } from './resources';
import { describeResources, findOperation, PACKAGE_DESCRIPTION, subtitleOf } from './fields/describe';
import { asNodeError, fieldError } from './transport/errors';
import { listSearch } from './listSearch';
import { withDecimalAmounts } from './fields/simplify';
import { FileItem } from './fields/types';
import { itemKeyOf, runConcurrencyOf } from './fields/sideBySide';
import { Lane, setLane } from './transport/gate';
import { runItems } from './transport/items';

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
		if (items.length === 0) return [[]];
		// Resource and Operation take no expressions: the first item's are every item's.
		const first = findOperation(resources, String(this.getNodeParameter('resource', 0)), String(this.getNodeParameter('operation', 0)));
		const fixed = runConcurrencyOf(this, first);
		const lane = new Lane(fixed);
		setLane(this, lane);
		const continueOnFail = this.continueOnFail();
		const outcomes = await runItems({
			count: items.length,
			keyOf: (i) => itemKeyOf(this, first, i),
			// Auto: twice what the credential's window lets be in flight, so that it sees the demand.
			limit: () => fixed ?? 2 * Math.max(1, ...[...lane.gates].map((gate) => gate.window)),
			run: async (i) => await runItem(this, i),
			stopOnFailure: !continueOnFail,
			onStop: (i) => lane.stop(i),
		});
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < outcomes.length; i++) {
			const outcome = outcomes[i];
			// Never started: an earlier item failed and the run stops (its error is thrown below).
			if (outcome === undefined) break;
			if (outcome.ok) {
				for (const item of outcome.value) out.push(item);
				continue;
			}
			const error = outcome.error;
			if (!continueOnFail) throw asNodeError(this, error, i);
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
		}
		return [out];
	}
}

/** Output items of input item `i`. */
async function runItem(ctx: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const resource = ctx.getNodeParameter('resource', i) as string;
	const operation = ctx.getNodeParameter('operation', i) as string;
	const op = findOperation(resources, resource, operation);
	if (!op) fieldError(ctx, `The operation "${operation}" of "${resource}" is not known`, i);
	const result = await op.execute.call(ctx, i);
	// A list written to a file: its records were shaped (decimal amounts too) as they were written.
	if (result instanceof FileItem) return [{ json: result.json, binary: result.binary, pairedItem: { item: i } }];
	let records: IDataObject[] = Array.isArray(result) ? result : [result];
	if (op.amounts && ctx.getNodeParameter('decimalAmounts', i, false) === true) records = records.map(withDecimalAmounts);
	return records.map((json) => ({ json, pairedItem: { item: i } }));
}
