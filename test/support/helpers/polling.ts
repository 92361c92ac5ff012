/**
 * The polling trigger's test context (in-process, through n8n-core's PollContext): a simulator per
 * test with its clock fixed at the start, records added and changed at chosen seconds, and n8n's
 * clock during each poll.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PollHarness } from '../harness/poll';
import type { JsonObject } from '../simulator/core';
import type { PolledCollection } from '../simulator/routes/records';
import { addRecord, updateRecord } from '../simulator/routes/records';
import type { Simulator } from '../simulator/server';
import { startSimulator } from '../simulator/server';
import { dataCredentials } from './sim';

/**
 * Test context: a fresh simulator per test (records never leak between tests), its clock fixed at
 * the start. n8n's clock during a poll is the simulator's (the platform's) plus `skew`.
 */
export function pollingSetup(options: { maxLimit?: number; wholeSeconds?: boolean } = {}) {
	let current: Simulator | undefined;
	let base = 0;
	let skewMs = 0;
	const sim = () => {
		if (!current) throw new Error('simulator not started');
		return current;
	};
	beforeEach(async () => {
		current = await startSimulator({ size: 12, maxLimit: options.maxLimit });
		// On whole seconds when the platform shows its dates in epoch seconds.
		base = options.wholeSeconds ? Math.floor(Date.now() / 1000) * 1000 : Date.now();
		skewMs = 0;
		current.state.clock.set(base);
	});
	afterEach(async () => {
		await current?.close();
		current = undefined;
	});
	const ctx = {
		sim,
		/** The clock's start in this test. */
		base: () => base,
		/** ISO date `seconds` after the test's start. */
		at: (seconds: number) => new Date(base + seconds * 1000).toISOString(),
		async activate(parameters: INodeParameters, credentialOverrides: Record<string, string> = {}): Promise<PollHarness> {
			return await PollHarness.activate({
				parameters,
				credentials: dataCredentials(sim(), credentialOverrides),
				clock: () => sim().state.clock.now() + skewMs,
			});
		},
		/** n8n's clock runs `seconds` ahead of the platform's (negative: behind). */
		skew(seconds: number): void {
			skewMs = seconds * 1000;
		},
		/** Moves the platform's clock (and n8n's with it) to `seconds` after the test's start. */
		clockAt(seconds: number): void {
			sim().state.clock.set(base + seconds * 1000);
		},
		/** A record of the primary business, dated `seconds` after the test's start. */
		add(collection: PolledCollection, seconds: number, fields: JsonObject = {}): JsonObject {
			sim().state.clock.set(base + seconds * 1000);
			return addRecord(sim(), collection, fields);
		},
		/** Changes a record at `seconds` after the test's start (a status flip moves updatedAt there). */
		update(collection: PolledCollection, id: unknown, seconds: number, fields: JsonObject): JsonObject {
			sim().state.clock.set(base + seconds * 1000);
			return updateRecord(sim(), collection, String(id), fields);
		},
	};
	return ctx;
}

export function ids(items: IDataObject[]): unknown[] {
	return items.map((i) => i.id);
}

