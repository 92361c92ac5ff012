import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { resources } from './resources';
import { describeResources, findOperation, PACKAGE_DESCRIPTION, subtitleOf } from './fields/describe';
import { asNodeError, fieldError } from './transport/errors';
import { listSearch } from './listSearch';
import { withDecimalAmounts } from './fields/simplify';
import { FileItem } from './fields/types';
import { itemKeyOf, runConcurrencyOf, runSideBySide } from './fields/sideBySide';
import type { Outcome } from './transport/items';
import type { ItemEffects } from './transport/stoppedRun';
import { stoppedRunNote } from './transport/stoppedRun';

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
		const continueOnFail = this.continueOnFail();
		const { outcomes, effects } = await runSideBySide(this, {
			count: items.length,
			keyOf: (i) => itemKeyOf(this, first, i),
			fixed: runConcurrencyOf(this, first),
			run: async (i) => await runItem(this, i),
			stopOnFailure: !continueOnFail,
		});
		if (!continueOnFail) throwIfStopped(this, outcomes, effects);
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < outcomes.length; i++) {
			const outcome = outcomes[i];
			// Every item ran (with Continue On Fail, or no item failed): one that did not is never skipped silently.
			if (outcome === undefined) throw new NodeOperationError(this.getNode(), `Item ${i} did not run, and no earlier item failed`, { itemIndex: i });
			if (outcome.ok) {
				for (const item of outcome.value) out.push(item);
				continue;
			}
			const error = outcome.error;
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

/**
 * Without Continue On Fail, the failure of the lowest index stops the run: its error is thrown, and
 * its description names what the platform did with every later item (transport/stoppedRun.ts).
 */
function throwIfStopped(ctx: IExecuteFunctions, outcomes: Array<Outcome<INodeExecutionData[]> | undefined>, effects: ItemEffects): void {
	const failed = outcomes.findIndex((outcome) => outcome?.ok !== true);
	const outcome = outcomes[failed];
	if (failed < 0 || outcome === undefined || outcome.ok) return;
	const error = asNodeError(ctx, outcome.error, failed);
	const resource = String(ctx.getNodeParameter('resource', 0));
	const noun = (resources.find((r) => r.value === resource)?.name ?? resource).toLowerCase();
	const note = stoppedRunNote({
		failed,
		outcomes,
		effects,
		recordOf: (_, value) => {
			const id = value.length === 1 ? value[0].json.id : undefined;
			return typeof id === 'string' || typeof id === 'number' ? `${noun} ${id}` : undefined;
		},
	});
	if (note !== undefined) error.description = error.description ? `${error.description.replace(/[\s.]+$/, '')}. ${note}` : note;
	throw error;
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
