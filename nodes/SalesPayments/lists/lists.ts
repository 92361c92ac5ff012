import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { exportList, FILE_AUTO_MAX_CONCURRENCY, XLSX_AUTO_MAX_CONCURRENCY } from '../files/export';
import type { FileOutput } from '../files/fileNames';
import { FILE_OUTPUTS } from '../files/fileNames';
import { fileOutputFields } from '../files/fileOptions';
import type { ListRequest } from '../paging/pages';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../paging/pages';
import { DEFAULT_MAX_PAGES, DEFAULT_MAX_RECORDS, MAX_MAX_PAGES, MAX_MAX_RECORDS, paginate } from '../paging/walk';
import type { FileItem } from '../fields/types';
import { checkOneOf } from '../fields/validation';
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

const OUTPUT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'CSV File', value: 'csvFile', description: 'One item with every record in a CSV file, written page by page' },
	{
		name: 'Excel File (.xlsx)',
		value: 'xlsxFile',
		description: 'One item with every record in an Excel workbook, typed cells, written page by page',
	},
	{ name: 'Items', value: 'items', description: 'One item per record' },
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
		// Sorted by name, as n8n lists options.
		options: [...OUTPUT_OPTIONS, ...extra].sort((a, b) => a.name.localeCompare(b.name)),
		default: 'items',
		description: 'Items suit up to some thousands of records; a file holds a list of any length without filling the memory of n8n',
	};
}

export const listFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

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
 * Output, the list fields, the file fields and the pagination options: spread into a list
 * operation's properties. `extraOutputs` are further Output values the operation handles itself
 * (Movement's Summary): the other fields are hidden for them.
 */
export function listPropertiesWith(extraOutputs: INodePropertyOptions[]): INodeProperties[] {
	const fields = [...listFields, ...fileOutputFields, paginationOptionsField];
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

/** Reads Return All / Limit / Pagination of item `i`, checked before any request. */
export function readListSettings(this: IExecuteFunctions, i: number): ListSettings {
	const paging = this.getNodeParameter('pagination', i, {}) as IDataObject;
	const option = (value: unknown, label: string, fallback: number, min: number, max: number, minNote?: string) =>
		wholeNumberOption(this, value, { label, min, max, fallback, minNote }, i);
	const settings: ListSettings = {
		pageSize: option(paging.pageSize, 'Page Size', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
		concurrency: option(paging.maxConcurrency, 'Max Concurrent Requests', AUTO_CONCURRENCY, 0, MAX_CONCURRENCY, ' (auto)'),
		maxPages: option(paging.maxPages, 'Max Pages', DEFAULT_MAX_PAGES, 1, MAX_MAX_PAGES),
		maxRecords: option(paging.maxRecords, 'Max Records', DEFAULT_MAX_RECORDS, 1, MAX_MAX_RECORDS),
	};
	if (this.getNodeParameter('returnAll', i, false) as boolean) return settings;
	const limit = this.getNodeParameter('limit', i, 50);
	const n = strictInteger(limit, 1);
	if (n === undefined) fieldError(this, `Limit must be a whole number of at least 1 (got ${JSON.stringify(limit)})`, i);
	return { ...settings, limit: n };
}

/**
 * Runs a list operation with the item's Output / Return All / Limit / Pagination settings: its
 * records (as output items), or one item with the file. `shape` is applied to each record in
 * both (e.g. Simplify).
 */
export async function listAll(
	this: IExecuteFunctions,
	i: number,
	req: ListRequest,
	shape?: (record: IDataObject) => IDataObject,
): Promise<IDataObject[] | FileItem> {
	const output = checkOneOf.call(this, this.getNodeParameter('output', i, 'items'), LIST_OUTPUTS, i, 'Output');
	const settings = readListSettings.call(this, i);
	if (output !== 'items') return await exportList.call(this, i, { ...req, itemIndex: i, ...settings }, output as FileOutput, shape);
	const { items } = await paginate.call(this, { ...req, itemIndex: i, ...settings });
	return shape ? items.map(shape) : items;
}
