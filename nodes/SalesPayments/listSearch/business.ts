import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList } from './search';

export const businessSearch = {
	async searchBusinesses(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, paginationToken, {
			request: { method: 'GET', path: '/business/list-businesses-by-owner' },
			label: (b) => String(b.name ?? b.id),
		});
	},
};
