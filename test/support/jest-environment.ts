/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * The test environment of every jest project: jest's node environment, plus, when a test file
 * ends (after its afterAll hooks), the closing of whatever it left registered with closeAtEnd()
 * (./teardown). A close that fails or takes longer than its bound fails the file, by name.
 */
import { TestEnvironment } from 'jest-environment-node';

import { closeRegistered } from './teardown';

export default class SalesPaymentsEnvironment extends TestEnvironment {
	override async teardown(): Promise<void> {
		const { closed, failed } = await closeRegistered(this.global);
		if (closed.length && process.env.SP_TEARDOWN_VERBOSE) process.stderr.write(`[teardown] closed at the end of the file: ${closed.join(', ')}\n`);
		await super.teardown();
		if (failed.length) throw new Error(`closing what the test file left open failed: ${failed.join('; ')}`);
	}
}
