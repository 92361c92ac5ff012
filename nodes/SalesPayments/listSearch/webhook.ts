import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getCachedCredentials } from '../shared/transport';
import { searchList } from './search';

function webhookLabel(record: IDataObject): string {
	const name = String(record.name ?? record.id);
	const events = Array.isArray(record.events) ? ` [${record.events.join(', ')}]` : '';
	const status = record.status ? ` (${String(record.status)})` : '';
	return `${name}${status}${events}`;
}

export const webhookSearch = {
	/** The webhooks of the credential's business. */
	async searchWebhooks(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const credentials = await getCachedCredentials.call(this);
		const businessId = String(credentials.businessId ?? '').trim();
		if (!businessId) {
			throw new NodeOperationError(this.getNode(), 'The credential has no Business ID, which listing webhooks needs');
		}
		return await searchList.call(this, filter, {
			request: { method: 'GET', path: `/webhooks/list/${encodeURIComponent(businessId)}` },
			label: webhookLabel,
		});
	},
};
