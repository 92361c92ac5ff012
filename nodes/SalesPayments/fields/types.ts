import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** An output item that carries a file (a list written to CSV or JSON Lines): the node outputs it as it is. */
export class FileItem {
	constructor(
		readonly json: IDataObject,
		readonly binary: IBinaryKeyData,
	) {}
}

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
	/** Returns the JSON of the output item(s) for input item `i`, or one item with a file. */
	execute(this: IExecuteFunctions, i: number): Promise<IDataObject | IDataObject[] | FileItem>;
}

export interface ResourceDef {
	value: string;
	name: string;
	description: string;
	operations: OperationDef[];
}
