import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList } from './search';

export const productSearch = {
	async searchProducts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, paginationToken, {
			request: { method: 'POST', path: '/products/filter', business: true, body: {} },
			label: (p) => String(p.name ?? p.id),
		});
	},
};
