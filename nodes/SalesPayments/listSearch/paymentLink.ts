import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList } from './search';

export const paymentLinkSearch = {
	async searchPaymentLinks(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, paginationToken, {
			request: { method: 'GET', path: '/payment-links/list', business: true, itemsKey: 'paymentLinks' },
			label: (l) => String(l.name ?? l.id),
		});
	},
};
