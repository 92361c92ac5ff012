/**
 * Long lists for the paging tests: the seed keeps some lists short (pixels, webhooks, the
 * account's businesses); these copy a model record until a list holds the size a test pages.
 */
import type { JsonObject } from '../simulator/core';
import type { Simulator } from '../simulator/server';
import { primaryRecords } from './reads';

function copyOf(model: JsonObject, n: number): JsonObject {
	const copy = JSON.parse(JSON.stringify(model)) as JsonObject;
	// One second apart, so that every order the platform sorts by is strict.
	return { ...copy, id: `${String(model.id)}-copy-${n}`, createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString() };
}

/** Copies the first of `own` (default: the primary business's records) into `collection` until `own` plus the copies make `size`. */
export function growCollection(sim: Simulator, collection: string, size: number, own = primaryRecords(sim, collection)): void {
	for (let n = own.length; n < size; n++) sim.state.col(collection).push(copyOf(own[0], n));
}

/** Grows pixels, webhooks (one made through the API, then copied) and, when asked, the account's businesses to `size`. */
export async function growShortLists(sim: Simulator, size: number, options: { businesses?: boolean } = {}): Promise<void> {
	const account = sim.state.accounts[0];
	growCollection(sim, 'pixels', size);
	if (options.businesses) {
		const model = sim.state.businesses.find((b) => b.id === account.businessIds[1])!;
		for (let n = account.businessIds.length; n < size; n++) {
			const id = `${String(model.id)}-copy-${n}`;
			sim.state.businesses.push({ ...(JSON.parse(JSON.stringify(model)) as JsonObject), id, name: `Business ${n}` });
			account.businessIds.push(id);
		}
	}
	const hook = await fetch(`${sim.url}/webhooks`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret },
		body: JSON.stringify({
			externalAccountId: account.businessIds[0],
			name: 'model',
			events: ['order.paid'],
			dispatchers: [{ type: 'http', method: 'POST', url: 'https://hooks.example.com/x', headers: {} }],
		}),
	});
	if (hook.status !== 201) throw new Error(`creating the model webhook answered ${hook.status}`);
	growCollection(sim, 'webhooks', size, sim.state.col('webhooks'));
}
