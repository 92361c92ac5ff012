import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { businessIdOf } from '../transport/credentials';
import { searchList } from './search';
import { ENDPOINTS } from '../transport/endpoints';

function webhookLabel(record: IDataObject): string {
	const name = String(record.name ?? record.id);
	const events = Array.isArray(record.events) ? ` [${record.events.join(', ')}]` : '';
	const status = record.status ? ` (${String(record.status)})` : '';
	return `${name}${status}${events}`;
}

export const webhookSearch = {
	/** The webhooks of the credential's business. */
	async searchWebhooks(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		const businessId = await businessIdOf(this);
		return await searchList.call(this, filter, paginationToken, {
			request: {
				...ENDPOINTS.webhook.list,
				pathParams: { businessId: { value: businessId, label: 'Business ID' } },
			},
			label: webhookLabel,
		});
	},
};
