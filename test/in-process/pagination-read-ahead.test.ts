/**
 * When walk() asks for the next page (issue 32): a consumer that works on each page and reads the
 * whole list (the file outputs) has the next page requested before it is handed the current one, so
 * the platform answers while it writes a page of the file; a consumer that may stop after any page
 * (the polling trigger, dropdowns) never pays for a page it does not read. A small unit: the
 * context gives only what the transport asks of it, and records when each request is sent. Whole
 * exports and Get Many run through n8n-core in export*.test.ts and pagination-*.test.ts.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import type { ApiContext } from '../../nodes/SalesPayments/transport/transport';
import { walk } from '../../nodes/SalesPayments/paging/walk';

const TOTAL = 5;

/** A platform of TOTAL pages of one record each; `sent` lists the pages asked, in order. */
function platform(sent: number[]): ApiContext {
	return {
		getNode: () => ({ id: 'n', name: 'Sales & Payments', type: 'salesPayments', typeVersion: 1, position: [0, 0], parameters: {} }),
		getCredentials: async () => ({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', apiSecret: 's' }),
		getNodeParameter: (_name: string, _i: number, fallback: unknown) => fallback,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				const page = Number((options.qs as IDataObject).page);
				sent.push(page);
				const docs = page <= TOTAL ? [{ id: `r${page}` }] : [];
				return { statusCode: 200, headers: {}, body: JSON.stringify({ statusCode: 200, data: { docs, totalDocs: TOTAL, limit: 1 } }) };
			},
		},
	} as unknown as ApiContext;
}

/** For each page handed over: the pages requested by then. */
async function handOvers(readAhead: boolean, concurrency: number, stopAfter = Infinity): Promise<number[][]> {
	const sent: number[] = [];
	const seen: number[][] = [];
	for await (const page of walk.call(platform(sent), { method: 'POST', path: '/movement/filter', pageSize: 1, concurrency, readAhead })) {
		seen.push([...sent]);
		if (page.pageNo >= stopAfter) break;
	}
	// Pages in flight are settled before the walk returns: `sent` is final here.
	seen.push([...sent]);
	return seen;
}

describe('walk(): reading ahead', () => {
	it.each([1, 2])('a consumer that reads on has page N+1 asked before it is handed page N (Max Concurrent Requests %d)', async (concurrency) => {
		const seen = await handOvers(true, concurrency);
		for (let n = 1; n < TOTAL; n++) expect(seen[n - 1]).toContain(n + 1);
		// Nothing past the list's end (its total says 5 pages).
		expect(seen[TOTAL]).toEqual([1, 2, 3, 4, 5]);
	});

	it('without readAhead, one request at a time: page N+1 is asked only once page N was handled', async () => {
		const seen = await handOvers(false, 1);
		expect(seen.slice(0, TOTAL)).toEqual([[1], [1, 2], [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5]]);
	});

	it('a consumer that stops after page 2 pays for no page beyond it', async () => {
		const seen = await handOvers(false, 1, 2);
		expect(seen.at(-1)).toEqual([1, 2]);
	});
});
