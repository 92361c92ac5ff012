import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { ENDPOINTS } from '../transport/endpoints';
import { searchList, isWholeEmail } from './search';

export const customerSearch = {
	async searchCustomers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, paginationToken, {
			request: ENDPOINTS.customer.list,
			// The list's `email` filter (spec 4.7), for a whole address only.
			filterRequest: (text) =>
				(isWholeEmail(text) ? { ...ENDPOINTS.customer.list, qs: { email: text } } : undefined),
			label: (c) => (c.email ? `${String(c.name ?? c.id)} <${String(c.email)}>` : String(c.name ?? c.id)),
		});
	},
};
