import type { IHookFunctions } from 'n8n-workflow';

import { asNodeError } from '../transport/errors';
import { kindOf, nodeKey, triggerData } from './ownership';

/**
 * Production activations of this process that failed, by node, until n8n's cleanup `delete`.
 * When checkExists or create throws, n8n's ActiveWorkflowManager.addWebhooks calls clearWebhooks,
 * which calls `delete` (mode internal, activation update, the static data saved in the database):
 * the very call a deactivation makes. Only this memory tells them apart. That cleanup must not
 * delete a webhook that was working (a transient 500 at n8n's start would otherwise cost the
 * webhook and its queue of failed deliveries): it touches nothing, and n8n's retry of the
 * activation (1 s, 2 s, 4 s ...) finds the same webhook. Entries older than FAILED_ACTIVATION_MS
 * are ignored (n8n's cleanup follows the failure at once).
 */
const failedActivations = new Map<string, number>();
const FAILED_ACTIVATION_MS = 60_000;

/** Runs a production activation step, remembering a failure for the cleanup `delete` that follows. */
export async function activationStep<T>(ctx: IHookFunctions, step: () => Promise<T>): Promise<T> {
	const key = nodeKey(ctx);
	try {
		const result = await step();
		failedActivations.delete(key);
		return result;
	} catch (error) {
		if (kindOf(ctx, triggerData(ctx)) === 'production') failedActivations.set(key, Date.now());
		throw asNodeError(ctx, error);
	}
}

/** Whether this `delete` is n8n's cleanup after this node's activation failed (consumes the memory). */
export function cleanupAfterFailure(ctx: IHookFunctions): boolean {
	if (kindOf(ctx, triggerData(ctx)) !== 'production') return false;
	const key = nodeKey(ctx);
	const failedAt = failedActivations.get(key);
	failedActivations.delete(key);
	return failedAt !== undefined && Date.now() - failedAt < FAILED_ACTIVATION_MS;
}
