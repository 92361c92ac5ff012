import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchList, isWholeEmail } from './search';
import { ENDPOINTS } from '../transport/endpoints';

export const subscriptionSearch = {
	async searchSubscriptions(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		return await searchList.call(this, filter, paginationToken, {
			request: { ...ENDPOINTS.subscription.filter, body: {} },
			// The filter's `email` (spec 4.1): a customer's whole address. Its `name` is not used, as
			// whether it matches part of a name is not shown.
			filterRequest: (text) =>
				(isWholeEmail(text) ? { ...ENDPOINTS.subscription.filter, body: { email: text } } : undefined),
			label: (s) => {
				const email = (s.customer as IDataObject | undefined)?.email;
				const name = String(s.name ?? s.id);
				return email ? `${name} (${String(email)})` : name;
			},
		});
	},
};
