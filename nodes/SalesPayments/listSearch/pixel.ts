import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList } from './search';
import { ENDPOINTS } from '../transport/endpoints';

export const pixelSearch = {
	async searchPixels(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, paginationToken, {
			// Headers of the pixel list are not shown; business-id is sent as for payment links.
			request: ENDPOINTS.pixel.list,
			label: (p) => (p.platform ? `${String(p.name ?? p.id)} (${String(p.platform)})` : String(p.name ?? p.id)),
		});
	},
};
