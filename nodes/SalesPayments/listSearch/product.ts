import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList } from './search';
import { ENDPOINTS } from '../transport/endpoints';

export const productSearch = {
	async searchProducts(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, paginationToken, {
			request: { ...ENDPOINTS.product.filter, body: {} },
			label: (p) => String(p.name ?? p.id),
		});
	},
};
