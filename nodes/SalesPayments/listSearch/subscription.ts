import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList } from './search';

export const subscriptionSearch = {
	async searchSubscriptions(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, {
			request: { method: 'POST', path: '/subscriptions/filter', business: true, body: {} },
			label: (s) => {
				const email = (s.customer as IDataObject | undefined)?.email;
				const name = String(s.name ?? s.id);
				return email ? `${name} (${String(email)})` : name;
			},
		});
	},
};
