/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * n8n-core's binary data modes in-process. The harness runs workflows with n8n-core's own
 * BinaryDataService (the one `prepareBinaryData` stores files with); left alone it has no
 * storage manager, which is n8n's in-memory mode ("default": files live in the item as base64).
 * `useBinaryMode('filesystem')` gives it n8n's FileSystemManager on a temporary folder, exactly
 * as n8n's start-up does (BinaryDataService.init() with N8N_DEFAULT_BINARY_DATA_MODE=filesystem).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import type { IBinaryData } from 'n8n-workflow';

import { closeAtEnd } from '../teardown';

export type BinaryMode = 'default' | 'filesystem';

interface Container {
	get<T>(type: new (...args: never[]) => T): T;
}

/** n8n-core's dependency container: the copy n8n-core itself resolves. */
function container(): Container {
	const from = path.dirname(require.resolve('n8n-core'));
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(require.resolve('@n8n/di', { paths: [from] })) as { Container: Container }).Container;
}

let storage: string | undefined;

/** Switches the binary data mode of the following executions in this test file. */
export async function useBinaryMode(mode: BinaryMode): Promise<void> {
	const service = container().get(BinaryDataService);
	if (mode === 'filesystem' && storage === undefined) {
		const config = container().get(BinaryDataConfig) as unknown as { mode: string; localStoragePath: string };
		storage = mkdtempSync(path.join(tmpdir(), 'sp-binary-'));
		// The files go with the test file (jest) or the process (a bench child): a bench run leaves ~1.5 GB otherwise.
		const folder = storage;
		const remove = () => rmSync(folder, { recursive: true, force: true });
		if (process.env.JEST_WORKER_ID === undefined) process.once('exit', remove);
		else closeAtEnd(`the binary data folder ${folder}`, remove);
		config.mode = 'filesystem';
		config.localStoragePath = storage;
		await service.init();
	}
	// store() uses the manager of its mode; 'default' has none: the file goes into the item.
	(service as unknown as { mode: string }).mode = mode === 'filesystem' ? 'filesystem-v2' : 'default';
}

/** The bytes of a file an execution output, whatever the mode it was stored in. */
export async function readBinary(data: IBinaryData): Promise<Buffer> {
	return await container().get(BinaryDataService).getAsBuffer(data);
}

/** Where a file of the filesystem mode lies on disk. */
export function binaryPath(data: IBinaryData): string {
	if (!data.id) throw new Error('the file is held in the item (in-memory mode), not on disk');
	return container().get(BinaryDataService).getPath(data.id);
}
