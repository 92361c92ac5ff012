import type { OperationDef } from '../../shared/types';
import { apiRequest } from '../../shared/transport';
import { simplifyField } from '../../shared/simplify';
import { requireId } from '../../shared/validation';
import { simplifySubscription, subscriptionLocator } from './fields';

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get a subscription',
	description: 'Read one subscription with its recurrences',
	properties: [subscriptionLocator, simplifyField],
	async execute(i) {
		const id = requireId.call(this, 'subscriptionId', i, 'Subscription');
		const record = await apiRequest.call(this, {
			method: 'GET',
			path: `/subscriptions/${encodeURIComponent(id)}`,
			itemIndex: i,
		});
		const simplify = this.getNodeParameter('simplify', i, true) as boolean;
		if (!simplify) return record;
		// One subscription is read mostly for its payment history: keep the recurrences.
		const simple = simplifySubscription(record);
		if (record.recurrences !== undefined) simple.recurrences = record.recurrences;
		return simple;
	},
};
