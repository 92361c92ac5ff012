import { subscriptionLocator } from '../../fields/locators';
import { notFound } from '../../transport/errors';
import { requestOnRecord } from '../../fields/recordRequest';
import { simplifyField } from '../../fields/simplify';
import type { OperationDef } from '../../fields/types';
import { simplifySubscription } from './helpers';
import { ENDPOINTS } from '../../transport/endpoints';

const explainSubscriptionNotFound = notFound('subscription');

export const get: OperationDef = {
	value: 'get',
	name: 'Get',
	action: 'Get a subscription',
	amounts: true,
	description: 'Read one subscription with its recurrences',
	recordKey: 'subscriptionId',
	properties: [subscriptionLocator('The subscription to read'), simplifyField],
	async execute(i) {
		// KEYS only (spec 4.4).
		const { data: record } = await requestOnRecord.call(this, i, {
			...ENDPOINTS.subscription.get,
			id: { name: 'subscriptionId', label: 'Subscription' },
			explain: explainSubscriptionNotFound,
		});
		if (!(this.getNodeParameter('simplify', i, true) as boolean)) return record;
		// One subscription is read mostly for its payment history: keep the recurrences.
		const simple = simplifySubscription(record);
		if (record.recurrences !== undefined) simple.recurrences = record.recurrences;
		return simple;
	},
};
