import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList } from './search';

export const customerSearch = {
	async searchCustomers(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, {
			request: { method: 'GET', path: '/customers/list', business: true },
			label: (c) => (c.email ? `${String(c.name ?? c.id)} <${String(c.email)}>` : String(c.name ?? c.id)),
		});
	},
};
