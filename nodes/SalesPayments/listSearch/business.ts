import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList } from './search';
import { ENDPOINTS } from '../transport/endpoints';

export const businessSearch = {
	async searchBusinesses(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, paginationToken, {
			request: ENDPOINTS.business.listByOwner,
			label: (b) => String(b.name ?? b.id),
		});
	},
};
