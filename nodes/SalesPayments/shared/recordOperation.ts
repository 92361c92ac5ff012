import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, INodeProperties } from 'n8n-workflow';

import type { Explain } from './errors';
import { fieldError } from './errors';
import type { SegmentRule } from './paths';
import { apiRequest } from './transport';
import type { OperationDef } from './types';
import { requireId } from './validation';

/**
 * "One request on one record": every operation that acts on one ID (get, delete, publish,
 * activate, redeem, update...) is declared with this, so each reads and checks its ID and body
 * the same way before the one request, and the path is built from its template.
 */
export interface RecordOperationDef {
	value: string;
	name: string;
	action: string;
	description: string;
	/**
	 * A warning shown at the top of the panel (an n8n notice), for operations whose effect
	 * cannot be undone or only for a while: redeeming, cancelling a redemption.
	 */
	notice?: string;
	/** A read whose answer may hold amounts in cents (adds Add Decimal Amounts). */
	amounts?: boolean;
	/** The ID field (a resource locator or a text field) and how it is named in errors. */
	id: { property: INodeProperties; label: string; rule?: SegmentRule };
	/** Further fields of the operation (update fields, Simplify, extra JSON...). */
	properties?: INodeProperties[];
	method: IHttpRequestMethods;
	/** Path template with `{id}`, e.g. `/payment-links/publish/{id}`. */
	path: string;
	/** Send the credential's business id (KEYS+BIZ, or assumed where the spec does not show headers). */
	business?: boolean;
	/** May be repeated after a lost answer (setting the same state twice). Default: reads only. */
	idempotent?: boolean;
	/** The spec does not show the answer. */
	open?: boolean;
	explain?: Explain;
	/** What to check before repeating the request when its answer was lost or unreadable (writes). */
	acceptedHint?: string;
	/**
	 * The request body, read and checked before any request; undefined sends none. With
	 * `requireBody`, an empty body is refused ("set at least one field to change").
	 */
	body?: (this: IExecuteFunctions, i: number) => IDataObject | undefined;
	requireBody?: string;
	/** The output item's JSON from the answer (default: the answer's data as it is). */
	output?: (this: IExecuteFunctions, data: IDataObject, id: string, i: number) => IDataObject;
}

export function recordOperation(def: RecordOperationDef): OperationDef {
	return {
		value: def.value,
		name: def.name,
		action: def.action,
		description: def.description,
		amounts: def.amounts,
		properties: [
			...(def.notice ? [{ displayName: def.notice, name: `${def.value}Notice`, type: 'notice' as const, default: '' }] : []),
			def.id.property,
			...(def.properties ?? []),
		],
		async execute(i) {
			const id = requireId.call(this, def.id.property.name, i, def.id.label, def.id.rule);
			const body = def.body?.call(this, i);
			if (def.requireBody && (!body || Object.keys(body).length === 0)) fieldError(this, def.requireBody, i);
			const data = await apiRequest.call(this, {
				method: def.method,
				path: def.path,
				pathParams: { id: { value: id, label: def.id.label, rule: def.id.rule } },
				body: body && Object.keys(body).length ? body : undefined,
				business: def.business,
				idempotent: def.idempotent,
				open: def.open,
				explain: def.explain,
				acceptedHint: def.acceptedHint,
				itemIndex: i,
			});
			return def.output ? def.output.call(this, data, id, i) : data;
		},
	};
}
