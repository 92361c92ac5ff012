import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import type { Explain } from '../transport/errors';
import { fieldError } from '../transport/errors';
import type { SegmentRule } from '../transport/paths';
import { apiRequest } from '../transport/transport';
import { requireId } from './validation';

/** The ID field of the record an operation acts on, how errors name it, and its path rule. */
export interface RecordId {
	/** Parameter name of the field (a resource locator or a text field). */
	name: string;
	label: string;
	rule?: SegmentRule;
}

type RequestBody = IDataObject | FormData | undefined;

/**
 * One request on one record (get, delete, publish, activate, redeem, update, upload...): spread
 * the endpoint (`...ENDPOINTS.pixel.details`, a path with `{id}`) and name the ID field.
 */
export interface RecordRequest {
	method: IHttpRequestMethods;
	path: string;
	/** Send the credential's business id (KEYS+BIZ, or assumed where the spec does not show headers). */
	business?: boolean;
	id: RecordId;
	/** May be repeated after a lost answer (setting the same state twice). Default: reads only. */
	idempotent?: boolean;
	/** The spec does not show the answer. */
	open?: boolean;
	explain?: Explain;
	/** What to check before repeating the request when its answer was lost or unreadable (writes). */
	acceptedHint?: string;
	/**
	 * Reads and checks the request body, after the ID and before any request; an empty object
	 * sends none. With `requireBody`, an empty body is refused with that message.
	 */
	body?: () => RequestBody | Promise<RequestBody>;
	requireBody?: string;
}

/**
 * Reads and checks the record's ID, then the body, then makes the one request (the path built
 * from its template by the one path builder). Returns the ID and the answer's data.
 */
export async function requestOnRecord(
	this: IExecuteFunctions,
	i: number,
	request: RecordRequest,
): Promise<{ id: string; data: IDataObject }> {
	const { name, label, rule } = request.id;
	const id = requireId.call(this, name, i, label, rule);
	const body = await request.body?.();
	const empty = body === undefined || (!(body instanceof FormData) && Object.keys(body).length === 0);
	if (request.requireBody && empty) fieldError(this, request.requireBody, i);
	const data = await apiRequest.call(this, {
		method: request.method,
		path: request.path,
		pathParams: { id: { value: id, label, rule } },
		body: empty ? undefined : body,
		business: request.business,
		idempotent: request.idempotent,
		open: request.open,
		explain: request.explain,
		acceptedHint: request.acceptedHint,
		itemIndex: i,
	});
	return { id, data };
}
