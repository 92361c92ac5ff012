import type { CredentialValues } from '../harness/n8n-core';
import type { Simulator, SimulatorOptions } from '../simulator/server';
import { startSimulator } from '../simulator/server';
import { resetWindows } from './windows';

/**
 * Starts a simulator for a test file and closes it afterwards. Each test starts with fresh request
 * windows (what the package learned of the platform's pace in earlier tests is forgotten).
 */
export function useSimulator(options: SimulatorOptions = {}): () => Simulator {
	let sim: Simulator | undefined;
	beforeAll(async () => {
		sim = await startSimulator(options);
	});
	beforeEach(() => resetWindows());
	afterAll(async () => {
		await sim?.close();
	});
	return () => {
		if (!sim) throw new Error('simulator not started');
		return sim;
	};
}

/** The n8n credential values pointing at the simulator's primary account. */
export function dataCredentials(sim: Simulator, overrides: Partial<Record<string, string>> = {}): CredentialValues {
	return { salesPaymentsApi: { ...sim.credentials, ...overrides } };
}
