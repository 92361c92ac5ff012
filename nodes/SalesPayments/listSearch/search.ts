import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { ListRequest } from '../shared/pagination';
import { paginate } from '../shared/pagination';

/** Records shown in a "From list" dropdown; the filter narrows them by name or id. */
const DROPDOWN_LIMIT = 200;

/** Fills a resource locator's list from a paginated endpoint, filtered by the user's text. */
export async function searchList(
	this: ILoadOptionsFunctions,
	filter: string | undefined,
	options: {
		request: ListRequest;
		label: (record: IDataObject) => string;
		value?: (record: IDataObject) => string;
		url?: (record: IDataObject) => string | undefined;
	},
): Promise<INodeListSearchResult> {
	const { items } = await paginate.call(this, { ...options.request, limit: DROPDOWN_LIMIT });
	const needle = (filter ?? '').trim().toLowerCase();
	const results = items.map((record) => ({
		name: options.label(record),
		value: options.value ? options.value(record) : String(record.id),
		url: options.url?.(record),
	}));
	return {
		results: needle
			? results.filter((r) => r.name.toLowerCase().includes(needle) || r.value.toLowerCase().includes(needle))
			: results,
	};
}
