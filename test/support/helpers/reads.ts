/**
 * Helpers of the read-operation tests (refunds, sales, subscriptions, financials, products):
 * header assertions, the seeded records of the primary business as the platform shows them,
 * and "From list" search methods run through n8n-core's own LoadOptionsContext.
 */
import { LoadOptionsContext } from 'n8n-core';
import type { INode, INodeListSearchResult, INodeParameters, INodeType } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ACTION_TYPE, CredentialsHelper, loadPackage, makeAdditionalData } from '../harness/n8n-core';
import type { JsonObject, RecordedRequest } from '../simulator/core';
import { ofBusiness, publicView, sortRecords } from '../simulator/filtering';
import type { Direction } from '../simulator/filtering';
import type { Simulator } from '../simulator/server';
import { dataCredentials } from './sim';

/** KEYS always; `business-id` exactly on KEYS+BIZ endpoints and absent on KEYS-only ones. */
export function expectAuth(sim: Simulator, req: RecordedRequest, mode: 'keys' | 'keys+biz'): void {
	expect(req.headers['x-api-key']).toBe(sim.credentials.apiKey);
	expect(req.headers['x-api-secret']).toBe(sim.credentials.apiSecret);
	if (mode === 'keys+biz') expect(req.headers['business-id']).toBe(sim.credentials.businessId);
	else expect(req.headers['business-id']).toBeUndefined();
}

/** Internal records of the credential's business in a simulator collection. */
export function primaryRecords(sim: Simulator, collection: string): JsonObject[] {
	return ofBusiness(sim.state.col(collection), sim.credentials.businessId);
}

/** The primary business's records as the platform lists them, in the given order. */
export function listed(sim: Simulator, collection: string, path = 'createdAt', direction: Direction = 'DESC'): JsonObject[] {
	return sortRecords(primaryRecords(sim, collection), path, direction).map(publicView);
}

/** JSON of n8n items, for comparing with records. */
export function jsonOf(items: Array<{ json: unknown }>): unknown[] {
	return items.map((i) => i.json);
}

/** Runs a listSearch method of the action node the way the editor does ("From list"). */
export async function runListSearch(
	sim: Simulator,
	method: string,
	filter?: string,
	paginationToken?: string,
	/** The node's parameters as the editor holds them (getCurrentNodeParameter reads them). */
	parameters: INodeParameters = {},
): Promise<INodeListSearchResult> {
	const { nodeTypes, credentialTypes } = await loadPackage();
	const node: INode = {
		id: 'node-0',
		name: 'Sales & Payments',
		type: ACTION_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { salesPaymentsApi: { id: 'cred-salesPaymentsApi', name: 'salesPaymentsApi' } },
	};
	const workflow = new Workflow({ id: 'list-search', nodes: [node], connections: {}, nodeTypes, active: false });
	const additionalData = makeAdditionalData(new CredentialsHelper(credentialTypes, dataCredentials(sim)));
	additionalData.currentNodeParameters = parameters;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	const type = nodeTypes.getByNameAndVersion(ACTION_TYPE, 1) as INodeType;
	const search = type.methods?.listSearch?.[method];
	if (!search) throw new Error(`The action node has no listSearch method ${method}`);
	return await search.call(context, filter, paginationToken);
}
