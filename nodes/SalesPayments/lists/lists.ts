import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { exportList, FILE_AUTO_MAX_CONCURRENCY, XLSX_AUTO_MAX_CONCURRENCY } from '../files/export';
import type { FileOutput } from '../files/fileNames';
import { FILE_OUTPUTS } from '../files/fileNames';
import { fileOutputFields } from '../files/fileOptions';
import type { ListRequest } from '../paging/pages';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../paging/pages';
import { DEFAULT_MAX_PAGES, DEFAULT_MAX_RECORDS, MAX_MAX_PAGES, MAX_MAX_RECORDS, paginate } from '../paging/walk';
import type { ModelRecord } from '../fields/simplify';
import { forModel, simplifyField } from '../fields/simplify';
import { AS_TOOL, runsAsTool, TOOL_DEFAULT_LIMIT, TOOL_MAX_LIMIT } from '../fields/tool';
import type { FileItem } from '../fields/types';
import { checkBoolean, checkOneOf } from '../fields/validation';
import { fieldError } from '../transport/errors';
import { strictInteger, wholeNumberOption } from '../transport/numbers';
import { AUTO_CONCURRENCY, MAX_CONCURRENCY, NETWORK_MAX_CONCURRENCY } from '../transport/concurrency';

/**
 * What a list operation does with the walk (paging/walk.ts): its fields (Output, Return All /
 * Limit and the Pagination options), their settings, and the records as output items within a
 * ceiling (paginate), or written to one file (files/export.ts).
 */

/** Output of a list: items, or one file (export.ts). */
export const LIST_OUTPUTS = ['items', ...FILE_OUTPUTS] as const;
export type ListOutput = (typeof LIST_OUTPUTS)[number];

/** Items first (the default), then the files in the order people reach for them: Excel, CSV, JSON Lines. */
const OUTPUT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Items', value: 'items', description: 'One item per record' },
	{
		name: 'Excel File (.xlsx)',
		value: 'xlsxFile',
		description: 'One item with every record in an Excel workbook, typed cells, written page by page',
	},
	{ name: 'CSV File', value: 'csvFile', description: 'One item with every record in a CSV file, written page by page' },
	{
		name: 'JSON Lines File',
		value: 'jsonLinesFile',
		description: 'One item with every record in a JSON Lines file (one record per line), written page by page',
	},
];

function outputField(extra: INodePropertyOptions[]): INodeProperties {
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		// n8n's editor lists options as given; an operation's own outputs (Movement's Summary) come last.
		options: [...OUTPUT_OPTIONS, ...extra],
		default: 'items',
		description: 'Items suit up to some thousands of records; a file holds a list of any length without filling the memory of n8n',
	};
}

const returnAllField: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

/**
 * A field as ever, except where an agent's tool outputs items: there the tool's own Limit bounds
 * what a model reads. Two copies of one name, never shown together (n8n then reads the shown one):
 * outside a tool, and in a tool that writes a file, whose list is written whole as ever.
 */
function exceptToolItems(field: INodeProperties): INodeProperties[] {
	const show = field.displayOptions?.show ?? {};
	return [
		{ ...field, displayOptions: { ...(Object.keys(show).length ? { show } : {}), hide: AS_TOOL } },
		{ ...field, displayOptions: { show: { ...show, ...AS_TOOL, output: [...FILE_OUTPUTS] } } },
	];
}

export const listFields: INodeProperties[] = [
	...exceptToolItems(returnAllField),
	...exceptToolItems(limitField),
	{
		...limitField,
		typeOptions: { minValue: 1, maxValue: TOOL_MAX_LIMIT },
		default: TOOL_DEFAULT_LIMIT,
		hint: `The most records the agent receives (at most ${TOOL_MAX_LIMIT}); when more match, it is told so. To let the model choose, set it to be defined automatically by the model.`,
		displayOptions: { show: { ...AS_TOOL, output: ['items'] } },
	},
];

/** Simplify where only an agent's tool shows it: Simplify off gives the agent every field. */
const toolSimplifyField: INodeProperties = {
	...simplifyField,
	hint: 'Simplified: the fields a person reads (ID, status, amounts as money, dates, names), so that a list fits in the model\'s context',
	displayOptions: { show: { ...AS_TOOL, output: ['items'] } },
};

export const paginationOptionsField: INodeProperties = {
	displayName: 'Pagination',
	name: 'pagination',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrency',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_CONCURRENCY },
			default: AUTO_CONCURRENCY,
			description: `How many requests to send at the same time: the pages of a list, and the input items when there are several (read from the first item). 0 (auto) follows what the platform takes: one at first (more when the first page is slow to come), more while pages come back as fast, up to ${NETWORK_MAX_CONCURRENCY}, fewer when it slows down, fails or refuses (429); a CSV or JSON Lines file reads at most ${FILE_AUTO_MAX_CONCURRENCY} pages ahead, an Excel file ${XLSX_AUTO_MAX_CONCURRENCY}. A number from 1 to ${MAX_CONCURRENCY} is used as is (1 = one after another). Records keep their order.`,
		},
		{
			displayName: 'Max Pages',
			name: 'maxPages',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_MAX_PAGES },
			default: DEFAULT_MAX_PAGES,
			description:
				'Most pages one run requests for this list. When the platform still announces more after this many, the node fails with an error instead of requesting pages forever: raise it for longer lists.',
		},
		{
			displayName: 'Max Records',
			name: 'maxRecords',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_MAX_RECORDS },
			default: DEFAULT_MAX_RECORDS,
			description:
				'Most records one run holds as output items. A longer list fails with an error before it fills the memory of n8n (which would stop every workflow): use Limit, filters or a file output instead, or raise this if your n8n has the memory. File outputs have no such bound.',
			displayOptions: { show: { '/output': ['items'] } },
		},
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE },
			default: DEFAULT_PAGE_SIZE,
			description:
				'Records requested per page. The platform does not document its maximum: when it answers fewer (a cap), the list goes on at its size; when it refuses this size, smaller pages are requested.',
		},
	],
};

