import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList } from './search';
import { ENDPOINTS } from '../transport/endpoints';

export const paymentLinkSearch = {
	async searchPaymentLinks(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, paginationToken, {
			request: ENDPOINTS.paymentLink.list,
			label: (l) => String(l.name ?? l.id),
		});
	},
};
