/**
 * The file exports' tests read one list the same way: Return All of the customers created in 2030
 * (the crafted ones each suite seeds), three a page, through n8n-core, with the given Output and
 * File Options.
 */
import type { INodeParameters } from 'n8n-workflow';

import { readBinary } from '../harness/binary';
import { runNode } from '../harness/n8n-core';
import type { Simulator } from '../simulator/server';
import { dataCredentials } from './sim';

export async function exportCustomersOf2030(sim: Simulator, extra: INodeParameters) {
	const { items, error } = await runNode(
		{
			parameters: {
				resource: 'customer',
				operation: 'getMany',
				returnAll: true,
				filters: { createdAfter: '2030-01-01T00:00:00Z' },
				pagination: { pageSize: 3 },
				...extra,
			},
		},
		{ credentials: dataCredentials(sim) },
	);
	const file = items[0]?.binary?.data;
	return { items, error, file, bytes: file ? await readBinary(file) : Buffer.alloc(0) };
}