/**
 * Output, the list fields, the file fields, the pagination options and Simplify: spread into a
 * list operation's properties. `extraOutputs` are further Output values the operation handles
 * itself (Movement's Summary): the other fields are hidden for them. `simplify`: `always` for a
 * list whose records people simplify too (refunds, subscriptions), else only an agent's tool shows it.
 */
export function listPropertiesWith(extraOutputs: INodePropertyOptions[], simplify: 'always' | 'tool' = 'tool'): INodeProperties[] {
	const fields = [...listFields, ...fileOutputFields, paginationOptionsField, simplify === 'always' ? simplifyField : toolSimplifyField];
	if (extraOutputs.length === 0) return [outputField([]), ...fields];
	const listed = [...LIST_OUTPUTS];
	return [
		outputField(extraOutputs),
		...fields.map((p) => {
			const show = p.displayOptions?.show ?? {};
			return { ...p, displayOptions: { ...(p.displayOptions ?? {}), show: { ...show, output: show.output ?? listed } } };
		}),
	];
}

export const listProperties: INodeProperties[] = listPropertiesWith([]);

export interface ListSettings {
	limit?: number;
	pageSize: number;
	concurrency: number;
	maxPages: number;
	maxRecords: number;
}

/**
 * Reads Return All / Limit / Pagination of item `i`, checked before any request. `asTool`: the
 * records go to an agent (a tool's items), read with the tool's Limit.
 */
export function readListSettings(this: IExecuteFunctions, i: number, asTool = false): ListSettings {
	const paging = this.getNodeParameter('pagination', i, {}) as IDataObject;
	const option = (value: unknown, label: string, fallback: number, min: number, max: number, minNote?: string) =>
		wholeNumberOption(this, value, { label, min, max, fallback, minNote }, i);
	const settings: ListSettings = {
		pageSize: option(paging.pageSize, 'Page Size', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
		concurrency: option(paging.maxConcurrency, 'Max Concurrent Requests', AUTO_CONCURRENCY, 0, MAX_CONCURRENCY, ' (auto)'),
		maxPages: option(paging.maxPages, 'Max Pages', DEFAULT_MAX_PAGES, 1, MAX_MAX_PAGES),
		maxRecords: option(paging.maxRecords, 'Max Records', DEFAULT_MAX_RECORDS, 1, MAX_MAX_RECORDS),
	};
	if (asTool) {
		const limit = this.getNodeParameter('limit', i, TOOL_DEFAULT_LIMIT);
		const n = strictInteger(limit, 1);
		if (n === undefined || n > TOOL_MAX_LIMIT) {
			fieldError(this, `Limit must be a whole number from 1 to ${TOOL_MAX_LIMIT} when the node is an AI agent's tool (got ${JSON.stringify(limit)}): ask for fewer records, or narrow the filters`, i);
		}
		return { ...settings, limit: n };
	}
	if (this.getNodeParameter('returnAll', i, false) as boolean) return settings;
	const limit = this.getNodeParameter('limit', i, 50);
	const n = strictInteger(limit, 1);
	if (n === undefined) fieldError(this, `Limit must be a whole number of at least 1 (got ${JSON.stringify(limit)})`, i);
	return { ...settings, limit: n };
}

/**
 * Runs a list operation with the item's Output / Return All / Limit / Pagination settings: its
 * records (as output items), or one item with the file. `shape` is applied to each record in
 * both (e.g. Simplify). An agent's tool gives items sized for a model (listForAgent); its files
 * are written as ever.
 */
export async function listAll(
	this: IExecuteFunctions,
	i: number,
	req: ListRequest,
	model: ModelRecord,
	shape?: (record: IDataObject) => IDataObject,
): Promise<IDataObject[] | FileItem> {
	const output = checkOneOf.call(this, this.getNodeParameter('output', i, 'items'), LIST_OUTPUTS, i, 'Output');
	const asTool = output === 'items' && runsAsTool(this);
	const settings = readListSettings.call(this, i, asTool);
	if (output !== 'items') return await exportList.call(this, i, { ...req, itemIndex: i, ...settings }, output as FileOutput, shape);
	if (asTool) return await listForAgent.call(this, i, { ...req, itemIndex: i, ...settings }, model);
	const { items } = await paginate.call(this, { ...req, itemIndex: i, ...settings });
	return shape ? items.map(shape) : items;
}

/**
 * A list as an agent's tool gives it (docs/ai-agents.md): at most Limit records, each the fields a
 * person reads unless Simplify is off, and when more match, a last item that says so. One record
 * more than Limit is read to know.
 */
async function listForAgent(this: IExecuteFunctions, i: number, req: ListRequest & ListSettings, model: ModelRecord): Promise<IDataObject[]> {
	const limit = req.limit ?? TOOL_DEFAULT_LIMIT;
	const simplify = checkBoolean.call(this, this.getNodeParameter('simplify', i, true), i, 'Simplify');
	const { items } = await paginate.call(this, { ...req, limit: limit + 1 });
	const records = items.slice(0, limit).map((record) => (simplify ? forModel(record, model) : record));
	if (items.length <= limit) return records;
	const raise = limit < TOOL_MAX_LIMIT ? `, or raise Limit (at most ${TOOL_MAX_LIMIT})` : '';
	return [...records, { moreRecords: true, note: `Only the first ${limit} records are shown: more match. Narrow the filters${raise}.` }];
}
