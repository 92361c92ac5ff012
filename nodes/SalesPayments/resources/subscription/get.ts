import { subscriptionLocator } from '../../shared/locators';
import { notFound } from '../../shared/errors';
import { recordOperation } from '../../shared/recordOperation';
import { simplifyField } from '../../shared/simplify';
import { simplifySubscription } from './helpers';
import { ENDPOINTS } from '../../shared/endpoints';

export const get = recordOperation({
	value: 'get',
	name: 'Get',
	action: 'Get a subscription',
	amounts: true,
	description: 'Read one subscription with its recurrences',
	id: { property: subscriptionLocator('The subscription to read'), label: 'Subscription' },
	properties: [simplifyField],
	// KEYS only (spec 4.4).
	...ENDPOINTS.subscription.get,
	explain: notFound('subscription'),
	output(record, _id, i) {
		if (!(this.getNodeParameter('simplify', i, true) as boolean)) return record;
		// One subscription is read mostly for its payment history: keep the recurrences.
		const simple = simplifySubscription(record);
		if (record.recurrences !== undefined) simple.recurrences = record.recurrences;
		return simple;
	},
});
