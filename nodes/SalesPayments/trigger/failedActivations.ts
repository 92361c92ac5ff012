import { failedActivationStore } from './stores';

/**
 * When checkExists or create throws, n8n (ActiveWorkflowManager.addWebhooks -> clearWebhooks)
 * calls `delete` exactly as a deactivation does; only this record tells them apart. That cleanup
 * must not delete a working webhook and its queue (a transient 500 at n8n's start): n8n's retry of
 * the activation (1 s, 2 s, 4 s ...) finds the same webhook.
 */

/** A production activation step of this node failed: the cleanup `delete` that follows is recognised. */
export function rememberFailedActivation(nodeKey: string): void {
	failedActivationStore.set(nodeKey, true);
}

/** The activation step succeeded: nothing to recognise. */
export function clearFailedActivation(nodeKey: string): void {
	failedActivationStore.delete(nodeKey);
}

/** Whether this `delete` is n8n's cleanup right after this node's activation failed (consumes the memory). */
export function cleanupAfterFailure(nodeKey: string): boolean {
	const failed = failedActivationStore.get(nodeKey) === true;
	failedActivationStore.delete(nodeKey);
	return failed;
}
