import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** An output item that carries a file (a list written to CSV or JSON Lines): the node outputs it as it is. */
export class FileItem {
	constructor(
		readonly json: IDataObject,
		readonly binary: IBinaryKeyData,
	) {}
}

/** OperationDef.recordKey of an operation whose items name no existing record: they run side by side freely. */
export const NO_RECORD = '';

/** One operation: its fields (shown only for it) and what it does for one input item. */
export interface OperationDef {
	/** Operation value saved in workflows, e.g. `getMany`. */
	value: string;
	name: string;
	/** Sentence shown in the node's action list and to AI agents, e.g. "Get many products". */
	action: string;
	description: string;
	/**
	 * A read whose output may hold amounts in cents: the registry adds Add Decimal Amounts
	 * (fields/simplify.ts) to its fields and the node applies it to every output record.
	 */
	amounts?: boolean;
	/** Fields of this operation; the registry adds the resource/operation display conditions. */
	properties: INodeProperties[];
	/**
	 * What lets items run side by side (SalesPayments.node.ts): the name of the ID field of the
	 * record item i acts on (items naming the same record run one after another, in input order),
	 * or NO_RECORD when items name no existing record (creates, lists). Unset: one item at a time.
	 */
	recordKey?: string;
	/** Returns the JSON of the output item(s) for input item `i`, or one item with a file. */
	execute(this: IExecuteFunctions, i: number): Promise<IDataObject | IDataObject[] | FileItem>;
}

export interface ResourceDef {
	value: string;
	name: string;
	description: string;
	operations: OperationDef[];
}
