import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList, isWholeEmail } from './search';

export const customerSearch = {
	async searchCustomers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, paginationToken, {
			request: { method: 'GET', path: '/customers/list', business: true },
			// The list's `email` filter (spec 4.7), for a whole address only.
			filterRequest: (text) =>
				(isWholeEmail(text) ? { method: 'GET', path: '/customers/list', business: true, qs: { email: text } } : undefined),
			label: (c) => (c.email ? `${String(c.name ?? c.id)} <${String(c.email)}>` : String(c.name ?? c.id)),
		});
	},
};
